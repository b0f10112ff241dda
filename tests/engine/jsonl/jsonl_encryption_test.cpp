// Encryption at rest of a JSONL store (engine/jsonl/FORMAT.md, "Encrypted
// journals"): what the journal holds in the clear and sealed, the key from
// the environment, an empty journal opened with a key, the faults only a
// sealed line has (content members in the clear, the header's store id),
// reads, filters and copy_thread on an encrypted store, and Rekey. Keys
// refused at open and damaged sealed records: contract_encryption.h.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/jsonl/journal_test_util.h"
#include "engine/jsonl/line_checksum.h"
#include "formats/json_text.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing::journal;  // NOLINT: test helpers
using Json = nlohmann::ordered_json;

const std::string kKeyA(32, 'a');
const std::string kKeyB(32, 'b');
constexpr std::string_view kValueMarker = "VALUE-MARKER-7f3a";
constexpr std::string_view kMetaMarker = "META-MARKER-91c2";
constexpr std::string_view kWriteMarker = "WRITE-MARKER-5d0e";
constexpr std::string_view kEncryptedHeaderStart =
    R"({"kind":"header","format":"rockpoint-journal","version":3,)"
    R"("encryption":{"cipher":"aes-256-gcm","store_id":")";

JsonlOptions Encrypted(const std::string& path,
                       const std::optional<std::string>& key = kKeyA,
                       bool read_only = false) {
  JsonlOptions options = Options(path, read_only);
  if (key) options.encryption = EncryptionOptions{*key};
  return options;
}

// Two threads with delta chains, a namespace, markers in a value, in
// metadata and in a write, and a hidden checkpoint.
void Fill(Checkpointer& store) {
  PutDeltaThread(store, "t", "", 6, 2);
  PutDeltaThread(store, "u", "", 6, 3);
  PutDeltaThread(store, "u", "sub:1", 3, 2);
  DoPut(store,
        {.thread = "m",
         .id = CpId(0),
         .values = {{"msgs", Val("\"" + std::string(kValueMarker) + "\"")}},
         .versions = {{"msgs", int64_t{1}}},
         .metadata = Meta(
             {{"note", Value(std::string(kMetaMarker))}, {"step", Value(0)}})});
  DoWrites(store, "m", CpId(0), {W("msgs", std::string(kWriteMarker))},
           "task-m");
  RP_REQUIRE_OK(store.HideCheckpoint(Cfg("u", CpId(1))));
}

const std::vector<std::string> kThreads = {"t", "u", "m"};

// The journal at `path` after filling a new store with `options`, and what
// the store held.
Content MakeStore(const JsonlOptions& options) {
  auto store = MustOpen(options);
  Fill(*store);
  Content content = Observe(*store, kThreads);
  RP_REQUIRE_OK(store->Close());
  return content;
}

Content Reopened(const JsonlOptions& options) {
  auto store = MustOpen(options);
  Content content = Observe(*store, kThreads);
  RP_REQUIRE_OK(store->Close());
  return content;
}

bool HasMarker(const std::string& bytes) {
  for (std::string_view marker : {kValueMarker, kMetaMarker, kWriteMarker}) {
    if (bytes.find(marker) != std::string::npos) return true;
  }
  return false;
}

Json Parse(const std::string& line) {
  Json json = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  REQUIRE_MESSAGE(json.is_object(), line);
  return json;
}

// The 1-based number of the first line of `journal` of `kind` in `thread`
// (any thread if empty).
size_t FindLine(const std::string& journal, std::string_view kind,
                std::string_view thread = "") {
  const std::vector<std::string> lines = SplitLines(journal);
  for (size_t i = 1; i < lines.size(); ++i) {
    const Json json = Parse(lines[i]);
    if (json["kind"] == kind && (thread.empty() || json["thread"] == thread)) {
      return i + 1;
    }
  }
  FAIL("no " << kind << " line of thread " << thread);
  return 0;
}

// Line `number` of `journal` without its checksum member: the text a test
// edits, then writes back with WithCheckedLine.
std::string LineAt(const std::string& journal, size_t number) {
  return Unwrap(jsonl::OpenCheckedLine(SplitLines(journal).at(number - 1)));
}

// `journal` with line `number` replaced by `line` with its checksum, so
// that replay reads past the checksum to the sealed record.
std::string WithCheckedLine(const std::string& journal, size_t number,
                            const std::string& line) {
  std::string checked = jsonl::WithLineChecksums(line + "\n");
  checked.pop_back();
  return WithLine(journal, number, checked);
}

// Writing `bytes` to the journal, an open with the key (read-write and
// read-only) is Corruption naming line `line` and containing `names`; the
// file is left as it was.
void CheckCorrupt(const std::string& path, const std::string& bytes,
                  size_t line, std::string_view names) {
  WriteBytes(path, bytes);
  for (const bool read_only : {false, true}) {
    CAPTURE(read_only);
    auto opened = JsonlCheckpointer::Open(Encrypted(path, kKeyA, read_only));
    REQUIRE_FALSE(opened.ok());
    CAPTURE(opened.status().ToString());
    CHECK(opened.status().IsCorruption());
    CHECK(opened.status().message().find("line " + std::to_string(line)) !=
          std::string::npos);
    CHECK(opened.status().message().find(names) != std::string::npos);
    CHECK(ReadBytes(path) == bytes);
  }
}

void CheckInvalid(const JsonlOptions& options, std::string_view says) {
  const std::string before = ReadBytes(options.path);
  auto opened = JsonlCheckpointer::Open(options);
  REQUIRE_FALSE(opened.ok());
  CAPTURE(opened.status().ToString());
  CHECK(opened.status().IsInvalidArgument());
  CHECK(opened.status().message().find(says) != std::string::npos);
  CHECK(ReadBytes(options.path) == before);
}

TEST_CASE("jsonl encryption: the journal holds identifiers and sealed bytes") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const Content content = MakeStore(Encrypted(path));
  // Control: the same calls on a plaintext store write the markers.
  const std::string plain_path = dir.Sub("plain.jsonl");
  CHECK(MakeStore(Options(plain_path)) == content);
  CHECK(HasMarker(ReadBytes(plain_path)));

  const auto check_journal = [&](const std::string& journal) {
    CHECK_FALSE(HasMarker(journal));
    const std::vector<std::string> lines = SplitLines(journal);
    CHECK(lines[0].starts_with(kEncryptedHeaderStart));
    size_t sealed = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      CAPTURE(lines[i]);
      const Json json = Parse(LineAt(journal, i + 1));  // without "crc".
      const std::string kind = json["kind"];
      std::vector<std::string> members;
      for (const auto& [member, unused] : json.items()) {
        members.push_back(member);
      }
      if (kind == "value") {
        CHECK(members == std::vector<std::string>{"kind", "thread", "ns",
                                                  "channel", "version",
                                                  "sealed"});
      } else if (kind == "checkpoint") {
        CHECK(members == std::vector<std::string>{"kind", "thread", "ns", "id",
                                                  "parent", "sealed"});
      } else if (kind == "write") {
        CHECK(members == std::vector<std::string>{"kind", "thread", "ns",
                                                  "checkpoint", "task_path",
                                                  "task_id", "idx", "sealed"});
      } else {
        continue;
      }
      ++sealed;
    }
    CHECK(sealed > 50);
  };
  SUBCASE("as appended") { check_journal(ReadBytes(path)); }
  SUBCASE("as compacted") {
    auto store = MustOpen(Encrypted(path));
    RP_REQUIRE_OK(store->Compact());
    CHECK(StatsOf(*store).encrypted);
    RP_REQUIRE_OK(store->Close());
    check_journal(ReadBytes(path));
  }
  CHECK(Reopened(Encrypted(path)) == content);
  CHECK(Reopened(Encrypted(path, kKeyA, /*read_only=*/true)) == content);
}

TEST_CASE("jsonl encryption: the key is read from ROCKPOINT_AES_KEY") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const Content content = MakeStore(Encrypted(path));
  ::setenv(kEncryptionKeyEnvironment, FormatEncryptionKey(kKeyA).c_str(), 1);
  CHECK(Reopened(Encrypted(path, std::string())) == content);
  ::setenv(kEncryptionKeyEnvironment, FormatEncryptionKey(kKeyB).c_str(), 1);
  CheckInvalid(Encrypted(path, std::string()), "wrong encryption key");
  ::unsetenv(kEncryptionKeyEnvironment);
  auto unset = JsonlCheckpointer::Open(Encrypted(path, std::string()));
  CHECK(unset.status().IsInvalidArgument());
}

// A missing, wrong or malformed key, and a key for a plaintext store with
// records: contract_encryption.h.
TEST_CASE("jsonl encryption: an empty plaintext journal opened with a key") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  RP_REQUIRE_OK(MustOpen(Options(path))->Close());
  REQUIRE(ReadBytes(path) == std::string(kHeaderLine) + "\n");
  SUBCASE("read-only: nothing is written") {
    auto store = MustOpen(Encrypted(path, kKeyA, /*read_only=*/true));
    CHECK(StatsOf(*store).encrypted);
    CHECK(ReadBytes(path) == std::string(kHeaderLine) + "\n");
  }
  SUBCASE("read-write: it becomes an encrypted store") {
    const Content content = MakeStore(Encrypted(path));
    CHECK(ReadBytes(path).starts_with(kEncryptedHeaderStart));
    CHECK_FALSE(HasMarker(ReadBytes(path)));
    CHECK(Reopened(Encrypted(path)) == content);
    CheckInvalid(Options(path), "encrypted");
  }
}

TEST_CASE(
    "jsonl encryption: the start of an encrypted header is a creation "
    "that stopped") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  RP_REQUIRE_OK(MustOpen(Encrypted(path))->Close());
  const std::string header = ReadBytes(path);
  REQUIRE(header.starts_with(kEncryptedHeaderStart));
  for (const size_t cut :
       {size_t{12}, kEncryptedHeaderStart.size() + 3, header.size() - 1}) {
    CAPTURE(cut);
    const std::string torn = header.substr(0, cut);
    WriteBytes(path, torn);
    {
      auto store = MustOpen(Encrypted(path, kKeyA, /*read_only=*/true));
      CHECK(StatsOf(*store).torn_tail_bytes == cut);
      CHECK(ReadBytes(path) == torn);
    }
    const Content content = MakeStore(Encrypted(path));
    CHECK(ReadBytes(path).starts_with(kEncryptedHeaderStart));
    CHECK(Reopened(Encrypted(path)) == content);
    // Without a key, the unfinished creation becomes a plaintext store.
    WriteBytes(path, torn);
    RP_REQUIRE_OK(MustOpen(Options(path))->Close());
    CHECK(ReadBytes(path) == std::string(kHeaderLine) + "\n");
  }
}

// A sealed record changed, truncated, moved to another thread, from
// another store or replaced by a plaintext line: contract_encryption.h.
TEST_CASE("jsonl encryption: a sealed line with its own faults") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  MakeStore(Encrypted(path));
  const std::string journal = ReadBytes(path);
  const size_t t_line = FindLine(journal, "checkpoint", "t");

  SUBCASE("a content member added in the clear") {
    Json t = Parse(LineAt(journal, t_line));
    t["metadata"] = Json::object();
    CheckCorrupt(path, WithCheckedLine(journal, t_line, t.dump()), t_line,
                 "in the clear");
  }
  SUBCASE("a changed store id in the header is a wrong key") {
    Json header = Parse(LineAt(journal, 1));
    std::string id = Unwrap(formats::Base64Decode(
        header["encryption"]["store_id"].get<std::string>()));
    id[0] ^= 1;
    header["encryption"]["store_id"] = formats::Base64Encode(id);
    WriteBytes(path, WithCheckedLine(journal, 1, header.dump()));
    CheckInvalid(Encrypted(path), "wrong encryption key");
  }
}

TEST_CASE("jsonl encryption: a torn sealed group is ignored and cut") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const Content content = MakeStore(Encrypted(path));
  const std::string journal = ReadBytes(path);
  {
    auto store = MustOpen(Encrypted(path));
    PutTornStep(*store);
    RP_REQUIRE_OK(store->Close());
  }
  const std::string full = ReadBytes(path);
  REQUIRE(full.starts_with(journal));
  // All of the group but its commit line and the last byte before it.
  const std::string torn = full.substr(0, full.size() - kCommitLine.size() - 2);
  WriteBytes(path, torn);
  auto store = MustOpen(Encrypted(path));
  CHECK(StatsOf(*store).torn_tail_bytes == torn.size() - journal.size());
  CHECK(Observe(*store, kThreads) == content);
  RP_REQUIRE_OK(store->Close());
  CHECK(ReadBytes(path) == journal);
}

TEST_CASE("jsonl encryption: filters and copy_thread on an encrypted store") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  MakeStore(Encrypted(path));
  auto store = MustOpen(Encrypted(path));

  const std::vector<CheckpointTuple> found = Unwrap(store->ListAll(
      ListOf(std::nullopt, Meta({{"note", Value(std::string(kMetaMarker))}}))));
  REQUIRE(found.size() == 1);
  CHECK(*found[0].config.thread_id == "m");
  CHECK(Ids(Unwrap(store->ListAll(
            ListOf(Cfg("t"), Meta({{"step", Value(3)}}))))) == CpId(3));

  RP_REQUIRE_OK(store->CopyThread("t", "t2"));
  RP_REQUIRE_OK(store->CopyThread("m", "m2"));
  const Content before = Observe(*store, {"t", "t2", "m", "m2"});
  // The copy as a replayed copy_thread line, then as sealed lines of its
  // own written by compaction.
  for (const bool compact : {false, true}) {
    CAPTURE(compact);
    if (compact) RP_REQUIRE_OK(store->Compact());
    RP_REQUIRE_OK(store->Close());
    if (compact) CHECK_FALSE(HasMarker(ReadBytes(path)));
    store = MustOpen(Encrypted(path));
    CHECK(Observe(*store, {"t", "t2", "m", "m2"}) == before);
  }
  // Each copy is sealed under the target's names: t2's line moved back to
  // t's identifiers does not open.
  RP_REQUIRE_OK(store->Close());
  const std::string journal = ReadBytes(path);
  const size_t t2_line = FindLine(journal, "checkpoint", "t2");
  Json moved = Parse(LineAt(journal, t2_line));
  moved["thread"] = "t";
  CheckCorrupt(path, WithCheckedLine(journal, t2_line, moved.dump()), t2_line,
               "\"cp\", \"t\"");
}

TEST_CASE("jsonl encryption: retention and deletes replay on a sealed store") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  MakeStore(Encrypted(path));
  auto store = MustOpen(Encrypted(path));
  RP_REQUIRE_OK(store->Prune({"t"}, PruneStrategy::kKeepLatest, 1));
  RP_REQUIRE_OK(store->DeleteForRuns({"u/run-0"}));
  ExpiryRule rule;
  rule.keep_last = 1;
  RP_REQUIRE_OK(store->Expire({"u"}, rule).status());
  RP_REQUIRE_OK(store->DeleteThread("m"));
  const Content content = Observe(*store, kThreads);
  RP_REQUIRE_OK(store->Close());
  CHECK(Reopened(Encrypted(path)) == content);
  store = MustOpen(Encrypted(path));
  RP_REQUIRE_OK(store->Compact());
  RP_REQUIRE_OK(store->Close());
  CHECK(Reopened(Encrypted(path)) == content);
}

TEST_CASE("jsonl encryption: Rekey round trips") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const auto header_of = [&] { return Parse(LineAt(ReadBytes(path), 1)); };

  SUBCASE("old key to new key") {
    const Content content = MakeStore(Encrypted(path));
    const Json before = header_of();
    RP_REQUIRE_OK(
        JsonlCheckpointer::Rekey(Encrypted(path), EncryptionOptions{kKeyB}));
    CHECK(header_of()["encryption"]["store_id"] !=
          before["encryption"]["store_id"]);
    CHECK_FALSE(HasMarker(ReadBytes(path)));
    CHECK(Reopened(Encrypted(path, kKeyB)) == content);
    CheckInvalid(Encrypted(path, kKeyA), "wrong encryption key");
    CheckInvalid(Encrypted(path, std::nullopt), "key");
    // The same key again: a new store id, still the same content.
    RP_REQUIRE_OK(JsonlCheckpointer::Rekey(Encrypted(path, kKeyB),
                                           EncryptionOptions{kKeyB}));
    CHECK(Reopened(Encrypted(path, kKeyB)) == content);
  }
  SUBCASE("plaintext to encrypted, and back") {
    const Content content = MakeStore(Options(path));
    RP_REQUIRE_OK(
        JsonlCheckpointer::Rekey(Options(path), EncryptionOptions{kKeyA}));
    CHECK(ReadBytes(path).starts_with(kEncryptedHeaderStart));
    CHECK_FALSE(HasMarker(ReadBytes(path)));
    CHECK(Reopened(Encrypted(path)) == content);
    CheckInvalid(Options(path), "key");

    RP_REQUIRE_OK(JsonlCheckpointer::Rekey(Encrypted(path), std::nullopt));
    CHECK(SplitLines(ReadBytes(path))[0] == kHeaderLine);
    CHECK(HasMarker(ReadBytes(path)));
    CHECK(Reopened(Options(path)) == content);
    CheckInvalid(Encrypted(path), "plaintext records");
  }
  SUBCASE("a store then written to under the new key") {
    MakeStore(Encrypted(path));
    RP_REQUIRE_OK(
        JsonlCheckpointer::Rekey(Encrypted(path), EncryptionOptions{kKeyB}));
    Content content;
    {
      auto store = MustOpen(Encrypted(path, kKeyB));
      PutTornStep(*store);
      RP_REQUIRE_OK(store->DeleteThread("m"));
      content = Observe(*store, kThreads);
      RP_REQUIRE_OK(store->Close());
    }
    CHECK(Reopened(Encrypted(path, kKeyB)) == content);
  }
}

TEST_CASE("jsonl encryption: a Rekey that cannot finish changes nothing") {
  TempDir dir;
  const std::string path = dir.Sub("store.jsonl");
  const Content content = MakeStore(Encrypted(path));
  const std::string journal = ReadBytes(path);
  const auto check_unchanged = [&](const Status& status) {
    CAPTURE(status.ToString());
    CHECK_FALSE(status.ok());
    CHECK(ReadBytes(path) == journal);
    CHECK(Reopened(Encrypted(path)) == content);
  };

  SUBCASE("the wrong old key") {
    const Status status =
        JsonlCheckpointer::Rekey(Encrypted(path, kKeyB), std::nullopt);
    CHECK(status.IsInvalidArgument());
    check_unchanged(status);
  }
  SUBCASE("no old key") {
    const Status status = JsonlCheckpointer::Rekey(Options(path), std::nullopt);
    CHECK(status.IsInvalidArgument());
    check_unchanged(status);
  }
  SUBCASE("a bad new key") {
    const Status status = JsonlCheckpointer::Rekey(
        Encrypted(path), EncryptionOptions{std::string(5, 'x')});
    CHECK(status.IsInvalidArgument());
    check_unchanged(status);
  }
  SUBCASE("the journal is open read-write: Busy") {
    auto store = MustOpen(Encrypted(path));
    const Status status =
        JsonlCheckpointer::Rekey(Encrypted(path), EncryptionOptions{kKeyB});
    CHECK(status.IsBusy());
    RP_REQUIRE_OK(store->Close());
    check_unchanged(status);
  }
  SUBCASE("read-only options") {
    const Status status = JsonlCheckpointer::Rekey(
        Encrypted(path, kKeyA, /*read_only=*/true), EncryptionOptions{kKeyB});
    CHECK(status.IsInvalidArgument());
    check_unchanged(status);
  }
  SUBCASE("the new journal cannot be written") {
    // PATH.compact is a directory: the new journal's file cannot be made.
    fs::create_directory(path + ".compact");
    const Status status =
        JsonlCheckpointer::Rekey(Encrypted(path), EncryptionOptions{kKeyB});
    CHECK(status.IsIOError());
    fs::remove(path + ".compact");
    check_unchanged(status);
  }
  SUBCASE("a missing journal is NotFound") {
    const Status status = JsonlCheckpointer::Rekey(
        Encrypted(dir.Sub("missing.jsonl")), EncryptionOptions{kKeyB});
    CHECK(status.IsNotFound());
    CHECK_FALSE(fs::exists(dir.Sub("missing.jsonl")));
  }
}

}  // namespace
}  // namespace rockpoint
