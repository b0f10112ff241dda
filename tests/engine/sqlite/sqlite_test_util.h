// Test helpers for SQLite databases: a raw connection to inspect and damage
// a database file, and a store opened without per-call syncs.
//
// Thread-safety: test code, one thread per object.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/sqlite/sqlite_checkpointer.h"

namespace rockpoint::testing {

// A raw connection for inspecting and tampering with a database file.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    REQUIRE(sqlite3_open(path.c_str(), &db_) == SQLITE_OK);
  }
  ~RawDb() { sqlite3_close_v2(db_); }
  void Exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    std::string message = error ? error : "";
    sqlite3_free(error);
    REQUIRE_MESSAGE(rc == SQLITE_OK, sql << ": " << message);
  }
  // Column `column` of every row of `sql`, as text.
  std::vector<std::string> Column(const std::string& sql, int column = 0) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE_MESSAGE(
        sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK,
        sql << ": " << sqlite3_errmsg(db_));
    std::vector<std::string> out;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, column);
      out.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
    }
    sqlite3_finalize(stmt);
    return out;
  }
  // The detail lines of EXPLAIN QUERY PLAN `sql`.
  std::vector<std::string> Plan(const std::string& sql) {
    return Column("EXPLAIN QUERY PLAN " + sql, 3);
  }
  // Column `column` of every row of `sql` as raw bytes (NULL: empty), with
  // `params` bound as BLOBs to ?1, ?2, ...
  std::vector<std::string> Blobs(const std::string& sql,
                                 const std::vector<std::string>& params = {},
                                 int column = 0) {
    sqlite3_stmt* stmt = Prepared(sql, params);
    std::vector<std::string> out;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const void* data = sqlite3_column_blob(stmt, column);
      const int size = sqlite3_column_bytes(stmt, column);
      out.emplace_back(static_cast<const char*>(data),
                       data == nullptr ? 0 : static_cast<size_t>(size));
    }
    sqlite3_finalize(stmt);
    return out;
  }
  // Runs `sql` (no result rows) with `params` bound as BLOBs.
  void Run(const std::string& sql, const std::vector<std::string>& params) {
    sqlite3_stmt* stmt = Prepared(sql, params);
    const int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    REQUIRE_MESSAGE(rc == SQLITE_DONE, sql << ": " << sqlite3_errmsg(db_));
  }

 private:
  sqlite3_stmt* Prepared(const std::string& sql,
                         const std::vector<std::string>& params) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE_MESSAGE(
        sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK,
        sql << ": " << sqlite3_errmsg(db_));
    for (size_t i = 0; i < params.size(); ++i) {
      REQUIRE(sqlite3_bind_blob(stmt, static_cast<int>(i + 1), params[i].data(),
                                static_cast<int>(params[i].size()),
                                SQLITE_TRANSIENT) == SQLITE_OK);
    }
    return stmt;
  }

  sqlite3* db_ = nullptr;
};

// Every row of every table, quoted, in rowid order: equal dumps, equal
// stores.
inline std::string Dump(const std::string& path) {
  RawDb raw(path);
  std::string out;
  for (const char* sql :
       {"SELECT quote(thread_id) || quote(checkpoint_ns) || "
        "quote(checkpoint_id) || quote(parent_checkpoint_id) || "
        "quote(hidden) || quote(run_id) || quote(ts) || quote(checkpoint) || "
        "quote(metadata) FROM checkpoints ORDER BY rowid",
        "SELECT quote(thread_id) || quote(checkpoint_ns) || quote(channel) || "
        "quote(version) || quote(type) || quote(blob) FROM checkpoint_blobs "
        "ORDER BY rowid",
        "SELECT quote(thread_id) || quote(checkpoint_ns) || "
        "quote(checkpoint_id) || quote(task_id) || quote(idx) || "
        "quote(channel) || quote(type) || quote(value) || quote(task_path) "
        "FROM checkpoint_writes ORDER BY rowid",
        "SELECT quote(name) || quote(value) FROM rockpoint_meta ORDER BY "
        "name"}) {
    for (const std::string& row : raw.Column(sql)) out += row + "\n";
  }
  return out;
}

inline std::unique_ptr<SqliteCheckpointer> OpenStore(const std::string& path) {
  SqliteOptions options;
  options.path = path;
  options.sync_writes = false;
  return Unwrap(SqliteCheckpointer::Open(options));
}

}  // namespace rockpoint::testing
