// WriteCounters through StoreStats: the user bytes of the store's writes and
// the bytes its compactions wrote, both counted since Open.
#include <doctest/doctest.h>

#include <string>

#include "engine/rocksdb/layout_test_util.h"

namespace rockpoint::testing {
namespace {

using layout_test::OpenAt;

StoreStats StatsOf(RocksDbCheckpointer& store) { return Unwrap(store.Stats()); }

TEST_CASE("write counters: every write adds at least its value's bytes") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  CHECK(StatsOf(*store).bytes_written == 0);
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val(std::string(5000, 'a'))}},
                 .versions = {{"a", int64_t{1}}}});
  const uint64_t after_put = StatsOf(*store).bytes_written;
  CHECK(after_put > 5000);
  DoWrites(*store, "t", CpId(1), {W("a", std::string(3000, 'w'))}, "task");
  const uint64_t after_writes = StatsOf(*store).bytes_written;
  CHECK(after_writes > after_put + 3000);
  // A refused call (no thread id) writes nothing and counts nothing.
  Checkpoint checkpoint;
  checkpoint.id = CpId(2);
  CHECK(store->Put(CheckpointConfig{}, checkpoint, Value::MakeMap(), {})
            .status()
            .code() == StatusCode::kInvalidArgument);
  CHECK(StatsOf(*store).bytes_written == after_writes);
  CHECK(StatsOf(*store).compaction_bytes_written == 0);
}

TEST_CASE("write counters: compactions count, and a reopen starts at zero") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    for (int i = 1; i <= 3; ++i) {
      DoPut(*store, {.thread = "t",
                     .id = CpId(i),
                     .values = {{"a", Val(std::string(2000, 'a' + i))}},
                     .versions = {{"a", int64_t{i}}}});
    }
    // Compact() flushes the memtables, then rewrites the flushed tables.
    RP_REQUIRE_OK(store->Compact());
    const StoreStats stats = StatsOf(*store);
    CHECK(stats.compaction_bytes_written > 0);
    CHECK(stats.bytes_written > 6000);
  }
  auto reopened = OpenAt(path);
  const StoreStats stats = StatsOf(*reopened);
  CHECK(stats.bytes_written == 0);
  CHECK(stats.compaction_bytes_written == 0);
}

}  // namespace
}  // namespace rockpoint::testing
