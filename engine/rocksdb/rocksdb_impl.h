// RocksDbCheckpointer::Impl: the state of an open store and the operations,
// implemented across engine/rocksdb/*.cpp by concern (open, put, read, list,
// delete, retention, delta, threads, stats). Private to engine/rocksdb/.
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
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "engine/record_cipher.h"
#include "engine/rocksdb/prefix_scan.h"
#include "engine/rocksdb/write_counters.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "serde/records.h"

namespace rockpoint {

// The state behind a RocksDbCheckpointer, for engine/rocksdb/ and its tests.
// REQUIRES: the store is open (not Closed).
inline RocksDbCheckpointer::Impl& ImplOf(RocksDbCheckpointer& store) {
  return *store.impl_;
}

// Opens a store on the file system of `env`: RocksDbCheckpointer::Open
// passes nullptr (the default Env); a test passes an Env over a
// fault-injecting rocksdb::FileSystem. Every file and directory the store
// creates, its own directory included, goes through that file system.
// REQUIRES: `env` (when given) outlives the store.
class RocksDbOpener {
 public:
  static Result<std::unique_ptr<RocksDbCheckpointer>> Open(
      const RocksDbOptions& options, rocksdb::Env* env);
};

// Store format versions (engine/rocksdb/FORMAT.md "Format version and
// Open"): 3 and 5 are encrypted stores; 4 and 5 keep hidden counts
// (hidden_counts.h).
inline constexpr int64_t kEncryptedFormatWithoutHiddenCounts = 3;
constexpr bool IsEncryptedFormat(int64_t version) {
  return version == kEncryptedFormatWithoutHiddenCounts ||
         version == RocksDbCheckpointer::kEncryptedFormatVersion;
}
constexpr bool KeepsHiddenCounts(int64_t version) {
  return version >= RocksDbCheckpointer::kFormatVersion;
}

// Sets impl.cipher from impl.options.encryption and what the store's `meta`
// keeps (engine/rocksdb/FORMAT.md "Encryption"): writes the store id, key
// check and the encrypted format version into a new encrypted store;
// InvalidArgument for a missing or wrong key, or a key given for a plaintext
// store with data. `format_version` is the store's, as Open found or wrote it.
Status SetUpEncryption(RocksDbCheckpointer::Impl& impl, int64_t format_version);

// The one translation of a RocksDB status. `context` says what was being
// done (e.g. "put", "open /path"); a lock failure on open becomes Busy.
Status ToStatus(const rocksdb::Status& status, std::string_view context);

// A RocksDB snapshot released on destruction.
// REQUIRES: destroyed before the DB.
class ScopedSnapshot {
 public:
  explicit ScopedSnapshot(rocksdb::DB* db)
      : db_(db), snapshot_(db->GetSnapshot()) {}
  ~ScopedSnapshot() { db_->ReleaseSnapshot(snapshot_); }
  ScopedSnapshot(const ScopedSnapshot&) = delete;
  ScopedSnapshot& operator=(const ScopedSnapshot&) = delete;

  // Read options reading at this snapshot.
  rocksdb::ReadOptions Read() const {
    rocksdb::ReadOptions options;
    options.snapshot = snapshot_;
    return options;
  }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
};

// A fixed set of mutexes; a thread id hashes to one stripe. The stripes
// guard no member (what they serialize lives in RocksDB) and which ones a
// call holds depends on its thread ids, so the clang analysis cannot follow
// them: Lock, LockAll and Guard are NO_THREAD_SAFETY_ANALYSIS, and functions
// that need stripes held say so in a REQUIRES: comment.
class StripedLocks {
 public:
  static constexpr size_t kStripes = 64;

  // Holds the stripes it was given, releasing them on destruction.
  class Guard {
   public:
    Guard() = default;
    Guard(Guard&& other) noexcept = default;
    Guard& operator=(Guard&&) = delete;
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard();

   private:
    friend class StripedLocks;
    std::vector<base::Mutex*> held_;
  };

  // Locks the stripes of `threads` (deduplicated, ascending).
  Guard Lock(const std::vector<std::string_view>& threads);
  // Locks every stripe, ascending.
  Guard LockAll();

 private:
  std::array<base::Mutex, kStripes> mutexes_;
};

class RocksDbCheckpointer::Impl {
 public:
  Impl() = default;
  ~Impl();  // Close(), dropping its status.
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // --- state (set by Open, immutable afterwards) ---
  RocksDbOptions options;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;  // owned
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

  // Syncs the WAL (unless read-only), releases the column family handles
  // and closes the DB (releasing the lock); `db` is null afterwards. Busy,
  // leaving everything open, while snapshots (cursors) are alive; any other
  // status: closed. OK when already closed.
  Status Close();

  // --- shared helpers ---
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

  // --- operations (one .cpp per concern) ---
  Result<CheckpointConfig> Put(const CheckpointConfig& config,
                               const Checkpoint& checkpoint,
                               const Metadata& metadata,
                               const ChannelVersions& new_versions);
  Status PutWrites(const CheckpointConfig& config,
                   const std::vector<ChannelWrite>& writes,
                   std::string_view task_id, std::string_view task_path);
  Result<std::optional<CheckpointTuple>> GetTuple(
      const CheckpointConfig& config);
  Result<std::unique_ptr<TupleCursor>> List(const ListOptions& options);
  Status DeleteThread(std::string_view thread_id);
  Status DeleteForRuns(const std::vector<std::string>& run_ids);
  Status CopyThread(std::string_view source, std::string_view target);
  Status HideCheckpoint(const CheckpointConfig& config);
  Status Prune(const std::vector<std::string>& thread_ids,
               PruneStrategy strategy, size_t keep_last);
  Result<RetentionReport> Expire(const std::vector<std::string>& thread_ids,
                                 const ExpiryRule& rule);
  Result<DeltaHistory> GetDeltaChannelHistory(
      const CheckpointConfig& config, const std::vector<std::string>& channels);
  Result<ThreadPage> ListThreads(const ListThreadsOptions& options);
  Status Compact();
  Result<StoreStats> Stats();

  // Adds to `batch` the removal of every key of `thread` (all column
  // families, index entries included), reading its records at `read`.
  // REQUIRES: the thread's stripe is held.
  Status AddDeleteThread(const rocksdb::ReadOptions& read,
                         std::string_view thread, rocksdb::WriteBatch& batch);
};

// The run id a checkpoint is indexed under: metadata "run_id" when it is a
// string, else nullopt (not indexed).
std::optional<std::string> IndexedRunId(const Metadata& metadata);

}  // namespace rockpoint
