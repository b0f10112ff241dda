// A torn tail of a JSONL store's journal (bytes after the last commit line:
// part of a line, a group without its commit line, a group cut anywhere) is
// ignored and reported; a read-write open cuts it, reports the cut and
// appends after it, a read-only open leaves the file as it is.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

// The offset just past the `n`th '\n' of `bytes` (n >= 1).
size_t AfterLine(const std::string& bytes, size_t n) {
  size_t pos = 0;
  for (size_t i = 0; i < n; ++i) {
    pos = bytes.find('\n', pos);
    REQUIRE(pos != std::string::npos);
    ++pos;
  }
  return pos;
}

void CheckRefusedReadOnly(const Status& status) {
  CAPTURE(status.ToString());
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find("store opened read-only") != std::string::npos);
}

// A read-only open of base + tail: the tail is reported, the committed
// content is all there and the torn put's is not, writes are refused, and
// the file is not changed.
void CheckTornTailReadOnly(const std::string& path, const TornFixture& fixture,
                           const std::string& tail) {
  WriteBytes(path, fixture.base + tail);
  {
    auto store = MustOpen(Options(path, /*read_only=*/true));
    CHECK(StatsOf(*store).torn_tail_bytes == tail.size());
    CHECK(StatsOf(*store).torn_tail_bytes_cut == 0);
    CHECK(Observe(*store, {"t"}) == fixture.committed);
    CHECK_FALSE(Get(*store, Cfg("t", CpId(4))).has_value());
    CheckRefusedReadOnly(store->DeleteThread("t"));
    CHECK(store->Compact().IsInvalidArgument());
    RP_REQUIRE_OK(store->Close());
  }
  CHECK(ReadBytes(path) == fixture.base + tail);
}

// A read-write open of base + tail: the tail is reported and cut off at
// open, the committed content is all there and the torn put's is not; the
// same put then appends and survives a reopen.
void CheckTornTailReadWrite(const std::string& path, const TornFixture& fixture,
                            const std::string& tail) {
  WriteBytes(path, fixture.base + tail);
  {
    auto store = MustOpen(Options(path));
    CHECK(StatsOf(*store).torn_tail_bytes == tail.size());
    CHECK(StatsOf(*store).torn_tail_bytes_cut == tail.size());
    CHECK(fs::file_size(path) == fixture.base.size());
    CHECK(ReadBytes(path) == fixture.base);
    CHECK(StatsOf(*store).file_bytes == fixture.base.size());
    CHECK(Observe(*store, {"t"}) == fixture.committed);
    CHECK_FALSE(Get(*store, Cfg("t", CpId(4))).has_value());
    PutTornStep(*store);
    RP_REQUIRE_OK(store->Close());
  }
  CHECK(ReadBytes(path).starts_with(fixture.base));
  auto store = MustOpen(Options(path));
  CHECK(StatsOf(*store).torn_tail_bytes == 0);
  CHECK(StatsOf(*store).torn_tail_bytes_cut == 0);
  CheckpointTuple latest = MustGet(*store, Cfg("t"));
  CHECK(latest.config.checkpoint_id == CpId(4));
  CHECK(ValuesOf(latest.checkpoint) ==
        "msgs=\"torn msgs\" plain=\"torn plain\"");
  CHECK(Unwrap(store->ListAll(ListOf(Cfg("t")))).size() == 5);
}

void CheckTornTail(const std::string& path, const TornFixture& fixture,
                   const std::string& tail) {
  CheckTornTailReadOnly(path, fixture, tail);
  CheckTornTailReadWrite(path, fixture, tail);
}

TEST_CASE("jsonl journal: a torn tail is ignored, reported and cut") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const TornFixture fixture = MakeTornFixture(path);
  const std::string& group = fixture.group;

  SUBCASE("part of a line") {
    CheckTornTail(path, fixture, group.substr(0, AfterLine(group, 1) / 2));
  }
  SUBCASE("a whole group without its commit line") {
    const size_t commit_line = group.size() - (kCommitLine.size() + 1);
    REQUIRE(group.substr(commit_line) == std::string(kCommitLine) + "\n");
    CheckTornTail(path, fixture, group.substr(0, commit_line));
  }
  SUBCASE("the last group cut in the middle of a later line") {
    const size_t second = AfterLine(group, 1);
    const size_t third = AfterLine(group, 2);
    CheckTornTail(path, fixture, group.substr(0, (second + third) / 2));
  }
  SUBCASE("the commit line without its newline") {
    CheckTornTail(path, fixture, group.substr(0, group.size() - 1));
  }
  SUBCASE("whole lines of the group, the last one cut") {
    CheckTornTail(path, fixture, group.substr(0, AfterLine(group, 2) + 5));
  }
  SUBCASE("every cut of the group, read-only") {
    // One message for all cuts: what each wrongly read, first ones first.
    std::vector<std::string> wrong;
    for (size_t cut = 1; cut < group.size(); ++cut) {
      CAPTURE(cut);
      WriteBytes(path, fixture.base + group.substr(0, cut));
      auto store = MustOpen(Options(path, /*read_only=*/true));
      const uint64_t torn = StatsOf(*store).torn_tail_bytes;
      const std::string latest =
          MustGet(*store, Cfg("t")).config.checkpoint_id.value_or("");
      if (torn != cut || latest != CpId(3)) {
        wrong.push_back("cut " + std::to_string(cut) + ": torn " +
                        std::to_string(torn) + ", latest " + latest);
      }
    }
    std::string first;
    for (size_t i = 0; i < wrong.size() && i < 5; ++i) first += wrong[i] + "\n";
    CHECK_MESSAGE(wrong.empty(), wrong.size() << " of " << group.size() - 1
                                              << " cuts read wrongly:\n"
                                              << first);
  }
  SUBCASE("a whole group is no torn tail") {
    WriteBytes(path, fixture.base + group);
    auto store = MustOpen(Options(path));
    CHECK(StatsOf(*store).torn_tail_bytes == 0);
    CHECK(MustGet(*store, Cfg("t")).config.checkpoint_id == CpId(4));
    CHECK(fs::file_size(path) == fixture.base.size() + group.size());
  }
}

}  // namespace
}  // namespace rockpoint
