// RocksDbCheckpointer: the product backend, one RocksDB database per store.
//
// Layout (engine/rocksdb/FORMAT.md): column families `checkpoints`, `blobs`,
// `writes`, `index`, `meta`, keys encoded with keys/ tuples, values with
// serde/records. Every Put and PutWrites is one atomic WriteBatch; with
// sync_writes the call returns only after the WAL is on disk. No RocksDB type
// appears here.
//
// Thread-safety: safe to call from many threads. A store directory is opened
// by one process at a time; a second Open gets Busy ("store is locked by
// another process", or "already open in this process" when it is).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

struct RocksDbOptions {
  // Directory of the store. Required.
  std::string path;
  // Create the store if it does not exist. Default: true.
  bool create_if_missing = true;
  // fsync the WAL before a write call returns. Concurrent writers share
  // fsyncs (group commit). Default: true.
  bool sync_writes = true;
  // Open without taking the lock; every write returns InvalidArgument.
  // Default: false.
  bool read_only = false;
  // Values of at least this many bytes go to RocksDB blob files (0: never).
  // Default: 64 KiB.
  uint64_t blob_file_min_bytes = uint64_t{64} << 10;
  // Shared block cache for all column families. Default: 64 MiB.
  uint64_t block_cache_bytes = uint64_t{64} << 20;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
  // Encrypt every record (docs/ENCRYPTION.md). A new store is created
  // encrypted; an encrypted store needs its key. Default: nullopt, a
  // plaintext store.
  std::optional<EncryptionOptions> encryption;
};

class RocksDbCheckpointer final : public Checkpointer, public Maintenance {
 public:
  // The store format version this build writes. Persisted in `meta`; a
  // store with a version greater than kEncryptedFormatVersion is refused.
  // Older stores are read: version 1 (records without checksums), 2, and 3
  // (encrypted), none of which keeps hidden counts (engine/rocksdb/FORMAT.md,
  // "Format version and Open"). Opened read-write, they are upgraded in one
  // atomic write (their hidden counts added) and stamped 4, or 5 if encrypted.
  static constexpr int64_t kFormatVersion = 4;
  // The format version of an encrypted store (docs/ENCRYPTION.md): its
  // records are sealed, which a build of an older format cannot read, so
  // such a build refuses the store at Open.
  static constexpr int64_t kEncryptedFormatVersion = 5;

  // Opens (or creates) the store. A store directory Open creates is durable
  // before Open returns (its parent directory is fsynced). Busy if another
  // process holds it, InvalidArgument for a missing path or a newer format,
  // Corruption for a store that holds data but lost its format version,
  // IOError otherwise.
  static Result<std::unique_ptr<RocksDbCheckpointer>> Open(
      const RocksDbOptions& options);
  ~RocksDbCheckpointer() override;

  // Re-seals every record of the closed store at options.path (opened with
  // options.encryption: nullopt for a plaintext store) under
  // `new_encryption` (nullopt: decrypted to plaintext), with a new store
  // id. Crash-safe: the re-keyed store is built beside the old one, in
  // "<path>.rekey", synced, and the two directories are swapped in one
  // atomic step, so after a crash options.path holds the old store or the
  // new one, whole, never a mix. A leftover "<path>.rekey" (an unfinished
  // or an old store) is removed by the next Rekey. The old store's files
  // are deleted, not scrubbed.
  // REQUIRES: no other process opens the store while Rekey runs (the store
  // lock is held while copying, not during the swap).
  static Status Rekey(const RocksDbOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);

  // Flushes memtables and compacts every column family.
  Status Compact() override;
  Result<StoreStats> Stats();

  // Maintenance (rockpoint/maintenance.h).
  Result<VerifyReport> VerifyRecords(const VerifyProgressFn& progress) override;
  Result<StoreFigures> Figures() override;
  Status ScanRaw(std::string_view column_family, std::string_view key_prefix,
                 const RawVisitor& visit) override;
  BackendKind backend() const override { return BackendKind::kRocksDb; }

  class Impl;  // engine/rocksdb/ only.

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose syncs the WAL (unless read-only), closes the database and releases
  // the store lock, so the directory can be opened again (in this process too).
  // Busy while a cursor (a RocksDB snapshot) is alive. After Close, Compact
  // and Stats return Aborted too.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  // Reaches Impl from engine/rocksdb/ and its tests
  // (engine/rocksdb/rocksdb_impl.h).
  friend Impl& ImplOf(RocksDbCheckpointer& store);
  // Opens stores, with the file system of a test if it gives one
  // (engine/rocksdb/rocksdb_impl.h).
  friend class RocksDbOpener;
  explicit RocksDbCheckpointer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint
