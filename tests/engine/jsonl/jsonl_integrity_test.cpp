// Line checksums of a version 3 journal (engine/jsonl/FORMAT.md, "Line
// checksums"): a changed byte anywhere in a journal, in any kind of line,
// its checksum member and its '\n' included, is Corruption naming the line
// (the header's first bytes: not a journal), never a different read; a
// damaged last commit line is Corruption too, not a torn tail, and a
// read-write open then changes nothing. Version 1 journals still open.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"
#include "engine/jsonl/line_checksum.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers

const std::vector<std::string> kIntegrityThreads = {"a", "b", "b2", "c"};

// A journal holding every kind of line: values (with and without a value),
// checkpoints, writes, a line of each maintenance call, commits.
void MakeEveryLineKind(const std::string& path) {
  auto store = MustOpen(Options(path));
  PutDeltaThread(*store, "a", "", 6, 2);
  PutDeltaThread(*store, "b", "", 4, 2);
  PutDeltaThread(*store, "c", "", 3, 2);
  RP_REQUIRE_OK(store->HideCheckpoint(Cfg("a", CpId(1))));
  RP_REQUIRE_OK(store->CopyThread("b", "b2"));
  RP_REQUIRE_OK(store->DeleteForRuns({"a/run-1"}));
  RP_REQUIRE_OK(store->Prune({"b2"}, PruneStrategy::kKeepLatest, 1));
  ExpiryRule rule;
  rule.keep_last = 2;
  REQUIRE(Unwrap(store->Expire({"b"}, rule)).checkpoints_expired > 0);
  RP_REQUIRE_OK(store->DeleteThread("c"));
  RP_REQUIRE_OK(store->Close());
}

// What opening a journal with one byte changed gave.
struct Tally {
  int corruption = 0;              // Corruption naming a line.
  int refused = 0;                 // another error (the header: not a journal).
  int identical = 0;               // opened, every read as before.
  int different = 0;               // opened, some read differs: the defect.
  std::vector<std::string> wrong;  // the first few non-Corruption outcomes.
};

// Opens `bytes` (read-only) at `path` and tallies the outcome against
// `expected`.
void OpenAndTally(const std::string& path, const std::string& bytes,
                  const Content& expected, const std::string& what,
                  Tally& tally) {
  WriteBytes(path, bytes);
  auto opened = JsonlCheckpointer::Open(Options(path, /*read_only=*/true));
  std::string outcome;
  if (opened.ok()) {
    const bool same = Observe(**opened, kIntegrityThreads) == expected;
    (same ? tally.identical : tally.different)++;
    outcome = same ? "opened, identical reads" : "opened, different reads";
  } else if (opened.status().IsCorruption() &&
             opened.status().message().find(": line ") != std::string::npos) {
    ++tally.corruption;
    return;
  } else {
    ++tally.refused;
    outcome = opened.status().ToString();
  }
  if (tally.wrong.size() < 5) tally.wrong.push_back(what + ": " + outcome);
}

// The bytes [begin, end) of a line of a journal, its '\n' included.
struct Span {
  size_t begin = 0;
  size_t end = 0;
};

// The span of line `number` (1-based) of `journal`.
Span LineSpan(const std::string& journal, size_t number) {
  Span span;
  for (size_t i = 1; i < number; ++i) {
    span.begin = journal.find('\n', span.begin) + 1;
  }
  span.end = journal.find('\n', span.begin) + 1;
  return span;
}

// The number of the first line that starts with `prefix` and contains
// `holding`; the last such line if `last`.
size_t FindLineNumber(const std::string& journal, const std::string& prefix,
                      const std::string& holding = "", bool last = false) {
  const std::vector<std::string> lines = SplitLines(journal);
  size_t found = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with(prefix) &&
        lines[i].find(holding) != std::string::npos) {
      found = i + 1;
      if (!last) break;
    }
  }
  REQUIRE_MESSAGE(found > 0, "no line " << prefix << " holding " << holding);
  return found;
}

// Three changes of each byte: its low bit, its high bit, and a '\n'.
std::vector<char> ChangesOf(char byte) {
  std::vector<char> changes = {static_cast<char>(byte ^ 0x01),
                               static_cast<char>(byte ^ 0x80)};
  if (byte != '\n') changes.push_back('\n');
  return changes;
}

// Changes every byte of line `number` of the journal at `path` (each of
// ChangesOf) and requires each to be Corruption naming a line (or, where
// `header_may_refuse`, any refusal to open).
void CheckEveryChangeOfLine(const std::string& path, size_t number,
                            bool header_may_refuse = false) {
  const std::string journal = ReadBytes(path);
  Content expected;
  {
    auto store = MustOpen(Options(path, /*read_only=*/true));
    expected = Observe(*store, kIntegrityThreads);
  }
  const Span span = LineSpan(journal, number);
  CAPTURE(journal.substr(span.begin, span.end - span.begin));
  Tally tally;
  int changes = 0;
  for (size_t at = span.begin; at < span.end; ++at) {
    for (const char changed : ChangesOf(journal[at])) {
      std::string bytes = journal;
      bytes[at] = changed;
      ++changes;
      OpenAndTally(path, bytes, expected,
                   "byte " + std::to_string(at - span.begin) + " of line " +
                       std::to_string(number),
                   tally);
    }
  }
  std::string first;
  for (const std::string& wrong : tally.wrong) first += wrong + "\n";
  const int opened = tally.identical + tally.different;
  CHECK_MESSAGE(opened == 0, opened << " of " << changes << " changes opened:\n"
                                    << first);
  if (!header_may_refuse) {
    CHECK_MESSAGE(tally.refused == 0, tally.refused << " of " << changes
                                                    << " changes were not "
                                                       "Corruption:\n"
                                                    << first);
  }
  CHECK(tally.corruption + tally.refused == changes);
}

struct KindFixture {
  TempDir dir;
  std::string path = dir.Sub("store.jsonl");
  std::string journal;
  KindFixture() {
    MakeEveryLineKind(path);
    journal = ReadBytes(path);
  }
  void CheckKind(const std::string& kind, const std::string& holding = "",
                 bool last = false) {
    CheckEveryChangeOfLine(
        path,
        FindLineNumber(journal, R"({"kind":")" + kind + "\"", holding, last));
  }
};

TEST_CASE("jsonl integrity: every changed byte of the header is refused") {
  KindFixture f;
  REQUIRE(SplitLines(f.journal)[0] == kHeaderLine);
  // Its first bytes make it no journal at all (InvalidArgument); the rest,
  // its version and checksum among them, are Corruption of line 1.
  CheckEveryChangeOfLine(f.path, 1, /*header_may_refuse=*/true);
}

TEST_CASE("jsonl integrity: every changed byte of a value line") {
  KindFixture f;
  f.CheckKind("value", R"("type")");
}

TEST_CASE("jsonl integrity: every changed byte of an empty marker") {
  KindFixture f;
  f.CheckKind("value", R"("empty":true)");
}

TEST_CASE("jsonl integrity: every changed byte of a checkpoint line") {
  KindFixture f;
  f.CheckKind("checkpoint");
}

TEST_CASE("jsonl integrity: every changed byte of a write line") {
  KindFixture f;
  f.CheckKind("write");
}

TEST_CASE("jsonl integrity: every changed byte of a hide line") {
  KindFixture f;
  f.CheckKind("hide");
}

TEST_CASE("jsonl integrity: every changed byte of a copy_thread line") {
  KindFixture f;
  f.CheckKind("copy_thread");
}

TEST_CASE("jsonl integrity: every changed byte of a delete_runs line") {
  KindFixture f;
  f.CheckKind("delete_runs");
}

TEST_CASE("jsonl integrity: every changed byte of a prune line") {
  KindFixture f;
  f.CheckKind("prune");
}

TEST_CASE("jsonl integrity: every changed byte of an expire line") {
  KindFixture f;
  f.CheckKind("expire");
}

TEST_CASE("jsonl integrity: every changed byte of a delete_thread line") {
  KindFixture f;
  f.CheckKind("delete_thread");
}

TEST_CASE("jsonl integrity: every changed byte of a commit line") {
  KindFixture f;
  f.CheckKind("commit");  // the first one.
}

TEST_CASE("jsonl integrity: every changed byte of the last commit line") {
  KindFixture f;
  const size_t last = SplitLines(f.journal).size();
  REQUIRE(SplitLines(f.journal)[last - 1] == kCommitLine);
  CheckEveryChangeOfLine(f.path, last);
}

TEST_CASE(
    "jsonl integrity: a damaged last commit line is Corruption and a "
    "read-write open changes nothing") {
  KindFixture f;
  const size_t last = SplitLines(f.journal).size();
  const Span span = LineSpan(f.journal, last);
  for (const size_t at : {span.begin + 3, span.end - 3, span.end - 1}) {
    CAPTURE(at - span.begin);
    std::string bytes = f.journal;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
    WriteBytes(f.path, bytes);
    auto opened = JsonlCheckpointer::Open(Options(f.path));
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.status().IsCorruption());
    CHECK(opened.status().message().find("line " + std::to_string(last)) !=
          std::string::npos);
    CHECK(ReadBytes(f.path) == bytes);
  }
}

TEST_CASE("jsonl integrity: a whole line after the last commit is checked") {
  KindFixture f;
  const std::string garbage = "garbage\n";
  WriteBytes(f.path, f.journal + garbage);
  auto opened = JsonlCheckpointer::Open(Options(f.path));
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().IsCorruption());
  CHECK(ReadBytes(f.path) == f.journal + garbage);
}

// `journal` (version 3) as version 1 wrote it: its header's, without the
// checksum members.
std::string AsVersion1(const std::string& journal) {
  std::vector<std::string> lines = SplitLines(journal);
  lines[0] = std::string(kHeaderLineV1);
  for (size_t i = 1; i < lines.size(); ++i) {
    lines[i] = Unwrap(jsonl::OpenCheckedLine(lines[i]));
  }
  return JoinLines(lines);
}

// Changes every byte of `journal` once (its low bit) and tallies.
Tally ChangeEveryByte(const std::string& path, const std::string& journal) {
  WriteBytes(path, journal);
  Content expected;
  {
    auto store = MustOpen(Options(path, /*read_only=*/true));
    expected = Observe(*store, kIntegrityThreads);
  }
  Tally tally;
  for (size_t at = 0; at < journal.size(); ++at) {
    std::string bytes = journal;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
    OpenAndTally(path, bytes, expected, "byte " + std::to_string(at), tally);
  }
  return tally;
}

std::string Figures(const Tally& tally, size_t bytes) {
  return std::to_string(bytes) +
         " bytes changed: " + std::to_string(tally.corruption) +
         " Corruption, " + std::to_string(tally.refused) + " other refusals, " +
         std::to_string(tally.identical) + " identical reads, " +
         std::to_string(tally.different) + " different reads";
}

// The campaign of issue #31: every byte of a journal changed once. Its
// figures are printed for both versions; version 3 must read nothing
// different, and opens nothing changed.
TEST_CASE("jsonl integrity: changing every byte of a journal, v3 and v1") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  MakeEveryLineKind(path);
  const std::string journal = ReadBytes(path);
  const Tally v3 = ChangeEveryByte(path, journal);
  MESSAGE("version 3: " << Figures(v3, journal.size()));
  CHECK(v3.different == 0);
  CHECK(v3.identical == 0);
  const std::string v1 = AsVersion1(journal);
  const Tally old = ChangeEveryByte(path, v1);
  MESSAGE("version 1: " << Figures(old, v1.size()));
}

TEST_CASE("jsonl integrity: CRC-32C of the check string") {
  CHECK(jsonl::Crc32c("123456789") == 0xE3069283u);
  CHECK(jsonl::Crc32c("") == 0u);
}

// FORMAT.md's version 1 example up to its delete: a put and a write.
const std::string kVersion1Journal = JoinLines({
    R"({"kind":"header","format":"rockpoint-journal","version":1})",
    R"({"kind":"value","thread":"t1","ns":"","channel":"messages","version":1,"type":"msgpack","msgpack":["hi"]})",
    R"({"kind":"checkpoint","thread":"t1","ns":"","id":"cp-01","parent":null,"v":4,"ts":"2026-01-01T00:00:01Z","channel_versions":[["messages",1]],"versions_seen":[],"stored":["messages"],"metadata":{"source":"input","step":-1}})",
    R"({"kind":"commit"})",
    R"({"kind":"write","thread":"t1","ns":"","checkpoint":"cp-01","task_path":"","task_id":"task-1","idx":0,"channel":"messages","type":"json","text":"[\"ho\"]"})",
    R"({"kind":"commit"})",
});

void CheckVersion1Content(JsonlCheckpointer& store) {
  const CheckpointTuple tuple = MustGet(store, Cfg("t1", "cp-01"));
  CHECK(tuple.checkpoint.channel_values.size() == 1);
  REQUIRE(tuple.pending_writes.size() == 1);
  CHECK(tuple.pending_writes[0].task_id == "task-1");
}

TEST_CASE(
    "jsonl integrity: a version 1 journal opens, is appended to in version "
    "1 and compacts to version 3") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  WriteBytes(path, kVersion1Journal);
  {
    auto store = MustOpen(Options(path, /*read_only=*/true));
    CHECK(StatsOf(*store).format_version == 1);
    CheckVersion1Content(*store);
  }
  {
    auto store = MustOpen(Options(path));
    RP_REQUIRE_OK(store->CopyThread("t1", "t2"));
  }
  // Appended in the journal's own version, so older builds still read it.
  CHECK(ReadBytes(path) ==
        kVersion1Journal +
            JoinLines({R"({"kind":"copy_thread","source":"t1","target":"t2"})",
                       std::string(kCommitLineV1)}));
  {
    auto store = MustOpen(Options(path));
    RP_REQUIRE_OK(store->Compact());
    CHECK(StatsOf(*store).format_version == 3);
    RP_REQUIRE_OK(store->DeleteThread("t2"));
  }
  const std::vector<std::string> lines = SplitLines(ReadBytes(path));
  CHECK(lines.front() == kHeaderLine);
  CHECK(lines.back() == kCommitLine);
  for (const std::string& line : lines) CHECK(jsonl::HasLineChecksum(line));
  auto store = MustOpen(Options(path));
  CHECK(StatsOf(*store).format_version == 3);
  CheckVersion1Content(*store);
  CHECK_FALSE(Get(*store, Cfg("t2", "cp-01")).has_value());
}

TEST_CASE(
    "jsonl integrity: a version 1 journal whose last commit line is "
    "damaged is Corruption") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const size_t size = kVersion1Journal.size();
  // "commit" -> "commiu" in the last line; then its '\n' changed.
  for (const size_t at : {size - 4, size - 1}) {
    CAPTURE(at);
    std::string bytes = kVersion1Journal;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
    WriteBytes(path, bytes);
    auto opened = JsonlCheckpointer::Open(Options(path));
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.status().IsCorruption());
    CHECK(ReadBytes(path) == bytes);
  }
}

}  // namespace
}  // namespace rockpoint
