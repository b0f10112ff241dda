#include "rockpoint/encryption.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstdlib>

namespace rockpoint {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

Result<std::string> ParseEncryptionKey(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  if (text.size() != 2 * kEncryptionKeyBytes) {
    return Status::InvalidArgument(
        "an encryption key is 64 hex digits (32 bytes), not " +
        std::to_string(text.size()) + " characters");
  }
  std::string key(kEncryptionKeyBytes, '\0');
  for (size_t i = 0; i < key.size(); ++i) {
    const int high = HexDigit(text[2 * i]);
    const int low = HexDigit(text[2 * i + 1]);
    if (high < 0 || low < 0) {
      OPENSSL_cleanse(key.data(), key.size());
      return Status::InvalidArgument(
          "an encryption key is 64 hex digits: found a character that is "
          "not one");
    }
    key[i] = static_cast<char>(high * 16 + low);
  }
  return key;
}

std::string FormatEncryptionKey(std::string_view key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * key.size());
  for (char byte : key) {
    const auto value = static_cast<unsigned char>(byte);
    text.push_back(kDigits[value >> 4]);
    text.push_back(kDigits[value & 15]);
  }
  return text;
}

Result<std::string> ResolveEncryptionKey(const EncryptionOptions& options) {
  if (!options.key.empty()) {
    if (options.key.size() != kEncryptionKeyBytes) {
      return Status::InvalidArgument(
          "an encryption key must be 32 bytes, not " +
          std::to_string(options.key.size()));
    }
    return options.key;
  }
  const char* text = std::getenv(kEncryptionKeyEnvironment);
  if (text == nullptr || *text == '\0') {
    return Status::InvalidArgument(
        "no encryption key: EncryptionOptions.key is empty and "
        "ROCKPOINT_AES_KEY is not set");
  }
  auto key = ParseEncryptionKey(text);
  if (!key.ok()) {
    return Status::InvalidArgument("ROCKPOINT_AES_KEY: " +
                                   key.status().message());
  }
  return key;
}

Result<std::string> GenerateEncryptionKey() {
  std::string key(kEncryptionKeyBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()),
                 static_cast<int>(key.size())) != 1) {
    return Status::IOError("the random source failed (OpenSSL RAND_bytes)");
  }
  return key;
}

void WipeSecret(std::string& secret) {
  OPENSSL_cleanse(secret.data(), secret.size());
  secret.clear();
}

}  // namespace rockpoint
