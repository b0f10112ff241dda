// The journal file of JsonlCheckpointer, read behind its back: plain JSON
// lines a person can read and grep, and one read-write opener at a time
// (Busy), released by Close and by destruction.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

TEST_CASE("jsonl journal: plain JSON lines a person can read") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  {
    auto store = MustOpen(Options(path));
    DoPut(*store, {.thread = "readable-thread",
                   .id = CpId(1),
                   .values = {{"msgs", Val("\"hi\"")}},
                   .versions = {{"msgs", int64_t{1}}},
                   .metadata = Meta({{"source", Value("input")},
                                     {"note", Value("hello from a person")}})});
    DoWrites(*store, "readable-thread", CpId(1), {W("msgs", "\"more\"")},
             "task-1");
    const JsonlStats stats = StatsOf(*store);
    RP_REQUIRE_OK(store->Close());
    const std::string bytes = ReadBytes(path);
    CHECK(stats.file_bytes == bytes.size());
    CHECK(stats.lines == SplitLines(bytes).size());
  }
  const std::string bytes = ReadBytes(path);
  CHECK(bytes.find("hello from a person") != std::string::npos);
  CHECK(bytes.find("\"readable-thread\"") != std::string::npos);
  REQUIRE(bytes.ends_with('\n'));
  const std::vector<std::string> lines = SplitLines(bytes);
  REQUIRE(lines.size() >= 5);  // header, value, checkpoint, commit, write...
  CHECK(lines.front() == kHeaderLine);
  CHECK(lines.back() == kCommitLine);
  size_t commits = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    CAPTURE(i + 1);
    CAPTURE(lines[i]);
    const nlohmann::json line =
        nlohmann::json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    REQUIRE_FALSE(line.is_discarded());
    CHECK(line.is_object());
    CHECK(line.contains("kind"));
    if (lines[i] == kCommitLine) ++commits;
  }
  CHECK(commits == 2);  // one per call.
}

TEST_CASE("jsonl journal: one read-write opener at a time") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  auto first = MustOpen(Options(path));
  DoPut(*first, {.thread = "t", .id = CpId(1)});

  auto second = JsonlCheckpointer::Open(Options(path));
  CAPTURE(second.status().ToString());
  CHECK(second.status().IsBusy());
  // A reader takes no lock and sees what was committed.
  auto reader = MustOpen(Options(path, /*read_only=*/true));
  CHECK(MustGet(*reader, Cfg("t")).config.checkpoint_id == CpId(1));

  // The lock moves with a compaction to the journal that replaces the file.
  RP_REQUIRE_OK(first->Compact());
  CHECK(JsonlCheckpointer::Open(Options(path)).status().IsBusy());
  // A reader sees the journal as it was when it opened.
  DoPut(*first, {.thread = "t", .id = CpId(2), .parent = CpId(1)});
  CHECK(MustGet(*reader, Cfg("t")).config.checkpoint_id == CpId(1));

  RP_REQUIRE_OK(first->Close());
  auto after_close = MustOpen(Options(path));
  CHECK(MustGet(*after_close, Cfg("t")).config.checkpoint_id == CpId(2));
  CHECK(JsonlCheckpointer::Open(Options(path)).status().IsBusy());
  after_close.reset();  // destruction without Close releases the lock too.
  auto after_destruction = MustOpen(Options(path));
  CHECK(MustGet(*after_destruction, Cfg("t")).config.checkpoint_id == CpId(2));
}

}  // namespace
}  // namespace rockpoint
