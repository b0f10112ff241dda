// Damaged SQLite databases: metadata that does not decode is Corruption
// naming the row. (A checkpoint record that does not decode, and a lost
// value row: contract_damage.h.)
#include <sqlite3.h>

#include <string>

#include "engine/contract_helpers.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "engine/sqlite/sqlite_test_util.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

TEST_CASE("sqlite corrupted rows are Corruption naming the row") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  {
    auto store = OpenStore(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"m", Val("seed")}},
                   .versions = {{"m", int64_t{1}}}});
    DoPut(*store, {.thread = "t",
                   .id = CpId(2),
                   .parent = CpId(1),
                   .versions = {{"m", int64_t{2}}},
                   .new_versions = ChannelVersions{{"m", int64_t{2}}}});
    DoPut(*store, {.thread = "t", .id = CpId(3), .parent = CpId(2)});
  }
  auto where = [](int id) {
    return " WHERE checkpoint_id = CAST('" + CpId(id) + "' AS BLOB)";
  };

  SUBCASE("undecodable metadata") {
    RawDb(path).Exec("UPDATE checkpoints SET metadata = x'c1'" + where(2));
    auto store = OpenStore(path);
    Status status = store->GetTuple(Cfg("t", CpId(2))).status();
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find("checkpoint_id=\"cp0002\"") !=
          std::string::npos);
    CHECK(status.message().find("thread_id=\"t\"") != std::string::npos);
    CHECK(status.message().find("metadata") != std::string::npos);
    // Other rows still read; list stops at the bad row with the error.
    CHECK(MustGet(*store, Cfg("t")).config.checkpoint_id == CpId(3));
    std::unique_ptr<TupleCursor> cursor =
        Unwrap(store->List(ListOf(Cfg("t", std::nullopt, std::nullopt))));
    CHECK(Unwrap(cursor->Next()).has_value());
    CHECK(cursor->Next().status().IsCorruption());
    CHECK_FALSE(Unwrap(cursor->Next()).has_value());
    CHECK(store->ListAll(ListOf(std::nullopt)).status().IsCorruption());
  }
  SUBCASE("metadata that is not a map") {
    RawDb(path).Exec("UPDATE checkpoints SET metadata = x'a178'" + where(3));
    auto store = OpenStore(path);
    Status status = store->GetTuple(Cfg("t")).status();
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find("cp0003") != std::string::npos);
    CHECK(status.message().find("not a map") != std::string::npos);
  }
}

}  // namespace
}  // namespace rockpoint
