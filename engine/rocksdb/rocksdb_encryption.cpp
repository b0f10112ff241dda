// Encryption at rest on RocksDB: the store id and key check in `meta`, and
// the cipher an open store seals and opens its records with.
#include <string>

#include "engine/record_cipher.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {
namespace {

// The value of meta key `name`, "" when absent.
Result<std::string> ReadMeta(const RocksDbCheckpointer& backend,
                             std::string_view name) {
  std::string value;
  const rocksdb::Status read =
      backend.db->Get(rocksdb::ReadOptions(), backend.meta,
                      rocksdb_layout::MetaKey(name), &value);
  if (read.IsNotFound()) return std::string();
  RP_RETURN_IF_ERROR(ToStatus(read, "read " + std::string(name)));
  return value;
}

// Whether any family but `meta` holds a key.
Result<bool> HoldsRecords(const RocksDbCheckpointer& backend) {
  for (rocksdb::ColumnFamilyHandle* family :
       {backend.checkpoints, backend.blobs, backend.writes, backend.index}) {
    std::unique_ptr<rocksdb::Iterator> it(
        backend.db->NewIterator(rocksdb::ReadOptions(), family));
    it->SeekToFirst();
    RP_RETURN_IF_ERROR(ToStatus(it->status(), "open " + backend.options.path));
    if (it->Valid()) return true;
  }
  return false;
}

// Writes what a new encrypted store keeps, before its first record.
Status StoreEncryption(const RocksDbCheckpointer& backend,
                       const StoredEncryption& stored) {
  if (backend.options.read_only) {
    return Status::InvalidArgument(
        "cannot start encrypting an empty store opened read-only: " +
        backend.options.path);
  }
  rocksdb::WriteBatch batch;
  batch.Put(backend.meta, rocksdb_layout::MetaKey(rocksdb_layout::kStoreIdMeta),
            stored.store_id);
  batch.Put(backend.meta,
            rocksdb_layout::MetaKey(rocksdb_layout::kKeyCheckMeta),
            stored.key_check);
  batch.Put(backend.meta,
            rocksdb_layout::MetaKey(rocksdb_layout::kFormatVersionMeta),
            std::to_string(RocksDbCheckpointer::kEncryptedFormatVersion));
  rocksdb::WriteOptions write;
  write.sync = backend.options.sync_writes;
  return ToStatus(backend.db->Write(write, &batch), "write store encryption");
}

}  // namespace

Status SetUpEncryption(RocksDbCheckpointer& backend, int64_t format_version) {
  StoredEncryption stored;
  RP_ASSIGN_OR_RETURN(stored.store_id,
                      ReadMeta(backend, rocksdb_layout::kStoreIdMeta));
  RP_ASSIGN_OR_RETURN(stored.key_check,
                      ReadMeta(backend, rocksdb_layout::kKeyCheckMeta));
  const bool encrypted_format = IsEncryptedFormat(format_version);
  if (encrypted_format != stored.encrypted() ||
      (stored.encrypted() && stored.store_id.size() != kStoreIdBytes)) {
    return Status::Corruption(
        "store format version " + std::to_string(format_version) +
        (stored.encrypted() ? " with" : " without") +
        " a key check in meta (a damaged store): " + backend.options.path);
  }
  RP_ASSIGN_OR_RETURN(const bool has_records, HoldsRecords(backend));
  StoredEncryption to_store;
  auto cipher = OpenStoreCipher(backend.options.encryption, stored, has_records,
                                &to_store);
  if (!cipher.ok()) {
    const std::string message =
        cipher.status().message() + ": " + backend.options.path;
    return cipher.status().IsIOError() ? Status::IOError(message)
                                       : Status::InvalidArgument(message);
  }
  if (to_store.encrypted())
    RP_RETURN_IF_ERROR(StoreEncryption(backend, to_store));
  backend.cipher = std::move(cipher).value();
  return Status::OK();
}

}  // namespace rockpoint
