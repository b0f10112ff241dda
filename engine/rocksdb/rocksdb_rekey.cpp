// RocksDbCheckpointer::Rekey: every record re-sealed into a new store
// beside the old one, then the two swapped atomically.
#include <filesystem>

#include "base/durable_file.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {
namespace {

// Batches of about this many bytes: bounded memory for any store size.
constexpr size_t kBatchBytes = size_t{8} << 20;

std::string StagingPath(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path + ".rekey";
}

Status RemoveTree(const std::string& path) {
  std::error_code error;
  std::filesystem::remove_all(path, error);
  if (error) {
    return Status::IOError("cannot remove " + path + ": " + error.message());
  }
  return Status::OK();
}

// Copies every entry of `from_family` to `to_family`, re-sealed from
// `source`'s key to `target`'s when `reseal`.
Status CopyFamily(const RocksDbCheckpointer& source,
                  RocksDbCheckpointer& target, const rocksdb::ReadOptions& read,
                  rocksdb::ColumnFamilyHandle* from_family,
                  rocksdb::ColumnFamilyHandle* to_family, bool reseal,
                  const char* what) {
  rocksdb::WriteBatch batch;
  std::string opened;
  PrefixScan scan = source.Scan(from_family, read, "");
  for (PrefixScan::Entry entry : scan) {
    if (!reseal) {
      batch.Put(to_family, entry.key(), entry.value());
    } else {
      RP_ASSIGN_OR_RETURN(
          const std::string_view plain,
          source.Plain(entry.key(), entry.value(), what, &opened));
      RP_ASSIGN_OR_RETURN(const std::string stored,
                          target.Stored(entry.key(), std::string(plain)));
      batch.Put(to_family, entry.key(), stored);
    }
    if (batch.GetDataSize() >= kBatchBytes) {
      RP_RETURN_IF_ERROR(target.Write(batch, "rekey"));
      batch.Clear();
    }
  }
  RP_RETURN_IF_ERROR(scan.status("rekey"));
  return target.Write(batch, "rekey");
}

// Every record of `source`, re-sealed, and its index, into the empty
// `target`; `target` keeps its own meta but the creator's name.
Status CopyStore(const RocksDbCheckpointer& source,
                 RocksDbCheckpointer& target) {
  ScopedSnapshot snapshot(source);
  const rocksdb::ReadOptions read = snapshot.Read();
  RP_RETURN_IF_ERROR(CopyFamily(source, target, read, source.checkpoints,
                                target.checkpoints, true, "checkpoint record"));
  RP_RETURN_IF_ERROR(CopyFamily(source, target, read, source.blobs,
                                target.blobs, true, "blob record"));
  RP_RETURN_IF_ERROR(CopyFamily(source, target, read, source.writes,
                                target.writes, true, "write record"));
  RP_RETURN_IF_ERROR(CopyFamily(source, target, read, source.index,
                                target.index, false, "index entry"));
  const std::string created_by =
      rocksdb_layout::MetaKey(rocksdb_layout::kCreatedByMeta);
  std::string creator;
  const rocksdb::Status found =
      source.db->Get(read, source.meta, created_by, &creator);
  if (found.IsNotFound()) return Status::OK();
  RP_RETURN_IF_ERROR(ToStatus(found, "rekey"));
  rocksdb::WriteBatch batch;
  batch.Put(target.meta, created_by, creator);
  return target.Write(batch, "rekey");
}

}  // namespace

Status RocksDbCheckpointer::Rekey(
    const RocksDbOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  if (options.read_only) {
    return Status::InvalidArgument("rekey needs a store opened read-write");
  }
  RocksDbOptions source_options = options;
  source_options.create_if_missing = false;
  RP_ASSIGN_OR_RETURN(auto source, Open(source_options));
  const std::string staging = StagingPath(options.path);
  RP_RETURN_IF_ERROR(RemoveTree(staging));
  RocksDbOptions target_options = options;
  target_options.path = staging;
  target_options.create_if_missing = true;
  target_options.sync_writes = false;  // synced as a whole below
  target_options.encryption = new_encryption;
  RP_ASSIGN_OR_RETURN(auto target, Open(target_options));
  RP_RETURN_IF_ERROR(CopyStore(*source, *target));
  RP_RETURN_IF_ERROR(target->Close());
  RP_RETURN_IF_ERROR(SyncDirectoryTree(staging));
  RP_RETURN_IF_ERROR(source->Close());
  RP_RETURN_IF_ERROR(ExchangePaths(staging, options.path));
  const Status removed = RemoveTree(staging);
  if (!removed.ok()) {
    return Status::IOError(
        "the store is re-keyed, but its old copy remains at " + staging +
        " (remove it): " + removed.message());
  }
  return Status::OK();
}

}  // namespace rockpoint
