// Private to engine/sqlite: a thin RAII layer over the SQLite C API.
//
// Database owns one connection and a cache of prepared statements keyed by
// their SQL text; Statement is a handle to one of them that binds, steps and
// reads columns and resets itself when destroyed; Transaction is a scoped
// BEGIN ... COMMIT that rolls back unless committed. SQLite result codes are
// translated into Status here and nowhere else (SqliteStatus).
//
// Thread-safety: none. A Database and everything obtained from it must be
// used by one thread at a time (SqliteCheckpointer serializes calls on
// its mutex).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"

namespace rockpoint::sqlite_internal {

// Translates a SQLite result code into a Status: BUSY/LOCKED -> Busy,
// CORRUPT/NOTADB -> Corruption, TOOBIG/RANGE/MISMATCH -> InvalidArgument,
// INTERRUPT/ABORT -> Aborted, everything else -> IOError. `context` says what
// was being done; `db` (may be null) supplies SQLite's own message.
Status SqliteStatus(int code, std::string_view context, sqlite3* db);

// A printable, bounded rendering of arbitrary bytes for error messages:
// printable ASCII as is, other bytes as \xNN, cut after 64 bytes.
std::string PrintableBytes(std::string_view bytes);

// A prepared statement in use. Bound bytes are not copied (SQLITE_STATIC).
// REQUIRES: everything bound outlives the Statement (the bindings are
// cleared when it is destroyed).
class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt, bool owned);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameter indexes start at 1. A bind error is reported by the next
  // Step() or Run().
  void BindBytes(int index, std::string_view bytes);  // as a BLOB.
  void BindBytes(int index, std::string&&) = delete;  // would dangle.
  void BindInt(int index, int64_t value);
  void BindNull(int index);
  // An int version as INTEGER, a string version as TEXT.
  void BindVersion(int index, const serde::ChannelVersion& version);
  void BindVersion(int index, serde::ChannelVersion&&) = delete;

  // Steps once: true when a row is available, false when done.
  Result<bool> Step();
  // Steps until done (for statements that return no rows).
  Status Run();
  // Ends the current execution early, keeping the bindings.
  void Reset();

  // Column readers; valid after Step() returned true, until the next Step.
  // Column indexes start at 0.
  bool IsNull(int column) const;
  std::string_view ColumnView(int column) const;
  std::string ColumnString(int column) const {
    return std::string(ColumnView(column));
  }
  // ColumnView, or nullopt for NULL.
  std::optional<std::string_view> ColumnViewOrNull(int column) const {
    if (IsNull(column)) return std::nullopt;
    return ColumnView(column);
  }
  int64_t ColumnInt(int column) const;
  // An INTEGER or TEXT column as a ChannelVersion; Corruption otherwise.
  Result<serde::ChannelVersion> ColumnVersion(int column) const;

  sqlite3_stmt* raw() const { return stmt_; }

 private:
  void Release();
  void NoteBind(int rc);

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  bool owned_ = false;  // finalize (not just reset) on release.
  int bind_error_ = SQLITE_OK;
};

// One connection with a prepared-statement cache.
class Database {
 public:
  // Opens `path` (":memory:" for an in-memory database) read-write,
  // creating it when `create_if_missing`, or read-only.
  static Result<std::unique_ptr<Database>> Open(const std::string& path,
                                                bool create_if_missing,
                                                bool read_only = false);
  // Closes the connection unless Close did.
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The cached statement for `sql`, prepared on first use. When the cached
  // one is already executing (nested use), a one-off statement is prepared.
  Result<Statement> Prepare(const std::string& sql);
  // Runs one or more statements without results (DDL, pragmas).
  Status Exec(const std::string& sql);
  // Runs a statement returning a single integer (e.g. PRAGMA user_version).
  Result<int64_t> QueryInt(const std::string& sql);

  // Finalizes the cached statements and closes the connection (the last
  // connection of a WAL database checkpoints it). Busy, leaving the
  // connection open, while a one-off statement is still open; any other
  // status: the connection is closed.
  // REQUIRES: called once, and no other call after it except the destructor.
  Status Close();

  sqlite3* handle() const { return db_; }

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

// A scoped transaction. Rolls back on destruction unless committed.
class Transaction {
 public:
  // BEGIN IMMEDIATE: takes the write lock now (Busy after busy_timeout).
  static Result<Transaction> BeginWrite(Database* db);
  // BEGIN (deferred): a consistent read snapshot for several queries.
  static Result<Transaction> BeginRead(Database* db);

  Transaction(Transaction&& other) noexcept
      : db_(other.db_), active_(other.active_) {
    other.active_ = false;
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();

  Status Commit();

 private:
  explicit Transaction(Database* db) : db_(db), active_(true) {}
  Database* db_;
  bool active_;
};

}  // namespace rockpoint::sqlite_internal
