// Encryption at rest on RocksDB: the store id and key check in `meta`, and
// the cipher an open store seals and opens its records with.
#include <string>

#include "engine/record_cipher.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {
namespace {

using Impl = RocksDbCheckpointer::Impl;

// The value of meta key `name`, "" when absent.
Result<std::string> ReadMeta(const Impl& impl, std::string_view name) {
  std::string value;
  const rocksdb::Status read = impl.db->Get(
      rocksdb::ReadOptions(), impl.meta, rocksdb_layout::MetaKey(name), &value);
  if (read.IsNotFound()) return std::string();
  RP_RETURN_IF_ERROR(ToStatus(read, "read " + std::string(name)));
  return value;
}

// Whether any family but `meta` holds a key.
Result<bool> HoldsRecords(const Impl& impl) {
  for (rocksdb::ColumnFamilyHandle* family :
       {impl.checkpoints, impl.blobs, impl.writes, impl.index}) {
    std::unique_ptr<rocksdb::Iterator> it(
        impl.db->NewIterator(rocksdb::ReadOptions(), family));
    it->SeekToFirst();
    RP_RETURN_IF_ERROR(ToStatus(it->status(), "open " + impl.options.path));
    if (it->Valid()) return true;
  }
  return false;
}

// Writes what a new encrypted store keeps, before its first record.
Status StoreEncryption(const Impl& impl, const StoredEncryption& stored) {
  if (impl.options.read_only) {
    return Status::InvalidArgument(
        "cannot start encrypting an empty store opened read-only: " +
        impl.options.path);
  }
  rocksdb::WriteBatch batch;
  batch.Put(impl.meta, rocksdb_layout::MetaKey(rocksdb_layout::kStoreIdMeta),
            stored.store_id);
  batch.Put(impl.meta, rocksdb_layout::MetaKey(rocksdb_layout::kKeyCheckMeta),
            stored.key_check);
  batch.Put(impl.meta,
            rocksdb_layout::MetaKey(rocksdb_layout::kFormatVersionMeta),
            std::to_string(RocksDbCheckpointer::kEncryptedFormatVersion));
  rocksdb::WriteOptions write;
  write.sync = impl.options.sync_writes;
  return ToStatus(impl.db->Write(write, &batch), "write store encryption");
}

}  // namespace

Status SetUpEncryption(Impl& impl, int64_t format_version) {
  StoredEncryption stored;
  RP_ASSIGN_OR_RETURN(stored.store_id,
                      ReadMeta(impl, rocksdb_layout::kStoreIdMeta));
  RP_ASSIGN_OR_RETURN(stored.key_check,
                      ReadMeta(impl, rocksdb_layout::kKeyCheckMeta));
  const bool encrypted_format = IsEncryptedFormat(format_version);
  if (encrypted_format != stored.encrypted() ||
      (stored.encrypted() && stored.store_id.size() != kStoreIdBytes)) {
    return Status::Corruption(
        "store format version " + std::to_string(format_version) +
        (stored.encrypted() ? " with" : " without") +
        " a key check in meta (a damaged store): " + impl.options.path);
  }
  RP_ASSIGN_OR_RETURN(const bool has_records, HoldsRecords(impl));
  StoredEncryption to_store;
  auto cipher =
      OpenStoreCipher(impl.options.encryption, stored, has_records, &to_store);
  if (!cipher.ok()) {
    const std::string message =
        cipher.status().message() + ": " + impl.options.path;
    return cipher.status().IsIOError() ? Status::IOError(message)
                                       : Status::InvalidArgument(message);
  }
  if (to_store.encrypted()) RP_RETURN_IF_ERROR(StoreEncryption(impl, to_store));
  impl.cipher = std::move(cipher).value();
  return Status::OK();
}

}  // namespace rockpoint
