// Damaged SQLite databases: a row that does not decode, or a value row that
// was lost, is Corruption naming the row in every read, never another value
// or a silently missing channel.
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
  SUBCASE("undecodable checkpoint record") {
    RawDb(path).Exec("UPDATE checkpoints SET checkpoint = x'ff00'" + where(2));
    auto store = OpenStore(path);
    Status read = store->GetTuple(Cfg("t", CpId(2))).status();
    INFO(read.ToString());
    CHECK(read.IsCorruption());
    CHECK(read.message().find("cp0002") != std::string::npos);
    Status walk =
        store->GetDeltaChannelHistory(Cfg("t", CpId(3)), {"m"}).status();
    INFO(walk.ToString());
    CHECK(walk.IsCorruption());
    CHECK(walk.message().find("cp0002") != std::string::npos);
    // A retention call that meets it fails and changes nothing.
    CHECK(store->Prune({"t"}, PruneStrategy::kKeepLatest).IsCorruption());
    CHECK(Unwrap(store->ListThreads({}))
              .threads.at(0)
              .namespaces.at(0)
              .checkpoint_count == 3);
  }
}

// Issue #19, defect 2 (SQLite): a lost blob row read back as no value.
TEST_CASE("sqlite regression: a missing value row is Corruption naming it") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  auto store = OpenStore(path);
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}},
                 .versions = {{"a", int64_t{1}}}});
  DoPut(*store, {.thread = "t",
                 .id = CpId(2),
                 .parent = CpId(1),
                 .versions = {{"a", int64_t{1}}},
                 .new_versions = ChannelVersions{}});
  DoPut(*store, {.thread = "t",
                 .id = CpId(3),
                 .parent = CpId(2),
                 .versions = {{"a", int64_t{2}}}});
  DoPut(*store, {.thread = "u",
                 .id = CpId(1),
                 .versions = {{"z", int64_t{9}}},
                 .new_versions = ChannelVersions{}});
  RawDb(path).Exec(
      "DELETE FROM checkpoint_blobs WHERE channel = CAST('a' AS BLOB) AND "
      "version = 1");
  const auto names = [](const Status& status) {
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find("checkpoint_blobs row (thread_id=\"t\", "
                                "checkpoint_ns=\"\", channel=\"a\")") !=
          std::string::npos);
  };
  names(store->GetTuple(Cfg("t", CpId(1))).status());
  names(store->GetTuple(Cfg("t", CpId(2))).status());
  names(store->GetDeltaChannelHistory(Cfg("t", CpId(3)), {"a"}).status());
  CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(3))).checkpoint).empty());
  CHECK(ValuesOf(MustGet(*store, Cfg("u")).checkpoint).empty());
}

}  // namespace
}  // namespace rockpoint
