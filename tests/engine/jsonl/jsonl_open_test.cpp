// What opening a JSONL store makes of files that are not clean journals: a
// broken line before the last commit is Corruption naming the line; an
// export, a newer version or other text is refused; the start of a header
// is an unfinished creation; a failed open leaves the file untouched.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"
#include "engine/jsonl/line_checksum.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

// Opening `bytes` read-write and read-only fails with `check`, and neither
// changes the file.
template <typename Check>
void CheckOpenFails(const std::string& path, const std::string& bytes,
                    Check check) {
  WriteBytes(path, bytes);
  for (const bool read_only : {false, true}) {
    CAPTURE(read_only);
    auto opened = JsonlCheckpointer::Open(Options(path, read_only));
    REQUIRE_FALSE(opened.ok());
    CAPTURE(opened.status().ToString());
    check(opened.status());
    CHECK(ReadBytes(path) == bytes);
    CHECK_FALSE(fs::exists(path + ".compact"));
  }
}

void CheckCorruptionAt(const std::string& path, const std::string& bytes,
                       size_t line) {
  CheckOpenFails(path, bytes, [line](const Status& status) {
    CHECK(status.IsCorruption());
    CHECK(status.message().find("line " + std::to_string(line)) !=
          std::string::npos);
  });
}

TEST_CASE("jsonl journal: a bad line before the last commit is Corruption") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const TornFixture fixture = MakeTornFixture(path);
  const std::string journal = fixture.base + fixture.group;
  const std::vector<std::string> lines = SplitLines(journal);
  REQUIRE(lines.size() > 10);
  REQUIRE(lines[1].ends_with('}'));

  SUBCASE("a byte flipped in the first data line") {
    std::string broken = lines[1];
    broken.back() = '~';
    CheckCorruptionAt(path, WithLine(journal, 2, broken), 2);
  }
  SUBCASE("a byte flipped in the last group, before its commit line") {
    const size_t number = lines.size() - 1;  // the last checkpoint line.
    std::string broken = lines[number - 1];
    REQUIRE(broken.starts_with("{\""));
    broken[1] = '\x01';
    CheckCorruptionAt(path, WithLine(journal, number, broken), number);
  }
  SUBCASE("a line that parses but does not apply") {
    // With its checksum: the line passes it, and fails to apply.
    std::string bogus = jsonl::WithLineChecksums("{\"kind\":\"bogus\"}\n");
    bogus.pop_back();
    CheckCorruptionAt(path, WithLine(journal, 2, bogus), 2);
  }
  SUBCASE("a commit line before any header") {
    CheckOpenFails(path, JoinLines({std::string(kCommitLine)}),
                   [](const Status& status) { CHECK_FALSE(status.ok()); });
  }
}

TEST_CASE("jsonl journal: an export file is not a journal") {
  TempDir dir;
  const std::string path = dir.Sub("export.jsonl");
  // tools/cli/FORMAT_JSONL.md's example.
  const std::string export_file = JoinLines({
      R"({"kind":"header","format":"rockpoint-export","version":1})",
      R"({"kind":"value","thread":"t1","ns":"","channel":"messages","version":1,"type":"msgpack","b64":"kaJoaQ=="})",
      R"({"kind":"checkpoint","thread":"t1","ns":"","id":"cp-01","parent":null,"v":4,"ts":"2026-01-01T00:00:01Z","channel_versions":[["messages",1]],"versions_seen":[],"metadata":{"source":"input","step":-1}})",
      R"({"kind":"write","thread":"t1","ns":"","checkpoint":"cp-01","task_path":"","task_id":"task-1","idx":0,"channel":"messages","type":"msgpack","b64":"kaNob3c="})",
      R"({"kind":"end","checkpoints":1,"values":1,"writes":1})",
  });
  CheckOpenFails(path, export_file, [](const Status& status) {
    CHECK(status.IsInvalidArgument());
  });
}

TEST_CASE("jsonl journal: a journal of a newer version is refused") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  CheckOpenFails(
      path,
      JoinLines(
          {R"({"kind":"header","format":"rockpoint-journal","version":4})",
           std::string(kCommitLine)}),
      [](const Status& status) { CHECK(status.IsInvalidArgument()); });
}

TEST_CASE("jsonl journal: a store without calls is its header line") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  RP_REQUIRE_OK(MustOpen(Options(path))->Close());
  CHECK(ReadBytes(path) == std::string(kHeaderLine) + "\n");
  for (const bool read_only : {true, false}) {
    CAPTURE(read_only);
    auto store = MustOpen(Options(path, read_only));
    const JsonlStats stats = StatsOf(*store);
    CHECK(stats.torn_tail_bytes == 0);
    CHECK(stats.lines == 1);
    CHECK(stats.file_bytes == kHeaderLine.size() + 1);
  }
  CHECK(ReadBytes(path) == std::string(kHeaderLine) + "\n");
}

// A crash while the journal was being created leaves it empty or with part
// of its header line: it holds nothing, and opens as a new store.
TEST_CASE("jsonl journal: a creation that did not finish opens empty") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  for (const size_t cut :
       {size_t{0}, size_t{1}, kHeaderLine.size() / 2, kHeaderLine.size()}) {
    CAPTURE(cut);
    WriteBytes(path, kHeaderLine.substr(0, cut));
    {
      auto store = MustOpen(Options(path));
      CHECK(Unwrap(store->ListThreads({})).threads.empty());
      DoPut(*store, {.thread = "t", .id = CpId(1)});
      RP_REQUIRE_OK(store->Close());
    }
    const std::vector<std::string> lines = SplitLines(ReadBytes(path));
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.front() == kHeaderLine);
    auto store = MustOpen(Options(path, /*read_only=*/true));
    CHECK(StatsOf(*store).torn_tail_bytes == 0);
    CHECK(MustGet(*store, Cfg("t")).config.checkpoint_id == CpId(1));
  }
}

// Only a prefix of the header line is an unfinished creation: a file of
// one line without '\n' that is something else is not a journal, and no open
// may overwrite it. Regression: a read-write open truncated any file
// without a '\n' and wrote a header over it.
TEST_CASE("jsonl journal: a one-line file that is not a journal is kept") {
  TempDir dir;
  const std::string path = dir.Sub("notes.jsonl");
  for (const std::string& bytes :
       {std::string(R"({"some":"json"})"), std::string("plain notes"),
        std::string(kHeaderLine) + "x"}) {
    CAPTURE(bytes);
    CheckOpenFails(path, bytes, [](const Status& status) {
      CHECK(status.IsInvalidArgument());
    });
  }
}

TEST_CASE("jsonl journal: create_if_missing false does not create") {
  TempDir dir;
  const std::string path = dir.Sub("missing.jsonl");
  JsonlOptions options = Options(path);
  options.create_if_missing = false;
  CHECK_FALSE(JsonlCheckpointer::Open(options).ok());
  CHECK_FALSE(fs::exists(path));
  CHECK_FALSE(JsonlCheckpointer::Open(Options(path, /*read_only=*/true)).ok());
  CHECK_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace rockpoint
