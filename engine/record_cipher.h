// RecordCipher: seals and opens the records of one encrypted store with
// AES-256-GCM (OpenSSL libcrypto). docs/ENCRYPTION.md specifies the bytes:
//
//   sealed := E1 nonce ciphertext tag   ; nonce: 12 random bytes per seal;
//                                       ; tag: 16 bytes
//   aad    := "rockpoint.sealed.1" store_id name
//
// where the plaintext is the record a plaintext store would hold (its own
// format byte and checksum included), store_id is the store's 16 random
// bytes and name the record's name (engine/record_names.h). Open refuses,
// with Corruption naming the record, anything that is not a sealed record
// of this store's key at this name: a plaintext record, a truncated one, a
// changed byte, a record moved to another name or store, another key.
//
// Thread-safety: Seal and Open may be called from many threads at once;
// each thread keeps its own OpenSSL contexts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rockpoint/encryption.h"
#include "rockpoint/status.h"

struct evp_cipher_ctx_st;  // OpenSSL's EVP_CIPHER_CTX

namespace rockpoint {

inline constexpr size_t kStoreIdBytes = 16;

class RecordCipher {
 public:
  static constexpr uint8_t kSealedFormat = 0xE1;
  static constexpr size_t kNonceBytes = 12;
  static constexpr size_t kTagBytes = 16;
  // What sealing adds to a record.
  static constexpr size_t kOverheadBytes = 1 + kNonceBytes + kTagBytes;

  // InvalidArgument unless `key` has kEncryptionKeyBytes bytes and
  // `store_id` kStoreIdBytes.
  static Result<std::unique_ptr<RecordCipher>> Create(
      std::string_view key, std::string_view store_id);
  ~RecordCipher();
  RecordCipher(const RecordCipher&) = delete;
  RecordCipher& operator=(const RecordCipher&) = delete;

  const std::string& store_id() const { return store_id_; }

  // *out = `plaintext` sealed under `name`. IOError if the random source or
  // the cipher fails (nothing sealed then).
  Status Seal(std::string_view name, std::string_view plaintext,
              std::string* out) const;
  // *out = the plaintext of `sealed` under `name`, or Corruption
  // "<what> at <name>: ..." (keys::Describe renders the name) and *out
  // cleared.
  Status Open(std::string_view name, std::string_view sealed,
              std::string_view what, std::string* out) const;

  // The key check a store keeps beside its id: a fixed text sealed under a
  // name no record has. CheckKey: InvalidArgument "wrong encryption key"
  // when `key_check` does not open with this cipher's key.
  Result<std::string> MakeKeyCheck() const;
  Status CheckKey(std::string_view key_check) const;

 private:
  RecordCipher(std::string_view key, std::string_view store_id);
  struct Contexts;
  Contexts& ThreadContexts() const;
  // Feeds the additional authenticated data of `name` to `ctx`; 1 on
  // success.
  int AddAad(evp_cipher_ctx_st* ctx, std::string_view name, bool sealing) const;

  std::string key_;
  const std::string store_id_;
  const uint64_t instance_;  // tells this cipher's thread contexts apart.
};

// What a store keeps about its encryption, each backend in its own place
// (docs/ENCRYPTION.md): both empty for a plaintext store.
struct StoredEncryption {
  std::string store_id;   // kStoreIdBytes random bytes.
  std::string key_check;  // RecordCipher::MakeKeyCheck of the store's key.
  bool encrypted() const { return !key_check.empty(); }
};

// The cipher for a store being opened, or nullptr for a plaintext one:
// - no options, store not encrypted: nullptr;
// - no options, store encrypted: InvalidArgument (the store needs its key);
// - options, store encrypted: its cipher, or InvalidArgument for a wrong key;
// - options, store not encrypted and `store_has_records`: InvalidArgument
//   (a plaintext store is encrypted by `rockpoint rekey`, never in place);
// - options, an empty plaintext store: a cipher with a new store id, and
//   *to_store set to what the backend must write before its first record.
//   (*to_store is left empty in every other case.)
Result<std::unique_ptr<RecordCipher>> OpenStoreCipher(
    const std::optional<EncryptionOptions>& options,
    const StoredEncryption& stored, bool store_has_records,
    StoredEncryption* to_store);

// kStoreIdBytes bytes from the operating system's random source.
Result<std::string> NewStoreId();

}  // namespace rockpoint
