// Private to engine/postgres: PostgresCheckpointer::Impl, the connection
// pool and the helpers the operation files share.
//
// Split by concern: pg_connection.cpp (libpq), pg_codec.cpp (JSON and
// version mapping), pg_schema.cpp (open, migrations, schema checks),
// pg_put.cpp (put, put_writes), pg_read.cpp (get_tuple, rows into tuples),
// pg_list.cpp (list cursor, list_threads), pg_retention.cpp (delete_thread,
// delete_for_runs, prune), pg_copy_hide.cpp (copy_thread, hide),
// pg_delta.cpp (get_delta_channel_history), pg_sealed.cpp (an encrypted
// store's rows), pg_encryption.cpp (its stored encryption), pg_rekey.cpp
// (Rekey), pg_copy_sealed.cpp (copy_thread of an encrypted store).
//
// SQL text may name rockpoint's side table as {rp}: Stmt() replaces it with
// rockpoint_checkpoints, or, on a read-only open of a database that has
// none, with an empty derived table of the same columns.
//
// Thread-safety: Impl is safe to use from many threads; a Lease (one
// connection) is used by one thread at a time.
#pragma once

#include <functional>
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
#include "engine/postgres/pg_codec.h"
#include "engine/postgres/pg_connection.h"
#include "engine/record_cipher.h"
#include "rockpoint/postgres_checkpointer.h"
#include "serde/records.h"

namespace rockpoint {

// rockpoint's schema version in rockpoint_migrations. Persisted: bump on
// any change of rockpoint's objects, never reuse. Version 1: the side table
// and the indexes (every database rockpoint opens for writing). Version 2:
// rockpoint_encryption, created with the first encrypted store's stored
// encryption (pg_encryption.cpp), so that a rockpoint without encryption
// refuses an encrypted database while plaintext ones stay at version 1.
inline constexpr int64_t kPostgresSchemaVersion = 2;
// The LangGraph PostgresSaver migrations rockpoint applies (its list, in its
// order: versions 0..kLangGraphMigrations-1).
inline constexpr int64_t kLangGraphMigrations = 10;

// One checkpoints row with its rockpoint_checkpoints columns, as the
// readers select it (postgres_impl columns kCheckpointColumns).
struct PgCheckpointRow {
  std::string thread_id;
  std::string checkpoint_ns;
  std::string checkpoint_id;
  std::optional<std::string> parent_id;
  std::string checkpoint_json;
  std::string metadata_json;
  // rockpoint's side row; null for a checkpoint LangGraph's saver wrote.
  std::optional<std::string> stored_channels_json;
  std::optional<std::string> pending_sends_json;
  bool hidden = false;
};

// The columns of a checkpoint with its side row, over checkpoints `c` LEFT
// JOIN {rp} `r` (kCheckpointFrom), as the CTE `cp` of TupleQueries selects
// them.
inline constexpr const char* kCteColumns =
    "c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, "
    "c.checkpoint, c.metadata, r.stored_channels, r.pending_sends, "
    "coalesce(r.hidden, false) AS hidden";
// The side row is a LATERAL lookup by primary key (OFFSET 0 keeps it one):
// as a plain join, a generic plan reads every side row of the thread.
inline constexpr const char* kCheckpointFrom =
    "checkpoints c LEFT JOIN LATERAL (SELECT * FROM {rp} r0 "
    "WHERE r0.thread_id = c.thread_id AND r0.checkpoint_ns = "
    "c.checkpoint_ns AND r0.checkpoint_id = c.checkpoint_id OFFSET 0) r "
    "ON true";
// The same columns read from `cp`, the order ReadCheckpointRow expects.
inline constexpr const char* kCheckpointColumns =
    "cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, "
    "cp.parent_checkpoint_id, cp.checkpoint::text, cp.metadata::text, "
    "cp.stored_channels::text, cp.pending_sends::text, cp.hidden";

// The three statements that read whole tuples, given `cte`, a SELECT of
// kCteColumns FROM kCheckpointFrom (with its WHERE, ORDER BY, LIMIT):
// [0] the checkpoint rows (kCheckpointColumns, in `order_by`), [1] their
// values, [2] their writes, as BuildTuples reads them. Run inside one
// REPEATABLE READ transaction so that all three see the same rows.
std::vector<std::string> TupleQueries(std::string_view cte,
                                      std::string_view order_by);

// The first statement of a read's pipeline: its statements see one
// snapshot.
inline constexpr const char* kBeginRead =
    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

// `text` with every `from` replaced by `to` (SQL templates).
std::string ReplaceAll(std::string text, std::string_view from,
                       std::string_view to);

// "checkpoints row (thread_id=..., ...)", for Corruption messages.
std::string RowName(std::string_view thread_id, std::string_view checkpoint_ns,
                    std::string_view checkpoint_id);
std::string RowName(const PgCheckpointRow& row);

// Reads row `row` of `rows`, whose first nine columns are
// kCheckpointColumns.
PgCheckpointRow ReadCheckpointRow(const pg::Rows& rows, int row);

// What a checkpoint row says about its own values, for delta walks and
// retention: channel_versions, parent, and the channels its put stored.
// For a row LangGraph wrote (no side row) every channel of
// channel_versions counts as stored, as LangGraph's own delta walk and
// prune read it, with inline values closing a walk by themselves.
struct PgHeader {
  serde::CheckpointHeader header;
  std::string ts;                         // the checkpoint's ts, for retention.
  std::set<std::string> inline_channels;  // LangGraph's inlined values.
  // Channels LangGraph inlined as JSON null (a None value). LangGraph's
  // delta walk does not take them as seeds, so neither does rockpoint's;
  // but a checkpoint reads them as values, so retention needs nothing older
  // for them.
  std::set<std::string> inline_null_channels;
};
Result<PgHeader> DecodeHeader(const PgCheckpointRow& row);

class PostgresCheckpointer::Impl {
 public:
  explicit Impl(PostgresOptions options);
  ~Impl();

  // Connects once, creates or checks the schema (pg_schema.cpp).
  Status Initialize();

  // A pooled connection, returned to the pool when the lease ends (or
  // dropped when it lost its server).
  class Lease {
   public:
    Lease(Impl* impl, std::unique_ptr<pg::Connection> connection);
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    pg::Connection* operator->() { return connection_.get(); }
    pg::Connection& operator*() { return *connection_; }

   private:
    Impl* impl_;
    std::unique_ptr<pg::Connection> connection_;
  };
  // Waits for an idle connection or opens one. Aborted after Close;
  // IOError when the server cannot be reached.
  Result<Lease> Acquire() EXCLUDES(mu_);

  // The statement `name` with `sql` ({rp} replaced), created once.
  const pg::Statement& Stmt(std::string_view name, std::string_view sql)
      EXCLUDES(mu_);
  // The same, `make_sql` called only when `name` is new (for SQL built
  // from parts).
  const pg::Statement& Stmt(std::string_view name,
                            const std::function<std::string()>& make_sql)
      EXCLUDES(mu_);
  // `sql` with {rp} replaced, for statements built per call.
  std::string Sql(std::string_view sql) const;

  const PostgresOptions& options() const { return options_; }
  // The store's cipher; nullptr for a plaintext store. Set by Initialize.
  const RecordCipher* cipher() const { return cipher_.get(); }
  // In an encrypted store, replaces `row`'s checkpoint, metadata and
  // pending_sends with the plaintext its sealed record holds (Corruption
  // naming the record when it does not open); nothing in a plaintext one.
  Status UnsealRow(PgCheckpointRow& row) const;
  // The value a (type, blob) of checkpoint_blobs or checkpoint_writes
  // holds: itself in a plaintext store; in an encrypted one, what `blob`
  // seals under the record name `name()` gives (Corruption "<what> at
  // <name>: ..." when it does not open).
  Result<TypedValue> StoredValue(const std::function<std::string()>& name,
                                 std::string_view type, std::string_view blob,
                                 std::string_view what) const;
  // The (type, blob) parameters that store `value` under the record name
  // `name()`: the value itself in a plaintext store, sealed in an encrypted
  // one.
  Result<std::pair<pg::Param, pg::Param>> ValueParams(
      const std::function<std::string()>& name, const TypedValue& value) const;

  // Re-seals every row under `new_encryption` (pg_rekey.cpp; see
  // PostgresCheckpointer::Rekey). REQUIRES: Initialize succeeded, writable.
  Status Rekey(const std::optional<EncryptionOptions>& new_encryption);
  const CheckpointerLimits& limits() const { return options_.limits; }
  // Aborted "store is closed" after Close.
  Status CheckOpen() EXCLUDES(mu_);

  // Runs `body` inside BEGIN ... COMMIT on one connection (ROLLBACK when
  // it fails). Used by multi-statement changes that read before writing.
  Status InTransaction(const std::function<Status(pg::Connection&)>& body);

  // The statement that takes the transaction-scoped advisory lock of
  // `thread_id`: shared for put and put_writes, exclusive for changes
  // that read a thread before rewriting it (prune, delete_for_runs, copy).
  pg::Query LockThread(std::string_view thread_id, bool exclusive);
  // The exclusive locks of `threads`, in byte order.
  std::vector<pg::Query> LockThreads(const std::set<std::string>& threads);

  // Cursors alive: Close is Busy while any is.
  void CursorOpened() EXCLUDES(mu_);
  void CursorClosed() EXCLUDES(mu_);
  Status Close() EXCLUDES(mu_);

  // The operations (each checks validity and open-ness itself).
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
  Result<ThreadPage> ListThreads(const ListThreadsOptions& options);
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

  // Runs the TupleQueries of `cte` in one round trip and builds the tuples.
  Result<std::vector<CheckpointTuple>> ReadTuples(std::string_view name,
                                                  std::string_view cte,
                                                  std::string_view order_by,
                                                  const pg::Params& params);

  // Tuples of the checkpoint rows a pipeline returned (pg_read.cpp):
  // `checkpoints` rows are kCheckpointColumns; `values` rows are
  // (thread_id, checkpoint_ns, checkpoint_id, channel, type, blob) of the
  // blobs at each checkpoint's versions; `writes` rows are (thread_id,
  // checkpoint_ns, checkpoint_id, task_id, channel, type, blob, task_path,
  // idx). Checks for lost values (Corruption) on `connection`.
  Result<std::vector<CheckpointTuple>> BuildTuples(pg::Connection& connection,
                                                   const pg::Rows& checkpoints,
                                                   const pg::Rows& values,
                                                   const pg::Rows& writes);
  // `row` (a rockpoint-written checkpoint whose put stored
  // `stored_channels`) names `channel` at `version` and no value row holds
  // it: OK unless the row's put or an ancestor's stored it
  // (engine/missing_value.h), then Corruption naming the value row.
  Status CheckMissingValue(pg::Connection& connection,
                           const PgCheckpointRow& row,
                           const std::vector<std::string>& stored_channels,
                           const std::string& channel,
                           const ChannelVersion& version);

 private:
  friend class Lease;
  void Release(std::unique_ptr<pg::Connection> connection) EXCLUDES(mu_);
  Status CreateSchema(pg::Connection& connection);
  Status CheckSchema(pg::Connection& connection);
  // Reads the stored encryption and sets cipher_ (OpenStoreCipher), storing
  // a new one for an empty store opened with a key (pg_encryption.cpp).
  Status OpenEncryption(pg::Connection& connection);
  // The ts of the latest checkpoint of row `row` of list_threads' rows
  // (pg_list.cpp), from its sealed record in an encrypted store.
  Result<std::string> LatestTs(const pg::Rows& rows, int row) const;
  // copy_thread of an encrypted store: every row re-sealed under the
  // target's names (pg_copy_sealed.cpp). Runs inside CopyThread's
  // transaction, under its locks, once the target is known empty.
  Status CopySealedThread(pg::Connection& connection, std::string_view source,
                          std::string_view target);

  const PostgresOptions options_;
  // The replacement of {rp}.
  std::string side_table_;
  // Whether rockpoint_encryption exists (schema version 2).
  bool has_encryption_table_ = false;
  std::unique_ptr<RecordCipher> cipher_;

  base::Mutex mu_;
  base::CondVar idle_changed_;
  std::vector<std::unique_ptr<pg::Connection>> idle_ GUARDED_BY(mu_);
  size_t open_connections_ GUARDED_BY(mu_) = 0;
  size_t live_cursors_ GUARDED_BY(mu_) = 0;
  bool closed_ GUARDED_BY(mu_) = false;
  std::map<std::string, std::unique_ptr<pg::Statement>, std::less<>> statements_
      GUARDED_BY(mu_);
};

// The statements that make `stored` the database's stored encryption
// (pg_encryption.cpp): rockpoint_encryption (schema version 2) created when
// missing, its row replaced; for a plaintext store (`stored` empty), its row
// deleted. Run inside a transaction.
std::vector<pg::Query> ReplaceStoredEncryption(const StoredEncryption& stored);
// The transaction-scoped form of the advisory lock opens hold while they
// migrate: stored encryptions and Rekey are decided under it.
pg::Query LockSchemaForTransaction();

// Runs `select` (with `params`) as the cursor `cursor` in the transaction
// open on `connection`, a page of rows at a time: `rewrite` turns each page
// into the statements run before the next page is fetched (pg_rekey.cpp).
Status RewritePages(
    pg::Connection& connection, std::string_view cursor,
    std::string_view select, const pg::Params& params,
    const std::function<Result<std::vector<pg::Query>>(const pg::Rows&)>&
        rewrite);

// The cursor behind List (pg_list.cpp). REQUIRES: options validated; the
// cursor is destroyed before `impl`.
std::unique_ptr<TupleCursor> MakePostgresListCursor(
    PostgresCheckpointer::Impl* impl, ListOptions options);

}  // namespace rockpoint
