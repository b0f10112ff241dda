// PostgresCheckpointer: the Checkpointer contract over a PostgreSQL server,
// on LangGraph's PostgresSaver schema (engine/postgres/SCHEMA.md), so that
// many processes on many hosts share one store, and a database written by
// LangGraph's saver is read, pruned and verified by rockpoint (and the other
// way round).
//
// Identifiers (thread ids, namespaces, checkpoint ids, channels, task ids and
// paths, type tags, string versions) live in TEXT columns: they must be valid
// UTF-8 without NUL bytes, and at most PostgresOptions::limits.max_id_bytes
// long (the schema's primary keys are B-tree indexed). A write naming another
// id returns InvalidArgument and writes nothing; a read of one finds nothing.
// Writes are keyed as LangGraph keys them: (task_id, idx) per checkpoint, so a
// regular write of a task under another task_path with the same idx is
// ignored, as a repeated write is.
//
// Every call is one transaction; reads run in a REPEATABLE READ READ ONLY
// transaction. Round trips: put, put_writes, get_tuple and a page of list
// one each (libpq's pipeline mode), get_delta_channel_history two.
//
// Private to engine/postgres/ and its tests: everything else opens a store
// through rockpoint::Open (rockpoint/open.h). The operations are implemented
// across engine/postgres/*.cpp by concern: pg_connection.cpp (libpq),
// pg_codec.cpp (JSON and version mapping), pg_schema.cpp (open, migrations,
// schema checks, the pool), pg_put.cpp (put, put_writes), pg_read.cpp
// (get_tuple, rows into tuples), pg_list.cpp (list cursor, list_threads),
// pg_retention.cpp (delete_thread, delete_for_runs, prune), pg_expire.cpp,
// pg_copy_hide.cpp (copy_thread, hide), pg_delta.cpp
// (get_delta_channel_history), pg_sealed.cpp (an encrypted store's rows),
// pg_encryption.cpp (its stored encryption), pg_rekey.cpp (Rekey),
// pg_copy_sealed.cpp (copy_thread of an encrypted store). SQL text may name
// rockpoint's side table as {rp}: Stmt() replaces it with
// rockpoint_checkpoints, or, on a read-only open of a database that has
// none, with an empty derived table of the same columns.
//
// Thread-safety: safe to call from many threads; each call takes a
// connection from a pool of PostgresOptions::pool_size connections. Many
// processes may use one database at once; changes to one thread are
// serialized by a transaction-scoped advisory lock per thread id.
//
// Faults: a lost connection (server restart, pg_terminate_backend, network)
// fails the call in flight with IOError, and nothing of it is committed; the
// next call reconnects.
//
// Encryption (PostgresOptions::encryption): every checkpoint (with its
// metadata and pending sends), value and write is sealed with AES-256-GCM
// under its record name (engine/postgres/SCHEMA.md, "Encrypted stores").
// An encrypted database is rockpoint's only: LangGraph's saver cannot read
// its sealed rows.
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
#include "engine/postgres/pg_connection.h"
#include "engine/record_cipher.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

struct PgCheckpointRow;  // postgres_impl.h

// The longest identifier the PostgreSQL backend stores: four of them make a
// primary key entry of checkpoint_blobs or checkpoint_writes, and a B-tree
// entry holds at most 2704 bytes.
inline constexpr size_t kPostgresMaxIdBytes = 512;

struct PostgresOptions {
  // libpq connection string or URL, e.g. "postgresql://user@host/db" or
  // "postgresql:///db?host=/run/postgresql". Required.
  std::string url;
  // Connections kept open (and the most calls served at once). Default: 4.
  size_t pool_size = 4;
  // Create LangGraph's tables (its migrations, in its order) and rockpoint's
  // additive objects when missing. Default: true.
  bool create_if_missing = true;
  // Read only: every connection's transactions are READ ONLY, nothing is
  // created; every write call returns InvalidArgument "store opened
  // read-only". A database that LangGraph's saver wrote and rockpoint never
  // opened for writing is readable this way. Default: false.
  bool read_only = false;
  // Seconds to wait for a connection to the server. Default: 10.
  int connect_timeout_seconds = 10;
  // Input limits. max_id_bytes must be at most kPostgresMaxIdBytes.
  // Default: CheckpointerLimits{} with max_id_bytes = kPostgresMaxIdBytes.
  CheckpointerLimits limits{.max_id_bytes = kPostgresMaxIdBytes};
  // Encrypt every record (docs/ENCRYPTION.md, engine/postgres/SCHEMA.md).
  // An empty database opened with a key becomes an encrypted one (its store
  // id and key check are stored before its first record); an encrypted one
  // needs its key. Opening with a key a database that holds plaintext rows
  // (LangGraph's or rockpoint's) is InvalidArgument: encrypt it with Rekey.
  // Metadata filters of list are applied by rockpoint after decrypting (the
  // GIN index cannot see sealed metadata). Default: nullopt, a plaintext
  // store LangGraph's saver shares.
  std::optional<EncryptionOptions> encryption;
};

class PostgresCheckpointer final : public Checkpointer, public Maintenance {
 public:
  // Connects, then creates or checks the schema: InvalidArgument for a bad
  // option, IOError when the server cannot be reached, Corruption when a
  // table of the schema's name is not LangGraph's or rockpoint's objects
  // were written by a newer rockpoint.
  static Result<std::unique_ptr<PostgresCheckpointer>> Open(
      const PostgresOptions& options);
  ~PostgresCheckpointer() override;

  // Re-seals every row of the database at options.url (opened with
  // options.encryption: nullopt for a plaintext one) under `new_encryption`
  // (nullopt: decrypted back to plaintext, which LangGraph's saver reads
  // again), with a new store id, in ONE transaction: a failure, a lost
  // connection or a server crash at any point rolls all of it back, so the
  // database reads entirely under the old key or entirely under the new
  // one. Side rows left of deleted checkpoints are removed.
  // REQUIRES: exclusive access. Rekey locks LangGraph's tables and
  // rockpoint's (ACCESS EXCLUSIVE) while it runs, so other sessions wait;
  // but a process that opened the database before holds the old key and
  // reads Corruption after: stop every other user first. InvalidArgument for
  // options.read_only, a wrong or missing key; Corruption (nothing changed)
  // when a row does not open under the old key. The replaced row versions
  // stay on disk until VACUUM (and in WAL and backups): VACUUM FULL after
  // encrypting a plaintext database (engine/postgres/SCHEMA.md).
  static Status Rekey(const PostgresOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);

  // The writes in LangGraph's checkpoint_writes whose checkpoint is not in
  // its checkpoints table (WriteLocation), in key order.
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kPostgres; }

  // What the operation files share (engine/postgres/).
  // Connects once, creates or checks the schema (pg_schema.cpp).
  Status Initialize();

  // A pooled connection, returned to the pool when the lease ends (or
  // dropped when it lost its server).
  class Lease {
   public:
    Lease(PostgresCheckpointer* backend,
          std::unique_ptr<pg::Connection> connection);
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    pg::Connection* operator->() { return connection_.get(); }
    pg::Connection& operator*() { return *connection_; }

   private:
    PostgresCheckpointer* backend_;
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

  // Re-seals every row under `new_encryption` (pg_rekey.cpp; see Rekey).
  // REQUIRES: Initialize succeeded, writable.
  Status RewriteUnderKey(
      const std::optional<EncryptionOptions>& new_encryption);
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
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose closes every connection. Busy while a cursor is alive.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  explicit PostgresCheckpointer(PostgresOptions options);
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
  bool pool_closed_ GUARDED_BY(mu_) = false;
  std::map<std::string, std::unique_ptr<pg::Statement>, std::less<>> statements_
      GUARDED_BY(mu_);
};

}  // namespace rockpoint
