// Private to engine/sqlite: SqliteCheckpointer::Impl, the state behind the
// public class, and the row type shared by its source files.
//
// Split by concern: sqlite_schema.cpp (open, pragmas, schema, the store's
// encryption), sqlite_records.h (what the record columns hold, plaintext or
// sealed), sqlite_put.cpp (put, put_writes), sqlite_read.cpp (get_tuple and
// decoding a row into a tuple), sqlite_list.cpp (list cursor, list_threads),
// sqlite_retention.cpp (delete_thread, delete_for_runs, prune and the
// delta-safety "needed" set), sqlite_copy.cpp (copy_thread),
// sqlite_delta.cpp (get_delta_channel_history), sqlite_rekey.cpp (Rekey).
//
// Thread-safety: one connection guarded by `mu()`. SqliteCheckpointer locks
// it around every call; the methods below state what they REQUIRE (checked
// by clang -Wthread-safety). One
// connection rather than one per thread because SQLite admits a single
// writer at a time anyway (so writers would only queue on the database lock
// instead of the mutex), a ":memory:" database exists only within its
// connection, and one statement cache serves every call.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/record_cipher.h"
#include "engine/sqlite/sqlite_db.h"
#include "engine/sqlite/sqlite_queries.h"
#include "engine/sqlite/sqlite_records.h"
#include "rockpoint/sqlite_checkpointer.h"
#include "serde/records.h"

namespace rockpoint {

// Schema version kept in PRAGMA user_version. Persisted: bump on any change
// of the tables (sqlite_schema.cpp), never reuse. 1: the three tables; 2:
// and rockpoint_meta (a version 1 database is upgraded by a read-write open
// and read as a plaintext store by a read-only one).
inline constexpr int64_t kSqliteSchemaVersion = 2;

// One row of `checkpoints` as the readers select it.
struct SqliteCheckpointRow {
  std::string thread_id;
  std::string checkpoint_ns;
  std::string checkpoint_id;
  std::optional<std::string> parent_id;
  std::string record;    // the checkpoint column (sqlite_records.h).
  std::string metadata;  // the metadata column (sqlite_records.h).
  bool hidden = false;
  // In an encrypted store, `record` opened and decoded by DecodeRowMetadata
  // (its metadata moved out), for BuildTuple.
  std::optional<serde::CheckpointRecord> decoded;

  sqlite_records::CheckpointKey key() const {
    return {thread_id, checkpoint_ns, checkpoint_id};
  }
};

// Reads a row selected as sqlite_queries::kCheckpointColumns.
SqliteCheckpointRow ReadCheckpointRow(const sqlite_internal::Statement& stmt);

// "checkpoints row (thread_id=..., checkpoint_ns=..., checkpoint_id=...)",
// for Corruption messages.
std::string CheckpointRowName(std::string_view thread_id,
                              std::string_view checkpoint_ns,
                              std::string_view checkpoint_id);

class SqliteCheckpointer::Impl {
 public:
  Impl(SqliteOptions options, std::unique_ptr<sqlite_internal::Database> db)
      : options_(std::move(options)), db_(std::move(db)) {}

  // Sets pragmas, creates or checks the schema and sets up the store's
  // encryption (sqlite_schema.cpp): reads what the store keeps in
  // rockpoint_meta, checks the key (OpenStoreCipher), and for a new
  // encrypted store writes its StoredEncryption in the transaction that
  // checked the store holds no record.
  Status Initialize() EXCLUDES(mu_);

  base::Mutex& mu() RETURN_CAPABILITY(mu_) { return mu_; }
  const SqliteOptions& options() const { return options_; }
  const CheckpointerLimits& limits() const { return options_.limits; }
  // Aborted "store is closed" after Close.
  Status CheckOpen() const REQUIRES(mu_);
  // The connection. REQUIRES: CheckOpen() passed.
  sqlite_internal::Database* db() REQUIRES(mu_) { return db_.get(); }
  // The store's cipher; null for a plaintext store. Set by Initialize.
  const RecordCipher* cipher() const REQUIRES(mu_) { return cipher_.get(); }
  // Aborted unless the store's encryption (its store id, none for a
  // plaintext store) is still the one this handle opened: a Rekey through
  // another handle (which needs exclusive access) would otherwise have this
  // one write records under the old key. Every write that stores record
  // bytes calls it inside its write transaction. REQUIRES: CheckOpen().
  Status CheckEncryptionUnchanged() REQUIRES(mu_);
  // SqliteCheckpointer::Rekey on this open store (sqlite_rekey.cpp).
  // REQUIRES: CheckOpen() passed, not read-only.
  Status Rekey(const std::optional<EncryptionOptions>& new_encryption)
      REQUIRES(mu_);
  // Closes the connection (sqlite_schema.cpp): Busy, leaving it open, if
  // statements are still open; otherwise it is closed whatever the status.
  // OK when already closed.
  Status Close() REQUIRES(mu_);

  // The operations of Checkpointer. REQUIRES: mu() held, the store open
  // (the Checkpointer front checks it, and the input, before a hook runs).
  Result<CheckpointConfig> Put(const CheckpointConfig& config,
                               const Checkpoint& checkpoint,
                               const Metadata& metadata,
                               const ChannelVersions& new_versions)
      REQUIRES(mu_);
  Status PutWrites(const CheckpointConfig& config,
                   const std::vector<ChannelWrite>& writes,
                   std::string_view task_id, std::string_view task_path)
      REQUIRES(mu_);
  Result<std::optional<CheckpointTuple>> GetTuple(
      const CheckpointConfig& config) REQUIRES(mu_);
  Status DeleteThread(std::string_view thread_id) REQUIRES(mu_);
  Status DeleteForRuns(const std::vector<std::string>& run_ids) REQUIRES(mu_);
  Status CopyThread(std::string_view source, std::string_view target)
      REQUIRES(mu_);
  // True if `thread` has a checkpoint row (hidden or not).
  Result<bool> HasCheckpoints(std::string_view thread) REQUIRES(mu_);
  Status HideCheckpoint(const CheckpointConfig& config) REQUIRES(mu_);
  Status Prune(const std::vector<std::string>& thread_ids,
               PruneStrategy strategy, size_t keep_last) REQUIRES(mu_);
  Result<RetentionReport> Expire(const std::vector<std::string>& thread_ids,
                                 const ExpiryRule& rule) REQUIRES(mu_);
  Result<DeltaHistory> GetDeltaChannelHistory(
      const CheckpointConfig& config, const std::vector<std::string>& channels)
      REQUIRES(mu_);
  Result<ThreadPage> ListThreads(const ListThreadsOptions& options)
      REQUIRES(mu_);

  // Helpers shared by the files above. REQUIRES: mu() held, CheckOpen()
  // passed.

  // The visible checkpoint `checkpoint_id` of (thread, ns), or the latest
  // visible one when `checkpoint_id` is null.
  Result<std::optional<SqliteCheckpointRow>> FindVisibleRow(
      std::string_view thread_id, std::string_view checkpoint_ns,
      const std::optional<std::string>& checkpoint_id) REQUIRES(mu_);
  // The row's metadata; Corruption naming the row if it does not decode to
  // a map (or, encrypted, if its record does not open). In an encrypted
  // store it decodes the whole record into row.decoded.
  Result<Metadata> DecodeRowMetadata(SqliteCheckpointRow& row) REQUIRES(mu_);
  // The full tuple of `row` (metadata already decoded): record, channel
  // values (one query) and pending writes (one query).
  Result<CheckpointTuple> BuildTuple(SqliteCheckpointRow& row,
                                     Metadata metadata) REQUIRES(mu_);
  // The non-empty stored values of `versions` in (thread, ns): one query
  // per 256 channels. Channels with a blob row ("empty" ones too) are added
  // to *present.
  Result<std::map<std::string, TypedValue>> LoadValues(
      std::string_view thread_id, std::string_view checkpoint_ns,
      const ChannelVersions& versions, std::set<std::string>* present)
      REQUIRES(mu_);
  // `channel` at `version`, named by checkpoint (thread, ns, checkpoint_id)
  // whose put stored `stored_channels` and whose parent is `parent_id`, has
  // no blob row. OK when nothing shows the value was ever stored (a version
  // never stored yields no entry); Corruption naming the row when the
  // checkpoint's own put, or an ancestor holding the same version (parent
  // links followed while the version stays the same), stored it.
  Status CheckMissingValue(std::string_view thread_id,
                           std::string_view checkpoint_ns,
                           std::string_view checkpoint_id,
                           const std::vector<std::string>& stored_channels,
                           const std::optional<std::string>& parent_id,
                           const std::string& channel,
                           const ChannelVersion& version) REQUIRES(mu_);
  // The writes of one checkpoint ordered by (task_path, task_id, idx).
  Result<std::vector<PendingWrite>> LoadWrites(std::string_view thread_id,
                                               std::string_view checkpoint_ns,
                                               std::string_view checkpoint_id)
      REQUIRES(mu_);
  // Deletes the visible checkpoints `doomed` of (thread, ns) and re-derives
  // which hidden ones the survivors still need (docs/CONTRACT.md "Delta
  // safety"): needed ones are kept hidden, the rest are deleted with their
  // writes, and blobs no remaining checkpoint references are deleted.
  // REQUIRES: inside a write transaction.
  Status RetainNamespace(std::string_view thread_id,
                         std::string_view checkpoint_ns,
                         const std::set<std::string>& doomed) REQUIRES(mu_);
  // RetainNamespace in two steps: what it changes, read inside any
  // transaction, then the change (inside a write transaction).
  struct RetentionPlan {
    std::vector<std::string> hide;    // checkpoint ids kept, hidden.
    std::vector<std::string> remove;  // checkpoint ids deleted with writes.
    std::vector<std::pair<std::string, ChannelVersion>> remove_blobs;
  };
  Result<RetentionPlan> PlanRetention(std::string_view thread_id,
                                      std::string_view checkpoint_ns,
                                      const std::set<std::string>& doomed)
      REQUIRES(mu_);
  Status ApplyRetention(std::string_view thread_id,
                        std::string_view checkpoint_ns,
                        const RetentionPlan& plan) REQUIRES(mu_);
  // The stored bytes `plan` deletes: its checkpoint rows (record, metadata,
  // id), their writes (value, task id), its blobs.
  Result<uint64_t> PlannedBytes(std::string_view thread_id,
                                std::string_view checkpoint_ns,
                                const RetentionPlan& plan) REQUIRES(mu_);

 private:
  // Initialize's encryption step, inside its transaction.
  Status SetUpEncryption() REQUIRES(mu_);

  base::Mutex mu_;
  const SqliteOptions options_;
  // Null once closed.
  std::unique_ptr<sqlite_internal::Database> db_ GUARDED_BY(mu_);
  std::unique_ptr<RecordCipher> cipher_ GUARDED_BY(mu_);
  // The store id in rockpoint_meta when opened; empty for a plaintext store.
  std::string store_id_ GUARDED_BY(mu_);
};

// What rockpoint_meta holds about the store's encryption (sqlite_schema.cpp):
// empty for a plaintext store, and for a version 1 database (which has no
// rockpoint_meta).
Result<StoredEncryption> ReadStoredEncryption(sqlite_internal::Database* db);
// Replaces it (both empty: a plaintext store). REQUIRES: in a write
// transaction, rockpoint_meta exists.
Status WriteStoredEncryption(sqlite_internal::Database* db,
                             const StoredEncryption& stored);

// The cursor behind Impl-level List (sqlite_list.cpp). It locks impl->mu()
// itself, per page.
// REQUIRES: options validated; the cursor is destroyed before `impl`.
std::unique_ptr<TupleCursor> MakeSqliteListCursor(
    SqliteCheckpointer::Impl* impl, ListOptions options);

}  // namespace rockpoint
