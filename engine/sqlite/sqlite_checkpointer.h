// SqliteCheckpointer: LangGraph's three-table SQL layout (checkpoints, blobs
// per channel version, writes with task_path) on SQLite in WAL mode. A
// portable option and the peer the benchmark compares against.
//
// Encryption at rest (SqliteOptions::encryption, docs/ENCRYPTION.md): every
// record (checkpoint with its metadata, channel value, pending write) is
// sealed with AES-256-GCM under its name; identifiers and the columns
// lookups, ordering and retention need (parent id, run id, hidden flag, ts)
// stay in the clear. The store id and key check live in the table
// rockpoint_meta, written in the transaction that creates the encrypted
// store, before its first record.
//
// Private to engine/sqlite/ and its tests: everything else opens a store
// through rockpoint::Open (rockpoint/open.h). The operations are implemented
// across engine/sqlite/*.cpp by concern: sqlite_schema.cpp (open, pragmas,
// schema, the store's encryption), sqlite_records.h (what the record columns
// hold, plaintext or sealed), sqlite_put.cpp (put, put_writes),
// sqlite_read.cpp (get_tuple and decoding a row into a tuple),
// sqlite_list.cpp (list cursor, list_threads), sqlite_retention.cpp
// (delete_thread, delete_for_runs, prune and the delta-safety "needed" set),
// sqlite_copy.cpp (copy_thread), sqlite_delta.cpp
// (get_delta_channel_history), sqlite_rekey.cpp (Rekey).
//
// Thread-safety: safe to call from many threads. One connection guarded by
// `mu_`: every hook locks it, and the helpers state what they REQUIRE
// (checked by clang -Wthread-safety). One connection rather than one per
// thread because SQLite admits a single writer at a time anyway (so writers
// would only queue on the database lock instead of the mutex), a ":memory:"
// database exists only within its connection, and one statement cache serves
// every call. A second process may open the same file (SQLite locking).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/record_cipher.h"
#include "engine/sqlite/sqlite_db.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

struct SqliteCheckpointRow;  // sqlite_impl.h

struct SqliteOptions {
  // Database file; ":memory:" for an in-memory database. Required.
  std::string path;
  // Create the file if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only (SQLITE_OPEN_READONLY): every write call returns
  // InvalidArgument "store opened read-only", and the file must already
  // hold a rockpoint schema. Other connections may keep writing; reads see
  // their committed changes. Default: false.
  bool read_only = false;
  // PRAGMA synchronous=FULL (true) or NORMAL (false) under WAL. Default: true.
  bool sync_writes = true;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
  // nullopt: a plaintext store. Set: the store is encrypted with this key.
  // A new (empty) store becomes encrypted on open; opening an encrypted
  // store without its key, with a wrong key, or a store holding plaintext
  // records with a key, is InvalidArgument and changes nothing (a
  // plaintext store is encrypted by Rekey). A read-only open reads an
  // encrypted store with its key, but cannot encrypt a plaintext one
  // (InvalidArgument). Default: nullopt.
  std::optional<EncryptionOptions> encryption;
};

class SqliteCheckpointer final : public Checkpointer, public Maintenance {
 public:
  static Result<std::unique_ptr<SqliteCheckpointer>> Open(
      const SqliteOptions& options);
  // Re-writes every record of the store at options.path under
  // `new_encryption` with a new store id (nullopt: decrypted to a plaintext
  // store; a plaintext store is encrypted this way). The store is opened
  // with options.encryption (nullopt: it is plaintext); a missing or wrong
  // key is InvalidArgument, a record that does not open or decode is
  // Corruption naming it, and either changes nothing. Never creates the
  // file (options.create_if_missing is ignored); options.read_only is
  // InvalidArgument; the commit is synced (options.sync_writes is ignored),
  // so once Rekey returns OK the old key may be discarded.
  // Crash-safe and atomic: one SQLite write transaction (BEGIN IMMEDIATE)
  // re-writes every row and the stored encryption, so after a crash at any
  // point the store reads entirely under the old key or entirely under the
  // new one. Old bytes are overwritten (secure_delete) and the WAL is
  // checkpointed and truncated after the commit.
  // REQUIRES exclusive access: no other handle (in any process) may have
  // the store open. One that did would fail with Aborted on its next write
  // of a record, and read Corruption, until reopened.
  static Status Rekey(const SqliteOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);
  ~SqliteCheckpointer() override;

  // The writes whose checkpoint the store does not hold (WriteLocation),
  // in key order; one read transaction.
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kSqlite; }

  // What the backend's files share (engine/sqlite/).
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
  // Rekey's work on this open store (sqlite_rekey.cpp).
  // REQUIRES: CheckOpen() passed, not read-only.
  Status RewriteUnderKey(const std::optional<EncryptionOptions>& new_encryption)
      REQUIRES(mu_);
  // True if `thread` has a checkpoint row (hidden or not).
  Result<bool> HasCheckpoints(std::string_view thread) REQUIRES(mu_);

  // Helpers shared by the backend's files. REQUIRES: mu() held,
  // CheckOpen() passed.

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
  // The backend hooks (rockpoint/checkpointer.h). Each locks mu_ (DoList's
  // cursor locks it per page).
  // DoClose finalizes the cached statements and closes the connection (the
  // last connection checkpoints the WAL into the database file). Busy,
  // leaving it open, while a statement is still open. Safe to call from any
  // thread.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  SqliteCheckpointer(SqliteOptions options,
                     std::unique_ptr<sqlite_internal::Database> db);

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

}  // namespace rockpoint
