// SQLite read-only mode: reads what another connection commits later;
// never creates a schema. (Reading, refusing every write and changing
// nothing: contract_read_only.h.)
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"
#include "engine/sqlite/sqlite_checkpointer.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

Result<std::unique_ptr<SqliteCheckpointer>> Open(const std::string& path,
                                                 bool read_only) {
  SqliteOptions options;
  options.path = path;
  options.sync_writes = false;
  options.read_only = read_only;
  return SqliteCheckpointer::Open(options);
}

// Reads, refuses every write, changes nothing: contract_read_only.h.
TEST_CASE("sqlite read-only: another connection's later commits are seen") {
  TempDir dir;
  const std::string path = dir.Sub("store.db");
  auto writer = Unwrap(Open(path, false));
  PutDeltaThread(*writer, "d");
  auto reader = Unwrap(Open(path, true));
  REQUIRE(
      Collect(*reader, ListOf(Cfg("d", std::nullopt, std::nullopt))).size() ==
      12);
  RP_REQUIRE_OK(writer->Prune({"d"}, PruneStrategy::kKeepLatest, 1));
  CHECK(Ids(Collect(*reader, ListOf(Cfg("d", std::nullopt, std::nullopt)))) ==
        CpId(11));
}

TEST_CASE("sqlite read-only: a missing file or one without the schema") {
  TempDir dir;
  const std::string missing = dir.Sub("missing.db");
  CHECK_FALSE(Open(missing, true).ok());
  CHECK_FALSE(std::filesystem::exists(missing));

  const std::string other = dir.Sub("other.db");
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(other.c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "CREATE TABLE unrelated (x)", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close_v2(raw);
  Result<std::unique_ptr<SqliteCheckpointer>> opened = Open(other, true);
  REQUIRE_FALSE(opened.ok());
  CAPTURE(opened.status().ToString());
  CHECK(opened.status().IsInvalidArgument());
  CHECK(opened.status().message().find("no rockpoint schema") !=
        std::string::npos);
  // Nothing was created: a read-write open still finds schema version 0.
  REQUIRE(sqlite3_open(other.c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &stmt, nullptr) ==
          SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  CHECK(sqlite3_column_int(stmt, 0) == 0);
  sqlite3_finalize(stmt);
  sqlite3_close_v2(raw);
}

}  // namespace
}  // namespace rockpoint
