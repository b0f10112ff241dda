// RocksDbCheckpointer: the product backend, one RocksDB database per store.
// Private to engine/rocksdb/ and its tests: everything else opens a store
// through rockpoint::Open (rockpoint/open.h).
//
// Layout (engine/rocksdb/FORMAT.md): column families `checkpoints`, `blobs`,
// `writes`, `index`, `meta`, keys encoded with keys/ tuples, values with
// serde/records. Every Put and PutWrites is one atomic WriteBatch; with
// sync_writes the call returns only after the WAL is on disk. The operations
// are implemented across engine/rocksdb/*.cpp by concern (open, put, read,
// list, delete, retention, delta, threads, stats, verify).
//
// Concurrency: RocksDB itself is thread-safe. Blob immutability needs no
// read: Put writes blobs as blind Merges resolved by the "existing value
// wins" operator of the blobs family (rocksdb_options.cpp). Operations that
// read before they write (Put: overwrite clean-up of the old record's index
// entries; PutWrites: first-wins; retention: the needed-set computation)
// hold the stripe mutex of every thread they touch, so calls on one thread
// are linearizable while different threads run in parallel. Stripes are
// always taken in ascending order. Reads take a RocksDB snapshot and no
// mutex.
//
// Thread-safety: safe to call from many threads. A store directory is opened
// by one process at a time; a second Open gets Busy ("store is locked by
// another process", or "already open in this process" when it is).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/record_cipher.h"
#include "engine/rocksdb/prefix_scan.h"
#include "engine/rocksdb/striped_locks.h"
#include "engine/rocksdb/write_counters.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"
#include "serde/records.h"

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

  // The state and the helpers the operations share, for engine/rocksdb/
  // and its tests. The state is set by Open and immutable afterwards, except
  // that DoClose releases it (`db` is null once closed).
  RocksDbOptions options;
  // The directory's database, shared with an item store living there
  // (shared_db.h), which owns the column family handles.
  std::shared_ptr<rocksdb::DB> db;
  // Snapshots this store holds (ScopedSnapshot): cursors and reads.
  mutable std::atomic<uint64_t> live_snapshots{0};
  rocksdb::ColumnFamilyHandle* checkpoints = nullptr;
  rocksdb::ColumnFamilyHandle* blobs = nullptr;
  rocksdb::ColumnFamilyHandle* writes = nullptr;
  rocksdb::ColumnFamilyHandle* index = nullptr;
  rocksdb::ColumnFamilyHandle* meta = nullptr;
  std::shared_ptr<WriteCounters> counters;  // figures of Stats()
  StripedLocks locks;
  // The cipher of an encrypted store (docs/ENCRYPTION.md), null for a
  // plaintext one.
  std::unique_ptr<RecordCipher> cipher;
  // Whether the store's format keeps hidden counts (hidden_counts.h): false
  // only for an older store opened read-only, whose reads skip the
  // cross-check of hd entries against the counts.
  bool hidden_counts = true;

  // What the store keeps under `key` for the record `record`: the record
  // itself, or in an encrypted store the record sealed under `key`.
  Result<std::string> Stored(std::string_view key, std::string record) const;
  // The record `value` read under `key` holds: `value` itself, or in an
  // encrypted store its plaintext, opened into *buffer. Corruption naming
  // `what` and the key for a value that does not open.
  Result<std::string_view> Plain(std::string_view key, std::string_view value,
                                 std::string_view what,
                                 std::string* buffer) const;
  // The record `value` read under `from` holds, as stored under `to`: the
  // bytes unchanged, or in an encrypted store opened and sealed again.
  Result<std::string> Resealed(std::string_view from, std::string_view to,
                               std::string_view value,
                               std::string_view what) const;
  // InvalidArgument "store opened read-only" when read_only.
  Status CheckWritable() const;
  // Applies `batch` atomically (WriteOptions.sync = options.sync_writes).
  Status Write(rocksdb::WriteBatch& batch, std::string_view context);
  // A scan over `prefix` of `cf` reading with `read`, in `order`. Uses
  // prefix seek (and its bloom filters) when `prefix` covers the extractor's
  // prefix, total order otherwise.
  PrefixScan Scan(rocksdb::ColumnFamilyHandle* cf,
                  const rocksdb::ReadOptions& read, std::string prefix,
                  ScanOrder order = ScanOrder::kForward) const;

  // The namespaces of `thread` (its ("th", thread, ns) entries), ascending.
  Result<std::vector<std::string>> Namespaces(const rocksdb::ReadOptions& read,
                                              std::string_view thread) const;
  // Decodes (opening it first in an encrypted store) the checkpoint record
  // read under `key`; Corruption naming it.
  Result<serde::CheckpointRecord> DecodeRecordAt(std::string_view key,
                                                 std::string_view value) const;
  // The record under CheckpointKey(thread, ns, id) (hidden ones too), or
  // nullopt.
  Result<std::optional<serde::CheckpointRecord>> ReadRecord(
      const rocksdb::ReadOptions& read, std::string_view thread,
      std::string_view ns, std::string_view checkpoint_id);
  // The tuple of a decoded record: resolves channel_versions with one
  // MultiGet on blobs and reads the writes with one prefix scan.
  Result<CheckpointTuple> AssembleTuple(const rocksdb::ReadOptions& read,
                                        std::string_view thread,
                                        std::string_view ns,
                                        std::string_view checkpoint_id,
                                        serde::CheckpointRecord record);
  // The value of `channel` at `version`, named by the checkpoint
  // (thread, ns, checkpoint_id) whose record says `stored_channels` and
  // `parent_id`, has no blob under `blob_key`. OK when nothing shows the
  // value was ever stored (the contract's "a version never stored yields no
  // entry"); Corruption naming `blob_key` when the checkpoint's own put
  // stored it (stored_channels) or an ancestor holding the same version
  // did, walking parent links while the version stays the same.
  Status CheckMissingValue(const rocksdb::ReadOptions& read,
                           std::string_view thread, std::string_view ns,
                           std::string_view checkpoint_id,
                           const std::vector<std::string>& stored_channels,
                           const std::optional<std::string>& parent_id,
                           const std::string& channel,
                           const ChannelVersion& version,
                           std::string_view blob_key);
  // The pending writes of one checkpoint, ordered by (task_path, task_id,
  // idx).
  Result<std::vector<PendingWrite>> ReadWrites(const rocksdb::ReadOptions& read,
                                               std::string_view thread,
                                               std::string_view ns,
                                               std::string_view checkpoint_id);

  // Adds to `batch` the removal of every key of `thread` (all column
  // families, index entries included), reading its records at `read`.
  // REQUIRES: the thread's stripe is held.
  Status AddDeleteThread(const rocksdb::ReadOptions& read,
                         std::string_view thread, rocksdb::WriteBatch& batch);

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose syncs the WAL (unless read-only) and releases the database;
  // unless an item store in the same directory still holds it, that closes
  // it, releasing the lock, so the directory can be opened again (in this
  // process too). Busy (an item store's snapshots do not count), leaving
  // everything open, while a cursor (a RocksDB snapshot) is alive. After
  // Close, Compact and Stats return Aborted too.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  // Opens stores, with the file system of a test if it gives one
  // (engine/rocksdb/rocksdb_impl.h).
  friend class RocksDbOpener;
  explicit RocksDbCheckpointer(const RocksDbOptions& options);
};

}  // namespace rockpoint
