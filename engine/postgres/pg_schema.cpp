// Opening: the connection pool, LangGraph's migrations, rockpoint's
// additive objects and the checks that refuse a foreign or newer schema
// (engine/postgres/SCHEMA.md).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "engine/backend_rules.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {
namespace {

using pg::Connection;

// Session-level advisory lock held while a process creates or migrates the
// schema, so that concurrent opens do it once.
constexpr const char* kLockSchema = "SELECT pg_advisory_lock(7262897, 0)";
constexpr const char* kUnlockSchema = "SELECT pg_advisory_unlock(7262897, 0)";

// LangGraph PostgresSaver's migrations, version i at index i: the tables,
// the nullable blob, a placeholder, the thread_id indexes, task_path.
// CREATE INDEX CONCURRENTLY runs outside a transaction, as LangGraph runs it.
constexpr const char* kLangGraphMigrationSql[kLangGraphMigrations] = {
    "CREATE TABLE IF NOT EXISTS checkpoint_migrations (v INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS checkpoints (thread_id TEXT NOT NULL, "
    "checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
    "parent_checkpoint_id TEXT, type TEXT, checkpoint JSONB NOT NULL, "
    "metadata JSONB NOT NULL DEFAULT '{}', "
    "PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id))",
    "CREATE TABLE IF NOT EXISTS checkpoint_blobs (thread_id TEXT NOT NULL, "
    "checkpoint_ns TEXT NOT NULL DEFAULT '', channel TEXT NOT NULL, "
    "version TEXT NOT NULL, type TEXT NOT NULL, blob BYTEA, "
    "PRIMARY KEY (thread_id, checkpoint_ns, channel, version))",
    "CREATE TABLE IF NOT EXISTS checkpoint_writes (thread_id TEXT NOT NULL, "
    "checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
    "task_id TEXT NOT NULL, idx INTEGER NOT NULL, channel TEXT NOT NULL, "
    "type TEXT, blob BYTEA NOT NULL, "
    "PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx))",
    "ALTER TABLE checkpoint_blobs ALTER COLUMN blob DROP NOT NULL",
    "SELECT 1",
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS checkpoints_thread_id_idx "
    "ON checkpoints (thread_id)",
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS checkpoint_blobs_thread_id_idx "
    "ON checkpoint_blobs (thread_id)",
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS checkpoint_writes_thread_id_idx "
    "ON checkpoint_writes (thread_id)",
    "ALTER TABLE checkpoint_writes ADD COLUMN IF NOT EXISTS task_path TEXT "
    "NOT NULL DEFAULT ''",
};

// rockpoint's objects, version 1: the side table (hidden checkpoints, the
// channels a rockpoint put stored, legacy pending sends), the newest-first
// indexes in byte order (COLLATE "C", whatever the database's collation) of
// a namespace, a thread and the whole table, the run_id index of
// delete_for_runs and the GIN index of metadata filters.
constexpr const char* kRockpointSchemaV1 = R"sql(
BEGIN;
CREATE TABLE IF NOT EXISTS rockpoint_migrations (v INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS rockpoint_checkpoints (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  checkpoint_id TEXT NOT NULL,
  hidden BOOLEAN NOT NULL DEFAULT false,
  stored_channels JSONB,
  pending_sends JSONB,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);
CREATE INDEX IF NOT EXISTS rockpoint_checkpoints_newest
  ON checkpoints (thread_id, checkpoint_ns, checkpoint_id COLLATE "C");
CREATE INDEX IF NOT EXISTS rockpoint_checkpoints_thread_newest
  ON checkpoints (thread_id, checkpoint_id COLLATE "C",
                  checkpoint_ns COLLATE "C");
CREATE INDEX IF NOT EXISTS rockpoint_checkpoints_global_newest
  ON checkpoints (checkpoint_id COLLATE "C", thread_id COLLATE "C",
                  checkpoint_ns COLLATE "C");
CREATE INDEX IF NOT EXISTS rockpoint_checkpoints_run_id
  ON checkpoints ((metadata ->> 'run_id'));
CREATE INDEX IF NOT EXISTS rockpoint_checkpoints_metadata
  ON checkpoints USING gin (metadata);
INSERT INTO rockpoint_migrations (v) VALUES (1) ON CONFLICT DO NOTHING;
COMMIT;
)sql";

// {rp} on a read-only open of a database without rockpoint's side table.
constexpr const char* kEmptySideTable =
    "(SELECT NULL::text AS thread_id, NULL::text AS checkpoint_ns, "
    "NULL::text AS checkpoint_id, false AS hidden, "
    "NULL::jsonb AS stored_channels, NULL::jsonb AS pending_sends "
    "WHERE false)";

// The columns of LangGraph's tables that rockpoint reads and writes.
struct ExpectedColumn {
  const char* table;
  const char* column;
  const char* type;
};
constexpr ExpectedColumn kLangGraphColumns[] = {
    {"checkpoints", "thread_id", "text"},
    {"checkpoints", "checkpoint_ns", "text"},
    {"checkpoints", "checkpoint_id", "text"},
    {"checkpoints", "parent_checkpoint_id", "text"},
    {"checkpoints", "checkpoint", "jsonb"},
    {"checkpoints", "metadata", "jsonb"},
    {"checkpoint_blobs", "thread_id", "text"},
    {"checkpoint_blobs", "checkpoint_ns", "text"},
    {"checkpoint_blobs", "channel", "text"},
    {"checkpoint_blobs", "version", "text"},
    {"checkpoint_blobs", "type", "text"},
    {"checkpoint_blobs", "blob", "bytea"},
    {"checkpoint_writes", "thread_id", "text"},
    {"checkpoint_writes", "checkpoint_ns", "text"},
    {"checkpoint_writes", "checkpoint_id", "text"},
    {"checkpoint_writes", "task_id", "text"},
    {"checkpoint_writes", "idx", "integer"},
    {"checkpoint_writes", "channel", "text"},
    {"checkpoint_writes", "type", "text"},
    {"checkpoint_writes", "blob", "bytea"},
    {"checkpoint_writes", "task_path", "text"},
};

constexpr const char* kSelectColumns =
    "SELECT table_name::text, column_name::text, data_type::text "
    "FROM information_schema.columns WHERE table_schema = current_schema() "
    "AND table_name IN ('checkpoints', 'checkpoint_blobs', "
    "'checkpoint_writes', 'checkpoint_migrations', 'rockpoint_migrations', "
    "'rockpoint_checkpoints', 'rockpoint_encryption')";

// The largest version recorded in `table`, -1 when it is empty.
Result<int64_t> LatestVersion(Connection& connection, const char* table) {
  RP_ASSIGN_OR_RETURN(
      pg::Rows rows,
      connection.RunOne(pg::Query{
          nullptr,
          std::string("SELECT coalesce(max(v), -1)::int8 FROM ") + table,
          {}}));
  return rows.GetInt(0, 0);
}

// (table, column) -> data_type of the tables rockpoint knows.
Result<std::map<std::pair<std::string, std::string>, std::string>> ReadColumns(
    Connection& connection) {
  RP_ASSIGN_OR_RETURN(
      pg::Rows rows, connection.RunOne(pg::Query{nullptr, kSelectColumns, {}}));
  std::map<std::pair<std::string, std::string>, std::string> columns;
  for (int i = 0; i < rows.size(); ++i) {
    columns[{rows.GetString(i, 0), rows.GetString(i, 1)}] =
        rows.GetString(i, 2);
  }
  return columns;
}

bool HasTable(
    const std::map<std::pair<std::string, std::string>, std::string>& columns,
    std::string_view table) {
  for (const auto& [key, type] : columns) {
    if (key.first == table) return true;
  }
  return false;
}

// Refuses a database without LangGraph's tables, or whose tables of those
// names lack a column rockpoint uses (but task_path, which LangGraph's last
// migration adds, when `before_migrations`).
Status CheckLangGraphTables(
    const std::map<std::pair<std::string, std::string>, std::string>& columns,
    const std::string& where, bool before_migrations = false) {
  if (!HasTable(columns, "checkpoints") &&
      !HasTable(columns, "checkpoint_blobs") &&
      !HasTable(columns, "checkpoint_writes")) {
    return Status::InvalidArgument(where +
                                   " holds no LangGraph checkpoint tables");
  }
  for (const ExpectedColumn& expected : kLangGraphColumns) {
    if (before_migrations && std::string_view(expected.column) == "task_path") {
      continue;
    }
    auto found = columns.find({expected.table, expected.column});
    if (found == columns.end() || found->second != expected.type) {
      return Status::Corruption(
          where + ": table " + expected.table +
          " is not LangGraph's PostgresSaver table: column " + expected.column +
          " " + expected.type + " is " +
          (found == columns.end() ? "missing" : "of type " + found->second));
    }
  }
  return Status::OK();
}

}  // namespace

PostgresCheckpointer::PostgresCheckpointer(PostgresOptions options)
    : Checkpointer(FrontChecks{.limits = options.limits,
                               .read_only = options.read_only,
                               .store_name = pg::DescribeUrl(options.url)}),
      options_(std::move(options)) {}

PostgresCheckpointer::~PostgresCheckpointer() { (void)Close(); }

Status PostgresCheckpointer::CreateSchema(Connection& connection) {
  RP_RETURN_IF_ERROR(connection.Execute(kLockSchema));
  auto migrate = [&]() -> Status {
    const std::string where =
        "PostgreSQL database (" + connection.description() + ")";
    // A foreign table named like LangGraph's is refused before anything is
    // added to the database.
    RP_ASSIGN_OR_RETURN(auto found, ReadColumns(connection));
    if (HasTable(found, "checkpoints") || HasTable(found, "checkpoint_blobs") ||
        HasTable(found, "checkpoint_writes")) {
      RP_RETURN_IF_ERROR(
          CheckLangGraphTables(found, where, /*before_migrations=*/true));
    }
    RP_RETURN_IF_ERROR(connection.Execute(kLangGraphMigrationSql[0]));
    RP_ASSIGN_OR_RETURN(int64_t applied,
                        LatestVersion(connection, "checkpoint_migrations"));
    for (int64_t v = applied + 1; v < kLangGraphMigrations; ++v) {
      RP_RETURN_IF_ERROR(connection.Execute(kLangGraphMigrationSql[v]));
      RP_RETURN_IF_ERROR(
          connection.Execute("INSERT INTO checkpoint_migrations (v) VALUES (" +
                             std::to_string(v) + ") ON CONFLICT DO NOTHING"));
    }
    RP_ASSIGN_OR_RETURN(auto columns, ReadColumns(connection));
    RP_RETURN_IF_ERROR(CheckLangGraphTables(columns, where));
    RP_RETURN_IF_ERROR(
        connection.Execute("CREATE TABLE IF NOT EXISTS rockpoint_migrations "
                           "(v INTEGER PRIMARY KEY)"));
    RP_ASSIGN_OR_RETURN(int64_t ours,
                        LatestVersion(connection, "rockpoint_migrations"));
    if (ours < 1) RP_RETURN_IF_ERROR(connection.Execute(kRockpointSchemaV1));
    return Status::OK();
  };
  Status status = migrate();
  Status unlocked = connection.Execute(kUnlockSchema);
  return status.ok() ? unlocked : status;
}

Status PostgresCheckpointer::CheckSchema(Connection& connection) {
  RP_ASSIGN_OR_RETURN(auto columns, ReadColumns(connection));
  const std::string where =
      "PostgreSQL database (" + connection.description() + ")";
  RP_RETURN_IF_ERROR(CheckLangGraphTables(columns, where));
  if (!HasTable(columns, "rockpoint_migrations")) {
    if (!options_.read_only) {
      return Status::InvalidArgument(
          where + " has no rockpoint objects and create_if_missing is false");
    }
    side_table_ = kEmptySideTable;
    return Status::OK();
  }
  RP_ASSIGN_OR_RETURN(int64_t ours,
                      LatestVersion(connection, "rockpoint_migrations"));
  if (ours > kPostgresSchemaVersion) {
    return Status::InvalidArgument(
        where + " has rockpoint schema version " + std::to_string(ours) +
        ", newer than the supported " + std::to_string(kPostgresSchemaVersion));
  }
  // Version 1 is complete without rockpoint_encryption: a plaintext store
  // (pg_encryption.cpp adds version 2 with the first stored encryption).
  if (ours < 1 || !HasTable(columns, "rockpoint_checkpoints") ||
      (ours >= 2 && !HasTable(columns, "rockpoint_encryption"))) {
    return Status::Corruption(where +
                              " has rockpoint_migrations but not rockpoint's "
                              "objects of schema version " +
                              std::to_string(std::max<int64_t>(ours, 1)));
  }
  side_table_ = "rockpoint_checkpoints";
  has_encryption_table_ = HasTable(columns, "rockpoint_encryption");
  return Status::OK();
}

Status PostgresCheckpointer::Initialize() {
  if (options_.limits.max_id_bytes > kPostgresMaxIdBytes) {
    return Status::InvalidArgument(
        "options.limits.max_id_bytes is " +
        std::to_string(options_.limits.max_id_bytes) +
        ", more than the PostgreSQL backend's " +
        std::to_string(kPostgresMaxIdBytes));
  }
  if (options_.pool_size == 0) {
    return Status::InvalidArgument("options.pool_size is 0");
  }
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  if (!options_.read_only && options_.create_if_missing) {
    RP_RETURN_IF_ERROR(CreateSchema(*lease));
  }
  RP_RETURN_IF_ERROR(CheckSchema(*lease));
  return OpenEncryption(*lease);
}

Status PostgresCheckpointer::CheckOpen() {
  base::MutexLock lock(&mu_);
  return pool_closed_ ? StoreClosedError() : Status::OK();
}

// The pool.

PostgresCheckpointer::Lease::Lease(PostgresCheckpointer* backend,
                                   std::unique_ptr<pg::Connection> connection)
    : backend_(backend), connection_(std::move(connection)) {}

PostgresCheckpointer::Lease::Lease(Lease&& other) noexcept
    : backend_(other.backend_), connection_(std::move(other.connection_)) {}

PostgresCheckpointer::Lease::~Lease() {
  if (connection_) backend_->Release(std::move(connection_));
}

Result<PostgresCheckpointer::Lease> PostgresCheckpointer::Acquire() {
  {
    base::MutexLock lock(&mu_);
    while (!pool_closed_ && idle_.empty() &&
           open_connections_ >= options_.pool_size) {
      idle_changed_.Wait(&mu_);
    }
    if (pool_closed_) return StoreClosedError();
    if (!idle_.empty()) {
      std::unique_ptr<pg::Connection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
    ++open_connections_;
  }
  Result<std::unique_ptr<pg::Connection>> connection =
      pg::Connection::Connect(options_.url, options_.connect_timeout_seconds);
  if (connection.ok() && options_.read_only) {
    Status read_only =
        (*connection)
            ->Execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
    if (!read_only.ok()) connection = read_only;
  }
  if (!connection.ok()) {
    base::MutexLock lock(&mu_);
    --open_connections_;
    idle_changed_.Signal();
    return connection.status();
  }
  return Lease(this, std::move(connection).value());
}

void PostgresCheckpointer::Release(std::unique_ptr<pg::Connection> connection) {
  base::MutexLock lock(&mu_);
  if (pool_closed_ || !connection->healthy()) {
    --open_connections_;
    connection.reset();
  } else {
    idle_.push_back(std::move(connection));
  }
  idle_changed_.Signal();
}

std::string ReplaceAll(std::string text, std::string_view from,
                       std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string RowName(std::string_view thread_id, std::string_view checkpoint_ns,
                    std::string_view checkpoint_id) {
  return "checkpoints row " +
         pg::KeyName(thread_id, checkpoint_ns, checkpoint_id);
}

std::string PostgresCheckpointer::Sql(std::string_view sql) const {
  return ReplaceAll(std::string(sql), "{rp}", side_table_);
}

const pg::Statement& PostgresCheckpointer::Stmt(std::string_view name,
                                                std::string_view sql) {
  return Stmt(name, [sql] { return std::string(sql); });
}

const pg::Statement& PostgresCheckpointer::Stmt(
    std::string_view name, const std::function<std::string()>& make_sql) {
  base::MutexLock lock(&mu_);
  auto found = statements_.find(name);
  if (found != statements_.end()) return *found->second;
  auto statement = std::make_unique<pg::Statement>(
      pg::Statement{std::string(name), Sql(make_sql())});
  const pg::Statement& out = *statement;
  statements_.emplace(std::string(name), std::move(statement));
  return out;
}

Status PostgresCheckpointer::InTransaction(
    const std::function<Status(pg::Connection&)>& body) {
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_RETURN_IF_ERROR(lease->Execute("BEGIN"));
  Status status = body(*lease);
  if (status.ok()) return lease->Execute("COMMIT");
  if (lease->healthy()) (void)lease->Execute("ROLLBACK");
  return status;
}

pg::Query PostgresCheckpointer::LockThread(std::string_view thread_id,
                                           bool exclusive) {
  static const pg::Statement kShared{
      "rp_lock_shared",
      "SELECT pg_advisory_xact_lock_shared(7262898, hashtext($1))"};
  static const pg::Statement kExclusive{
      "rp_lock_exclusive",
      "SELECT pg_advisory_xact_lock(7262898, hashtext($1))"};
  return pg::Query{
      exclusive ? &kExclusive : &kShared, "", {pg::Text(thread_id)}};
}

std::vector<pg::Query> PostgresCheckpointer::LockThreads(
    const std::set<std::string>& threads) {
  std::vector<pg::Query> queries;
  for (const std::string& thread : threads) {
    queries.push_back(LockThread(thread, /*exclusive=*/true));
  }
  return queries;
}

void PostgresCheckpointer::CursorOpened() {
  base::MutexLock lock(&mu_);
  ++live_cursors_;
}

void PostgresCheckpointer::CursorClosed() {
  base::MutexLock lock(&mu_);
  --live_cursors_;
}

Status PostgresCheckpointer::DoClose() {
  base::MutexLock lock(&mu_);
  if (pool_closed_) return Status::OK();
  if (live_cursors_ > 0) {
    return Status::Busy("a list cursor of this store is still alive");
  }
  pool_closed_ = true;
  open_connections_ -= idle_.size();
  idle_.clear();
  idle_changed_.SignalAll();
  return Status::OK();
}

}  // namespace rockpoint
