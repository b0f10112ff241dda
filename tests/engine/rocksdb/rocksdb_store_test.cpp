// RocksDbCheckpointer as a store on disk: read-only mode, prefix-neighbour
// ids across flushes and compaction, and regressions found in RocksDB
// itself. Format versions: rocksdb_format_version_test.cpp; damaged
// stores: rocksdb_damage_test.cpp.
#include <doctest/doctest.h>

#include <set>

#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

TEST_CASE("rocksdb layout: read-only mode reads and refuses every write") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"a", Val("1")}},
                   .versions = {{"a", int64_t{1}}}});
    DoPut(*store, {.thread = "t",
                   .id = CpId(2),
                   .parent = CpId(1),
                   .versions = {{"a", int64_t{2}}}});
    DoWrites(*store, "t", CpId(1), {W("a", "w")}, "k");
  }
  auto writer = OpenAt(path);  // read-only opens take no lock
  auto reader = OpenAt(path, /*read_only=*/true);
  CHECK(MustGet(*reader, Cfg("t")).config.checkpoint_id == CpId(2));
  CHECK(Collect(*reader, ListOf(std::nullopt)).size() == 2);
  CHECK(Unwrap(reader->ListThreads({})).threads.size() == 1);
  CHECK(Unwrap(reader->GetDeltaChannelHistory(Cfg("t"), {"a"}))
            .at("a")
            .writes.size() == 1);

  const auto refused = [](const Status& status) {
    INFO(status.ToString());
    CHECK(status.IsInvalidArgument());
    CHECK(status.message().find("store opened read-only") != std::string::npos);
  };
  Checkpoint checkpoint = MakeCheckpoint(CpId(3));
  refused(reader->Put(Cfg("t", CpId(2)), checkpoint, Meta(), {}).status());
  refused(reader->PutWrites(Cfg("t", CpId(2)), {W("a", "x")}, "k"));
  refused(reader->DeleteThread("t"));
  refused(reader->DeleteForRuns({"r"}));
  refused(reader->CopyThread("t", "u"));
  refused(reader->HideCheckpoint(Cfg("t", CpId(1))));
  refused(reader->Prune({"t"}, PruneStrategy::kDelete));
  refused(reader->Compact());
  reader.reset();
  CHECK(Collect(*writer, ListOf(std::nullopt)).size() == 2);
}

TEST_CASE("rocksdb layout: prefix-neighbour ids stay apart after compaction") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  const std::vector<std::string> threads = {
      "", "a", std::string("a\0", 2), std::string("a\0b", 3), "a\xff", "ab"};
  const std::vector<std::string> spaces = {"", "x", std::string("x\0", 2)};
  {
    auto store = OpenAt(path);
    for (const std::string& thread : threads) {
      for (const std::string& ns : spaces) {
        for (int n = 1; n <= 2; ++n) {
          DoPut(*store,
                {.thread = thread,
                 .id = CpId(n),
                 .parent = n > 1 ? std::optional(CpId(1)) : std::nullopt,
                 .values = {{"c", Val(thread + "/" + ns)}},
                 .versions = {{"c", int64_t{n}}},
                 .ns = ns});
          DoWrites(*store, thread, CpId(n), {W("c", ns)}, "k", "", ns);
        }
      }
    }
    RP_REQUIRE_OK(store->Compact());
  }
  auto store = OpenAt(path);
  RP_REQUIRE_OK(store->DeleteThread("a"));
  for (const std::string& thread : threads) {
    CAPTURE(thread);
    const size_t want = thread == "a" ? 0 : spaces.size() * 2;
    CHECK(Collect(*store, ListOf(Cfg(thread, std::nullopt, std::nullopt)))
              .size() == want);
    if (thread == "a") continue;
    for (const std::string& ns : spaces) {
      CheckpointTuple latest = MustGet(*store, Cfg(thread, std::nullopt, ns));
      CHECK(latest.config.checkpoint_id == CpId(2));
      CHECK(ValuesOf(latest.checkpoint) == "c=" + thread + "/" + ns);
      CHECK(WritesOf(latest.pending_writes) == "/k#0:c=" + ns);
    }
  }
}

// RocksDB 7.8 shares memtable insert hints between point keys and range
// deletions; delete_thread's range deletions must not reuse a hint of the
// keys they cover (a debug RocksDB asserts, a release one corrupts the
// memtable).
TEST_CASE("rocksdb layout: regression: range deletion beside insert hints") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  for (int round = 0; round < 3; ++round) {
    for (int n = 1; n <= 3; ++n) {
      DoPut(*store,
            {.thread = "t",
             .id = CpId(n),
             .parent = n > 1 ? std::optional(CpId(n - 1)) : std::nullopt,
             .values = {{"c", Val(std::to_string(round))}},
             .versions = {{"c", int64_t{n}}},
             .metadata = Meta({{"run_id", Value("r")}})});
      DoWrites(*store, "t", CpId(n), {W("c", "w")}, "k");
    }
    CHECK(
        Collect(*store, ListOf(Cfg("t", std::nullopt, std::nullopt))).size() ==
        3);
    CHECK(ValuesOf(MustGet(*store, Cfg("t")).checkpoint) ==
          "c=" + std::to_string(round));
    RP_REQUIRE_OK(store->CopyThread("t", "u"));
    RP_REQUIRE_OK(store->DeleteThread("t"));
    CHECK_FALSE(Get(*store, Cfg("t")).has_value());
    RP_REQUIRE_OK(store->DeleteThread("u"));
  }
  CHECK(Unwrap(store->ListThreads({})).threads.empty());
}

}  // namespace
}  // namespace rockpoint::testing
