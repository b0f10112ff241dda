// Compact and auto-compaction of a JSONL store shrink the journal and
// change nothing a reader sees; a leftover PATH.compact from a crash is
// ignored.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

const std::vector<std::string> kCompactThreads = {"d", "ref", "gone", "runs"};

// A store with dead lines: deleted threads, runs and pruned checkpoints
// (some hidden, kept for the survivors' delta histories).
void FillWithDeadLines(Checkpointer& store) {
  PutDeltaThread(store, "d");
  PutDeltaThread(store, "d", "n:1", 7, 3);
  PutDeltaThread(store, "ref");
  PutDeltaThread(store, "gone", "", 6);
  PutDeltaThread(store, "runs");
  RP_REQUIRE_OK(store.DeleteThread("gone"));
  RP_REQUIRE_OK(store.DeleteForRuns({"runs/run-0", "runs/run-1"}));
  RP_REQUIRE_OK(store.Prune({"d"}, PruneStrategy::kKeepLatest, 2));
}

TEST_CASE("jsonl journal: Compact shrinks the journal and changes nothing") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  auto store = MustOpen(Options(path));
  FillWithDeadLines(*store);
  const JsonlStats before = StatsOf(*store);
  CHECK(before.compactions == 0);  // auto_compact_min_lines 0: never alone.
  CHECK(before.lines == SplitLines(ReadBytes(path)).size());
  REQUIRE(before.live_lines < before.lines);
  const Content content = Observe(*store, kCompactThreads);
  const Readings d_readings = ReadThread(*store, "d");
  // The fixture has hidden checkpoints and delta reads through them.
  size_t hidden = 0;
  for (const CheckpointTuple& tuple : content.tuples.at("d")) {
    hidden += tuple.hidden ? 1 : 0;
  }
  CHECK(hidden > 0);
  CHECK(content.tuples.at("gone").empty());

  RP_REQUIRE_OK(store->Compact());
  const JsonlStats after = StatsOf(*store);
  CHECK(after.compactions == 1);
  CHECK(after.lines == before.live_lines);
  CHECK(after.live_lines == after.lines);
  CHECK(after.file_bytes < before.file_bytes);
  const std::string bytes = ReadBytes(path);
  CHECK(after.file_bytes == bytes.size());
  CHECK(after.lines == SplitLines(bytes).size());
  CHECK(SplitLines(bytes).front() == kHeaderLine);
  CHECK(bytes.find("\"gone\"") == std::string::npos);
  CHECK_FALSE(fs::exists(path + ".compact"));
  CHECK(Observe(*store, kCompactThreads) == content);

  RP_REQUIRE_OK(store->Close());
  store = MustOpen(Options(path));
  CHECK(StatsOf(*store).torn_tail_bytes == 0);
  CHECK(StatsOf(*store).lines == after.lines);
  CHECK(Observe(*store, kCompactThreads) == content);
  const Readings d_after = ReadThread(*store, "d");
  CHECK(d_after.size() == d_readings.size());
  CheckSameReadings(d_readings, d_after, "d");

  // Appends after a compaction land in the new journal.
  DoPut(*store, {.thread = "ref", .id = CpId(12), .parent = CpId(11)});
  RP_REQUIRE_OK(store->Close());
  store = MustOpen(Options(path));
  CHECK(StatsOf(*store).lines > after.lines);
  CHECK(MustGet(*store, Cfg("ref")).config.checkpoint_id == CpId(12));
}

TEST_CASE("jsonl journal: a call that leaves more dead lines compacts") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  JsonlOptions options = Options(path);
  options.auto_compact_min_lines = 20;
  auto store = MustOpen(options);
  PutDeltaThread(*store, "keep", "", 2);
  PutDeltaThread(*store, "x");
  const JsonlStats before = StatsOf(*store);
  Content kept = Observe(*store, {"keep"});
  // What deleting "x" leaves: the index without it.
  std::erase_if(kept.thread_index,
                [](const ThreadInfo& info) { return info.thread_id == "x"; });
  REQUIRE(kept.thread_index.size() == 1);

  RP_REQUIRE_OK(store->DeleteThread("x"));
  const JsonlStats after = StatsOf(*store);
  CHECK(after.compactions > before.compactions);
  CHECK(after.lines == after.live_lines);
  CHECK(after.lines < before.lines);
  CHECK(after.file_bytes == fs::file_size(path));
  CHECK(Observe(*store, {"keep"}) == kept);
  RP_REQUIRE_OK(store->Close());
  store = MustOpen(options);
  CHECK(Observe(*store, {"keep"}) == kept);
  CHECK_FALSE(Get(*store, Cfg("x")).has_value());
}

// jsonl_checkpointer.h: a call that leaves more dead lines than live ones in
// a journal of at least auto_compact_min_lines lines compacts it. Checked
// after every call of a workload that makes dead lines in each way it can:
// deletes, prunes, hides, a put of an id again, writes of a task again.
// Regression: a put of an existing id and writes of a task again counted
// their lines as live, so those workloads never compacted.
TEST_CASE("jsonl journal: no call leaves more dead lines than live ones") {
  TempDir dir;
  JsonlOptions options = Options(dir.Sub("store.jsonl"));
  options.auto_compact_min_lines = 16;
  auto store = MustOpen(options);
  std::vector<std::string> broken;
  auto check = [&](const std::string& call) {
    const JsonlStats stats = StatsOf(*store);
    if (stats.lines >= options.auto_compact_min_lines &&
        stats.lines - stats.live_lines > stats.live_lines) {
      broken.push_back(call + ": " + std::to_string(stats.lines) + " lines, " +
                       std::to_string(stats.live_lines) + " live");
    }
  };
  for (int round = 0; round < 4; ++round) {
    const std::string r = std::to_string(round);
    PutDeltaThread(*store, "t" + r, "", 6, 3);
    check("PutDeltaThread t" + r);
    for (int again = 0; again < 20; ++again) {
      DoPut(*store, {.thread = "t" + r,
                     .id = CpId(5),
                     .parent = CpId(4),
                     .values = {{"plain", Val("\"again\"")}},
                     .versions = {{"plain", int64_t{100 + again}}}});
      check("put again " + std::to_string(again));
      DoWrites(*store, "t" + r, CpId(5), {W("msgs", "same")}, "task5");
      check("writes again " + std::to_string(again));
    }
    RP_REQUIRE_OK(store->HideCheckpoint(Cfg("t" + r, CpId(1))));
    check("hide");
    RP_REQUIRE_OK(store->Prune({"t" + r}, PruneStrategy::kKeepLatest, 2));
    check("prune");
    if (round % 2 == 1) {
      RP_REQUIRE_OK(store->DeleteThread("t" + r));
      check("delete");
    }
  }
  CHECK(StatsOf(*store).compactions > 0);
  std::string first;
  for (size_t i = 0; i < broken.size() && i < 5; ++i) first += broken[i] + "\n";
  CHECK_MESSAGE(broken.empty(), broken.size() << " calls left more dead "
                                                 "lines than live ones:\n"
                                              << first);
}

TEST_CASE("jsonl journal: a leftover PATH.compact is ignored") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const std::string leftover = path + ".compact";
  Content content;
  {
    auto store = MustOpen(Options(path));
    PutDeltaThread(*store, "t", "", 3);
    content = Observe(*store, {"t", "other"});
    RP_REQUIRE_OK(store->Close());
  }
  // A compaction that crashed before its rename: a partial snapshot of some
  // other content, with a whole group in it.
  const std::string journal = ReadBytes(path);
  {
    TempDir other_dir;
    auto other = MustOpen(Options(other_dir.Sub("x.jsonl")));
    PutDeltaThread(*other, "other", "", 2);
    RP_REQUIRE_OK(other->Close());
    const std::string other_bytes = ReadBytes(other_dir.Sub("x.jsonl"));
    WriteBytes(leftover, other_bytes.substr(0, other_bytes.size() - 7));
  }

  SUBCASE("by a read-only open, which leaves it") {
    auto store = MustOpen(Options(path, /*read_only=*/true));
    CHECK(Observe(*store, {"t", "other"}) == content);
    CHECK(ReadBytes(path) == journal);
    CHECK(fs::exists(leftover));
  }
  SUBCASE("by a read-write open, which removes it") {
    auto store = MustOpen(Options(path));
    CHECK(Observe(*store, {"t", "other"}) == content);
    CHECK(StatsOf(*store).torn_tail_bytes == 0);
    CHECK(ReadBytes(path) == journal);
    CHECK_FALSE(fs::exists(leftover));
    RP_REQUIRE_OK(store->Compact());
    CHECK_FALSE(fs::exists(leftover));
    RP_REQUIRE_OK(store->Close());
    store = MustOpen(Options(path));
    CHECK(Observe(*store, {"t", "other"}) == content);
  }
}

}  // namespace
}  // namespace rockpoint
