#include "engine/record_cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <atomic>
#include <cstring>

#include "keys/tuple.h"

namespace rockpoint {
namespace {

constexpr std::string_view kAadLabel = "rockpoint.sealed.1";
// The key check's name: one text element no record name has.
constexpr std::string_view kKeyCheckTag = "keycheck";
constexpr std::string_view kKeyCheckText = "rockpoint key check";

std::atomic<uint64_t> next_instance{1};

// Random nonces, drawn from OpenSSL's generator a block at a time per
// thread: one RAND_bytes call per kNoncesPerRefill seals instead of one per
// seal. Every nonce is still 12 fresh random bytes, used once.
constexpr size_t kNoncesPerRefill = 256;
struct NoncePool {
  unsigned char bytes[kNoncesPerRefill * RecordCipher::kNonceBytes];
  size_t used = kNoncesPerRefill;  // empty until the first refill
  ~NoncePool() { OPENSSL_cleanse(bytes, sizeof(bytes)); }
};

// Copies a fresh nonce to `out`; false if the random source failed.
bool NextNonce(unsigned char* out) {
  thread_local NoncePool pool;
  if (pool.used == kNoncesPerRefill) {
    if (RAND_bytes(pool.bytes, sizeof(pool.bytes)) != 1) return false;
    pool.used = 0;
  }
  unsigned char* nonce = pool.bytes + pool.used * RecordCipher::kNonceBytes;
  std::memcpy(out, nonce, RecordCipher::kNonceBytes);
  OPENSSL_cleanse(nonce, RecordCipher::kNonceBytes);
  ++pool.used;
  return true;
}

const unsigned char* Bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}
unsigned char* Bytes(std::string* text) {
  return reinterpret_cast<unsigned char*>(text->data());
}

std::string KeyCheckName() {
  keys::TupleWriter writer;
  writer.AddString(kKeyCheckTag);
  return writer.Release();
}

Status SealedCorruption(std::string_view what, std::string_view name,
                        std::string_view why) {
  return Status::Corruption(std::string(what) + " at " + keys::Describe(name) +
                            ": " + std::string(why));
}

}  // namespace

// One thread's OpenSSL contexts, keyed for the cipher `owner` last used
// them: re-keying costs a key schedule, so a thread that keeps using one
// store's cipher pays it once.
struct RecordCipher::Contexts {
  Contexts() : seal(EVP_CIPHER_CTX_new()), open(EVP_CIPHER_CTX_new()) {}
  ~Contexts() {
    EVP_CIPHER_CTX_free(seal);
    EVP_CIPHER_CTX_free(open);
  }
  uint64_t owner = 0;
  EVP_CIPHER_CTX* seal;
  EVP_CIPHER_CTX* open;
};

RecordCipher::RecordCipher(std::string_view key, std::string_view store_id)
    : key_(key), store_id_(store_id), instance_(next_instance++) {}

RecordCipher::~RecordCipher() { OPENSSL_cleanse(key_.data(), key_.size()); }

Result<std::unique_ptr<RecordCipher>> RecordCipher::Create(
    std::string_view key, std::string_view store_id) {
  if (key.size() != kEncryptionKeyBytes) {
    return Status::InvalidArgument("an encryption key must be 32 bytes, not " +
                                   std::to_string(key.size()));
  }
  if (store_id.size() != kStoreIdBytes) {
    return Status::InvalidArgument("a store id must be 16 bytes, not " +
                                   std::to_string(store_id.size()));
  }
  return std::unique_ptr<RecordCipher>(new RecordCipher(key, store_id));
}

RecordCipher::Contexts& RecordCipher::ThreadContexts() const {
  thread_local Contexts contexts;
  if (contexts.owner != instance_) {
    contexts.owner = 0;
    if (contexts.seal == nullptr || contexts.open == nullptr ||
        EVP_EncryptInit_ex(contexts.seal, EVP_aes_256_gcm(), nullptr,
                           Bytes(key_), nullptr) != 1 ||
        EVP_DecryptInit_ex(contexts.open, EVP_aes_256_gcm(), nullptr,
                           Bytes(key_), nullptr) != 1) {
      return contexts;  // owner 0: Seal and Open report the failure.
    }
    contexts.owner = instance_;
  }
  return contexts;
}

int RecordCipher::AddAad(EVP_CIPHER_CTX* ctx, std::string_view name,
                         bool sealing) const {
  // One update: each GCM update of a partial block costs as much as a
  // whole one.
  thread_local std::string aad;
  aad.assign(kAadLabel).append(store_id_).append(name);
  int length = 0;
  return (sealing ? EVP_EncryptUpdate : EVP_DecryptUpdate)(
      ctx, nullptr, &length, Bytes(aad), static_cast<int>(aad.size()));
}

Status RecordCipher::Seal(std::string_view name, std::string_view plaintext,
                          std::string* out) const {
  out->clear();
  Contexts& contexts = ThreadContexts();
  if (contexts.owner != instance_) {
    return Status::IOError("cannot set up AES-256-GCM (OpenSSL)");
  }
  out->resize(kOverheadBytes + plaintext.size());
  (*out)[0] = static_cast<char>(kSealedFormat);
  unsigned char* nonce = Bytes(out) + 1;
  if (!NextNonce(nonce)) {
    out->clear();
    return Status::IOError("the random source failed (OpenSSL RAND_bytes)");
  }
  EVP_CIPHER_CTX* ctx = contexts.seal;
  unsigned char* cipher_text = nonce + kNonceBytes;
  int length = 0;
  int ok = EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce);
  ok &= AddAad(ctx, name, /*sealing=*/true);
  ok &= EVP_EncryptUpdate(ctx, cipher_text, &length, Bytes(plaintext),
                          static_cast<int>(plaintext.size()));
  ok &= EVP_EncryptFinal_ex(ctx, cipher_text + length, &length);
  ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, kTagBytes,
                            cipher_text + plaintext.size());
  if (ok != 1) {
    out->clear();
    return Status::IOError("AES-256-GCM sealing failed (OpenSSL)");
  }
  return Status::OK();
}

Status RecordCipher::Open(std::string_view name, std::string_view sealed,
                          std::string_view what, std::string* out) const {
  out->clear();
  if (sealed.empty() || static_cast<uint8_t>(sealed[0]) != kSealedFormat) {
    return SealedCorruption(what, name,
                            "not a sealed record (a plaintext record in an "
                            "encrypted store)");
  }
  if (sealed.size() < kOverheadBytes) {
    return SealedCorruption(what, name, "sealed record is truncated");
  }
  Contexts& contexts = ThreadContexts();
  if (contexts.owner != instance_) {
    return Status::IOError("cannot set up AES-256-GCM (OpenSSL)");
  }
  const size_t text_size = sealed.size() - kOverheadBytes;
  const unsigned char* nonce = Bytes(sealed) + 1;
  const unsigned char* cipher_text = nonce + kNonceBytes;
  unsigned char tag[kTagBytes];
  std::memcpy(tag, sealed.data() + sealed.size() - kTagBytes, kTagBytes);
  out->resize(text_size);
  EVP_CIPHER_CTX* ctx = contexts.open;
  int length = 0;
  int ok = EVP_DecryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce);
  ok &= AddAad(ctx, name, /*sealing=*/false);
  ok &= EVP_DecryptUpdate(ctx, Bytes(out), &length, cipher_text,
                          static_cast<int>(text_size));
  ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, kTagBytes, tag);
  if (ok != 1 || EVP_DecryptFinal_ex(ctx, Bytes(out) + length, &length) != 1) {
    OPENSSL_cleanse(out->data(), out->size());
    out->clear();
    return SealedCorruption(what, name,
                            "sealed record does not authenticate (changed, "
                            "moved from another record or store, or sealed "
                            "with another key)");
  }
  return Status::OK();
}

Result<std::string> RecordCipher::MakeKeyCheck() const {
  std::string sealed;
  RP_RETURN_IF_ERROR(Seal(KeyCheckName(), kKeyCheckText, &sealed));
  return sealed;
}

Status RecordCipher::CheckKey(std::string_view key_check) const {
  std::string text;
  Status opened = Open(KeyCheckName(), key_check, "key check", &text);
  if (opened.IsIOError()) return opened;
  if (!opened.ok() || text != kKeyCheckText) {
    return Status::InvalidArgument(
        "wrong encryption key: the store's key check does not open with it");
  }
  return Status::OK();
}

Result<std::string> NewStoreId() {
  std::string id(kStoreIdBytes, '\0');
  if (RAND_bytes(Bytes(&id), static_cast<int>(id.size())) != 1) {
    return Status::IOError("the random source failed (OpenSSL RAND_bytes)");
  }
  return id;
}

Result<std::unique_ptr<RecordCipher>> OpenStoreCipher(
    const std::optional<EncryptionOptions>& options,
    const StoredEncryption& stored, bool store_has_records,
    StoredEncryption* to_store) {
  *to_store = StoredEncryption{};
  if (!options) {
    if (!stored.encrypted()) return std::unique_ptr<RecordCipher>();
    return Status::InvalidArgument(
        "the store is encrypted: give its key (EncryptionOptions, "
        "--key-file or ROCKPOINT_AES_KEY)");
  }
  RP_ASSIGN_OR_RETURN(std::string key, ResolveEncryptionKey(*options));
  if (stored.encrypted()) {
    RP_ASSIGN_OR_RETURN(auto cipher,
                        RecordCipher::Create(key, stored.store_id));
    OPENSSL_cleanse(key.data(), key.size());
    RP_RETURN_IF_ERROR(cipher->CheckKey(stored.key_check));
    return cipher;
  }
  if (store_has_records) {
    OPENSSL_cleanse(key.data(), key.size());
    return Status::InvalidArgument(
        "the store holds plaintext records: encrypt it with `rockpoint "
        "rekey --new-key-file FILE`, not by opening it with a key");
  }
  RP_ASSIGN_OR_RETURN(std::string store_id, NewStoreId());
  RP_ASSIGN_OR_RETURN(auto cipher, RecordCipher::Create(key, store_id));
  OPENSSL_cleanse(key.data(), key.size());
  RP_ASSIGN_OR_RETURN(std::string key_check, cipher->MakeKeyCheck());
  *to_store = StoredEncryption{std::move(store_id), std::move(key_check)};
  return cipher;
}

}  // namespace rockpoint
