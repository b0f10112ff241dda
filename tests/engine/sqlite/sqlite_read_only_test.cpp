// SQLite read-only mode: reads everything a read-write connection wrote,
// including what another connection commits later; refuses every write
// with InvalidArgument and changes nothing; never creates a schema.
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

void CheckReadOnly(const Status& status) {
  CAPTURE(status.ToString());
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find("store opened read-only") != std::string::npos);
}

TEST_CASE("sqlite read-only: reads, refuses writes, changes nothing") {
  TempDir dir;
  const std::string path = dir.Sub("store.db");
  auto writer = Unwrap(Open(path, false));
  PutDeltaThread(*writer, "d");
  auto reader = Unwrap(Open(path, true));
  const std::vector<CheckpointTuple> before =
      Collect(*reader, ListOf(Cfg("d", std::nullopt, std::nullopt)));
  REQUIRE(before.size() == 12);
  CHECK(MustGet(*reader, Cfg("d")).config.checkpoint_id == CpId(11));
  CHECK(HistoryOf(*reader, Cfg("d", CpId(7))) ==
        HistoryOf(*writer, Cfg("d", CpId(7))));
  CHECK(Unwrap(reader->ListThreads({})).threads.size() == 1);

  CheckReadOnly(
      reader->Put(Cfg("d", CpId(11)), MakeCheckpoint(CpId(12)), Meta(), {})
          .status());
  CheckReadOnly(reader->PutWrites(Cfg("d", CpId(11)), {W("m", "x")}, "k"));
  CheckReadOnly(reader->DeleteThread("d"));
  CheckReadOnly(reader->DeleteForRuns({"d/run-0"}));
  CheckReadOnly(reader->CopyThread("d", "e"));
  CheckReadOnly(reader->HideCheckpoint(Cfg("d", CpId(3))));
  CheckReadOnly(reader->Prune({"d"}, PruneStrategy::kKeepLatest, 1));
  CHECK(Collect(*writer, ListOf(Cfg("d", std::nullopt, std::nullopt))) ==
        before);

  // Another connection's later commits are visible to the reader.
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
