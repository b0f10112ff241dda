// RocksDbCheckpointer as a store on disk: read-only mode beside a writer,
// prefix-neighbour ids across flushes and compaction, and regressions found in
// RocksDB itself. Format versions: rocksdb_format_version_test.cpp; damaged
// stores: rocksdb_damage_test.cpp.
#include <doctest/doctest.h>

#include <set>

#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

// A read-only open reads, refuses every write of the Checkpointer
// interface and changes nothing: contract_read_only.h.
TEST_CASE("rocksdb layout: read-only mode beside a writer, and Compact") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"a", Val("1")}},
                   .versions = {{"a", int64_t{1}}}});
  }
  auto writer = OpenAt(path);  // read-only opens take no lock
  auto reader = OpenAt(path, /*read_only=*/true);
  CHECK(MustGet(*reader, Cfg("t")).config.checkpoint_id == CpId(1));
  const Status compact = reader->Compact();
  INFO(compact.ToString());
  CHECK(compact.IsInvalidArgument());
  CHECK(compact.message().find("store opened read-only") != std::string::npos);
  reader.reset();
  CHECK(Collect(*writer, ListOf(std::nullopt)).size() == 1);
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
