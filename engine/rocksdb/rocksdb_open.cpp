// Opening a store: options, column families, the format version in `meta`,
// the lock (Busy), read-only mode. Also the public class's forwarding
// methods.
#include <rocksdb/file_system.h>

#include <charconv>

#include "base/durable_file.h"
#include "engine/backend_rules.h"
#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_options.h"
#include "engine/rocksdb/shared_db.h"
#include "keys/tuple.h"
#include "rockpoint/version.h"

namespace rockpoint {
namespace {

const std::string kCreatedBy = std::string("rockpoint ") + kVersion;

// The name of a column family other than `default` that holds a key, or
// nullopt when every one is empty: a store is new only if none holds data.
Result<std::optional<std::string>> FamilyWithData(
    RocksDbCheckpointer& backend) {
  for (rocksdb::ColumnFamilyHandle* family :
       {backend.checkpoints, backend.blobs, backend.writes, backend.index,
        backend.meta}) {
    std::unique_ptr<rocksdb::Iterator> it(
        backend.db->NewIterator(rocksdb::ReadOptions(), family));
    it->SeekToFirst();
    RP_RETURN_IF_ERROR(ToStatus(it->status(), "open " + backend.options.path));
    if (it->Valid()) return std::optional<std::string>(family->GetName());
  }
  return std::optional<std::string>();
}

// Upgrades a store of format 1, 2 or 3 opened read-write, in one atomic
// write: adds the hidden count of every namespace with hidden checkpoints
// and stamps 4 (5 if encrypted), which older builds refuse at Open, so they
// never change hidden checkpoints without the counts. Format 1 records
// (without checksums) still read; this build writes records with them.
Result<int64_t> UpgradeFormat(RocksDbCheckpointer& backend, int64_t version) {
  const int64_t upgraded = IsEncryptedFormat(version)
                               ? RocksDbCheckpointer::kEncryptedFormatVersion
                               : RocksDbCheckpointer::kFormatVersion;
  rocksdb::WriteBatch batch;
  RP_RETURN_IF_ERROR(
      AddEveryHiddenCount(backend, rocksdb::ReadOptions(), batch));
  batch.Put(backend.meta,
            rocksdb_layout::MetaKey(rocksdb_layout::kFormatVersionMeta),
            std::to_string(upgraded));
  rocksdb::WriteOptions write;
  write.sync = backend.options.sync_writes;
  RP_RETURN_IF_ERROR(
      ToStatus(backend.db->Write(write, &batch), "upgrade format version"));
  return upgraded;
}

// Reads the format version in `meta`, writes it (and created_by) into a
// new store, refuses a newer one; returns the version the store has now. A
// store that holds data but no format version lost its `meta` record:
// Corruption, never a silent re-stamp.
Result<int64_t> CheckFormatVersion(RocksDbCheckpointer& backend) {
  const std::string key =
      rocksdb_layout::MetaKey(rocksdb_layout::kFormatVersionMeta);
  std::string stored;
  rocksdb::Status read =
      backend.db->Get(rocksdb::ReadOptions(), backend.meta, key, &stored);
  if (read.IsNotFound()) {
    RP_ASSIGN_OR_RETURN(std::optional<std::string> family,
                        FamilyWithData(backend));
    if (family) {
      return Status::Corruption(
          "store has no format version record " + keys::Describe(key) +
          " in meta, but its " + *family +
          " column family holds data (a damaged store; not re-stamped): " +
          backend.options.path);
    }
    if (backend.options.read_only) {
      return Status::InvalidArgument(
          "store has no format version (not a "
          "rockpoint store?): " +
          backend.options.path);
    }
    rocksdb::WriteBatch batch;
    batch.Put(backend.meta, key,
              std::to_string(RocksDbCheckpointer::kFormatVersion));
    batch.Put(backend.meta,
              rocksdb_layout::MetaKey(rocksdb_layout::kCreatedByMeta),
              kCreatedBy);
    rocksdb::WriteOptions write;
    write.sync = backend.options.sync_writes;
    RP_RETURN_IF_ERROR(
        ToStatus(backend.db->Write(write, &batch), "write format version"));
    return RocksDbCheckpointer::kFormatVersion;
  }
  RP_RETURN_IF_ERROR(ToStatus(read, "read format version"));
  int64_t version = 0;
  const auto [end, error] =
      std::from_chars(stored.data(), stored.data() + stored.size(), version);
  if (error != std::errc() || end != stored.data() + stored.size()) {
    return Status::Corruption("format version in meta is not a number: \"" +
                              stored + "\" (" + backend.options.path + ")");
  }
  if (version > RocksDbCheckpointer::kEncryptedFormatVersion) {
    return Status::InvalidArgument(
        "store format version " + std::to_string(version) +
        " is newer than this build supports (" +
        std::to_string(RocksDbCheckpointer::kEncryptedFormatVersion) +
        "): " + backend.options.path);
  }
  if (version < 1) {
    return Status::Corruption("format version in meta is " + stored +
                              ", not a version any build wrote (" +
                              backend.options.path + ")");
  }
  if (KeepsHiddenCounts(version) || backend.options.read_only) return version;
  return UpgradeFormat(backend, version);
}

// Creates the store directory `path` if it is missing, and makes its entry
// durable: RocksDB creates a missing directory but never fsyncs its parent,
// so after a power loss the whole store (every synced write in it) could
// vanish. Only the last component is created; a missing parent is IOError.
Status CreateStoreDirectory(rocksdb::FileSystem& fs, const std::string& path) {
  const rocksdb::IOOptions io;
  const rocksdb::IOStatus exists = fs.FileExists(path, io, nullptr);
  if (exists.ok()) return Status::OK();
  if (!exists.IsNotFound()) {
    return ToStatus(exists, "open " + path);
  }
  RP_RETURN_IF_ERROR(ToStatus(fs.CreateDirIfMissing(path, io, nullptr),
                              "create store directory " + path));
  const std::string parent = ParentDirectory(path);
  std::unique_ptr<rocksdb::FSDirectory> directory;
  rocksdb::IOStatus synced = fs.NewDirectory(parent, io, &directory, nullptr);
  if (synced.ok()) synced = directory->Fsync(io, nullptr);
  if (directory) {
    rocksdb::IOStatus closed = directory->Close(io, nullptr);
    if (synced.ok()) synced = closed;
  }
  return ToStatus(synced,
                  "sync " + parent + " (the parent of new store " + path + ")");
}

}  // namespace

Result<std::unique_ptr<RocksDbCheckpointer>> RocksDbCheckpointer::Open(
    const RocksDbOptions& options) {
  return RocksDbOpener::Open(options, nullptr);
}

Result<std::unique_ptr<RocksDbCheckpointer>> RocksDbOpener::Open(
    const RocksDbOptions& options, rocksdb::Env* env) {
  if (options.path.empty()) {
    return Status::InvalidArgument("options.path is missing");
  }
  std::unique_ptr<RocksDbCheckpointer> backend(
      new RocksDbCheckpointer(options));
  rocksdb::FileSystem& fs = env != nullptr
                                ? *env->GetFileSystem()
                                : *rocksdb::Env::Default()->GetFileSystem();
  if (!options.read_only && options.create_if_missing) {
    RP_RETURN_IF_ERROR(CreateStoreDirectory(fs, options.path));
  }
  SharedDbRequest request{
      .path = options.path,
      .claim = kCheckpointStoreClaim,
      .families = {kCheckpointsFamily, kBlobsFamily, kWritesFamily,
                   kIndexFamily, kMetaFamily},
      .read_only = options.read_only,
      .create_if_missing = options.create_if_missing,
      .encrypted = options.encryption.has_value(),
      .tuning = &options,
      .env = env};
  RP_ASSIGN_OR_RETURN(SharedDbHandle shared, AcquireSharedDb(request));
  backend->db = std::move(shared.db);
  backend->counters = std::move(shared.counters);
  backend->checkpoints = shared.families[0];
  backend->blobs = shared.families[1];
  backend->writes = shared.families[2];
  backend->index = shared.families[3];
  backend->meta = shared.families[4];
  RP_ASSIGN_OR_RETURN(const int64_t version, CheckFormatVersion(*backend));
  backend->hidden_counts = KeepsHiddenCounts(version);
  RP_RETURN_IF_ERROR(SetUpEncryption(*backend, version));
  // The cipher holds the key now; the options keep no copy of it.
  if (backend->options.encryption) WipeSecret(backend->options.encryption->key);
  return backend;
}

RocksDbCheckpointer::RocksDbCheckpointer(const RocksDbOptions& options)
    : Checkpointer(FrontChecks{.limits = options.limits,
                               .read_only = options.read_only,
                               .store_name = options.path}),
      options(options) {}

}  // namespace rockpoint
