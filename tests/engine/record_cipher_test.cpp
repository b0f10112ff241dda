// RecordCipher and the key helpers: a sealed record opens only under its
// own name, store id and key; every other case is Corruption naming the
// record; keys parse from exactly 64 hex digits; OpenStoreCipher's cases.
#include "engine/record_cipher.h"

#include <doctest/doctest.h>

#include <cstdlib>

#include "engine/contract_helpers.h"
#include "engine/record_names.h"
#include "keys/tuple.h"

namespace rockpoint::testing {
namespace {

const std::string kKey(kEncryptionKeyBytes, 'k');
const std::string kStoreId(kStoreIdBytes, 's');

std::unique_ptr<RecordCipher> Cipher(const std::string& key = kKey,
                                     const std::string& store = kStoreId) {
  return Unwrap(RecordCipher::Create(key, store));
}

std::string Sealed(const RecordCipher& cipher, const std::string& name,
                   const std::string& text) {
  std::string sealed;
  RP_REQUIRE_OK(cipher.Seal(name, text, &sealed));
  return sealed;
}

void CheckRefused(const RecordCipher& cipher, const std::string& name,
                  const std::string& sealed, const std::string& why) {
  std::string out = "stale";
  const Status status = cipher.Open(name, sealed, "checkpoint record", &out);
  INFO(status.ToString());
  CHECK(status.IsCorruption());
  CHECK(status.message().find("checkpoint record at " + keys::Describe(name)) !=
        std::string::npos);
  CHECK(status.message().find(why) != std::string::npos);
  CHECK(out.empty());
}

TEST_CASE("record cipher: a sealed record opens under its own name only") {
  const auto cipher = Cipher();
  const std::string name = record_names::Checkpoint("t", "", "1");
  const std::string sealed = Sealed(*cipher, name, "the record");
  CHECK(sealed.size() == RecordCipher::kOverheadBytes + 10);
  CHECK(static_cast<uint8_t>(sealed[0]) == RecordCipher::kSealedFormat);
  CHECK(sealed.find("the record") == std::string::npos);
  // A random nonce: sealing again gives other bytes.
  CHECK(Sealed(*cipher, name, "the record") != sealed);
  std::string out;
  RP_REQUIRE_OK(cipher->Open(name, sealed, "checkpoint record", &out));
  CHECK(out == "the record");
  // The empty record seals too.
  RP_REQUIRE_OK(
      cipher->Open(name, Sealed(*cipher, name, ""), "checkpoint record", &out));
  CHECK(out.empty());

  const char* kForged = "does not authenticate";
  CheckRefused(*cipher, record_names::Checkpoint("u", "", "1"), sealed,
               kForged);
  CheckRefused(*cipher, record_names::Checkpoint("t", "", "2"), sealed,
               kForged);
  CheckRefused(*Cipher(kKey, std::string(kStoreIdBytes, 'o')), name, sealed,
               kForged);
  CheckRefused(*Cipher(std::string(kEncryptionKeyBytes, 'x')), name, sealed,
               kForged);
  for (size_t at = 1; at < sealed.size(); ++at) {
    std::string changed = sealed;
    changed[at] ^= 0x20;
    CheckRefused(*cipher, name, changed, kForged);
  }
  CheckRefused(*cipher, name, sealed.substr(0, sealed.size() - 1), kForged);
  CheckRefused(*cipher, name, sealed.substr(0, 5), "truncated");
  CheckRefused(*cipher, name, "", "plaintext record");
  CheckRefused(*cipher, name, "\x02plaintext", "plaintext record");
}

TEST_CASE("record cipher: record names bind every identifier") {
  CHECK(record_names::Blob("t", "", "c", int64_t{1}) !=
        record_names::Blob("t", "", "c", std::string("1")));
  CHECK(record_names::Write("t", "", "1", "p", "k", 0) !=
        record_names::Write("t", "", "1", "p", "k", 1));
  CHECK(record_names::Checkpoint("t", "a", "1") !=
        record_names::Checkpoint("ta", "", "1"));
}

TEST_CASE("encryption keys: 64 hex digits, checked") {
  const std::string hex = FormatEncryptionKey(kKey);
  CHECK(hex.size() == 64);
  CHECK(Unwrap(ParseEncryptionKey(" " + hex + "\n")) == kKey);
  for (const std::string& bad :
       {hex.substr(1), hex + "0", "zz" + hex.substr(2), std::string()}) {
    CHECK(ParseEncryptionKey(bad).status().IsInvalidArgument());
  }
  const std::string a = Unwrap(GenerateEncryptionKey());
  CHECK(a.size() == kEncryptionKeyBytes);
  CHECK(a != Unwrap(GenerateEncryptionKey()));
  CHECK(RecordCipher::Create("short", kStoreId).status().IsInvalidArgument());
  CHECK(RecordCipher::Create(kKey, "short").status().IsInvalidArgument());
  std::string secret = "secret";
  WipeSecret(secret);
  CHECK(secret.empty());
}

TEST_CASE("encryption keys: OpenStoreCipher decides a store's cipher") {
  StoredEncryption none;
  StoredEncryption to_store;
  // Plaintext store, no key.
  CHECK(Unwrap(OpenStoreCipher(std::nullopt, none, true, &to_store)) ==
        nullptr);
  // A new store with a key: a new id and key check to write.
  const EncryptionOptions key{kKey};
  auto cipher = Unwrap(OpenStoreCipher(key, none, false, &to_store));
  REQUIRE(cipher != nullptr);
  REQUIRE(to_store.encrypted());
  CHECK(to_store.store_id.size() == kStoreIdBytes);
  const StoredEncryption stored = to_store;
  // Reopened with the key: the same store id, nothing to write.
  auto reopened = Unwrap(OpenStoreCipher(key, stored, true, &to_store));
  CHECK(reopened->store_id() == stored.store_id);
  CHECK_FALSE(to_store.encrypted());
  // Refusals.
  CHECK(OpenStoreCipher(std::nullopt, stored, true, &to_store)
            .status()
            .IsInvalidArgument());
  const auto wrong =
      OpenStoreCipher(EncryptionOptions{std::string(kEncryptionKeyBytes, 'w')},
                      stored, true, &to_store);
  CHECK(wrong.status().message().find("wrong encryption key") !=
        std::string::npos);
  CHECK(OpenStoreCipher(key, none, true, &to_store)
            .status()
            .message()
            .find("rekey") != std::string::npos);
  // The key from the environment.
  ::setenv(kEncryptionKeyEnvironment, FormatEncryptionKey(kKey).c_str(), 1);
  CHECK(OpenStoreCipher(EncryptionOptions{}, stored, true, &to_store).ok());
  ::unsetenv(kEncryptionKeyEnvironment);
  CHECK(OpenStoreCipher(EncryptionOptions{}, stored, true, &to_store)
            .status()
            .IsInvalidArgument());
}

}  // namespace
}  // namespace rockpoint::testing
