// Helpers for tests that read and write a JSONL store's journal behind its
// back: options, raw file access, lines, and what a store holds.
//
// Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"
#include "engine/jsonl/jsonl_checkpointer.h"

namespace rockpoint::testing::journal {

using namespace ::rockpoint::testing;  // NOLINT: test helpers
namespace fs = std::filesystem;

// The lines of a journal this build writes (version 3, each line with its
// checksum member), without their '\n'.
inline constexpr std::string_view kHeaderLine =
    R"({"kind":"header","format":"rockpoint-journal","version":3,"crc":"552875c0"})";
inline constexpr std::string_view kCommitLine =
    R"({"kind":"commit","crc":"869c3d5e"})";
// The same lines of a version 1 journal (plaintext, no checksums), which
// this build still reads.
inline constexpr std::string_view kHeaderLineV1 =
    R"({"kind":"header","format":"rockpoint-journal","version":1})";
inline constexpr std::string_view kCommitLineV1 = R"({"kind":"commit"})";

// Unsynced (the tests never crash the machine), never compacting on its own
// unless a test says so.
inline JsonlOptions Options(const std::string& path, bool read_only = false) {
  JsonlOptions options;
  options.path = path;
  options.read_only = read_only;
  options.sync_writes = false;
  options.auto_compact_min_lines = 0;
  return options;
}

inline std::unique_ptr<JsonlCheckpointer> MustOpen(
    const JsonlOptions& options) {
  return Unwrap(JsonlCheckpointer::Open(options));
}

inline JsonlStats StatsOf(JsonlCheckpointer& store) {
  return Unwrap(store.Stats());
}

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline void WriteBytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE_MESSAGE(out.good(), "cannot write " << path);
}

// The lines of `bytes` without their '\n'; a last piece without '\n' is a
// line too.
inline std::vector<std::string> SplitLines(const std::string& bytes) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < bytes.size()) {
    size_t end = bytes.find('\n', start);
    if (end == std::string::npos) end = bytes.size();
    lines.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

inline std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// `journal` with its line `number` (1-based) replaced by `line`.
inline std::string WithLine(const std::string& journal, size_t number,
                            const std::string& line) {
  std::vector<std::string> lines = SplitLines(journal);
  REQUIRE(number >= 1);
  REQUIRE(number <= lines.size());
  lines[number - 1] = line;
  return JoinLines(lines);
}

// Everything a reader can observe of `threads`: every tuple (hidden ones
// included), the thread index, and the delta history of "msgs" and "plain"
// at every visible checkpoint.
struct Content {
  std::map<std::string, std::vector<CheckpointTuple>> tuples;
  std::vector<ThreadInfo> thread_index;
  std::map<std::string, DeltaHistory> histories;  // by "thread/ns/id".
  friend bool operator==(const Content&, const Content&) = default;
};

inline Content Observe(Checkpointer& store,
                       const std::vector<std::string>& threads) {
  Content content;
  for (const std::string& thread : threads) {
    ListOptions options = ListOf(Cfg(thread, std::nullopt, std::nullopt));
    options.include_hidden = true;
    std::vector<CheckpointTuple> tuples = Unwrap(store.ListAll(options));
    for (const CheckpointTuple& tuple : tuples) {
      if (tuple.hidden) continue;
      content.histories[thread + "/" + *tuple.config.checkpoint_ns + "/" +
                        *tuple.config.checkpoint_id] =
          Unwrap(store.GetDeltaChannelHistory(tuple.config, {"msgs", "plain"}));
    }
    content.tuples[thread] = std::move(tuples);
  }
  content.thread_index = Unwrap(store.ListThreads({})).threads;
  return content;
}

// The put whose lines the torn-tail cases tear: checkpoint 4 of "t", two new
// values.
inline void PutTornStep(Checkpointer& store) {
  DoPut(store, {.thread = "t",
                .id = CpId(4),
                .parent = CpId(3),
                .values = {{"msgs", Val("\"torn msgs\"")},
                           {"plain", Val("\"torn plain\"")}},
                .versions = {{"msgs", int64_t{100}}, {"plain", "100"}},
                .metadata = Meta({{"step", Value(4)}})});
}

// A journal of committed calls (`base`) and the bytes the backend appends
// for one more put (`group`: its value and checkpoint lines and its commit
// line), so that a test can write base + any prefix of group.
struct TornFixture {
  std::string base;
  std::string group;
  Content committed;  // what `base` holds.
};

inline TornFixture MakeTornFixture(const std::string& path) {
  TornFixture fixture;
  {
    auto store = MustOpen(Options(path));
    PutDeltaThread(*store, "t", "", 4, 2);
    RP_REQUIRE_OK(store->Close());
  }
  fixture.base = ReadBytes(path);
  {
    auto store = MustOpen(Options(path));
    fixture.committed = Observe(*store, {"t"});
    PutTornStep(*store);
    RP_REQUIRE_OK(store->Close());
  }
  const std::string full = ReadBytes(path);
  // The journal is append-only: reopening and putting kept every byte.
  REQUIRE(full.starts_with(fixture.base));
  fixture.group = full.substr(fixture.base.size());
  const std::vector<std::string> group_lines = SplitLines(fixture.group);
  // Two value lines, the checkpoint line, the commit line.
  REQUIRE(group_lines.size() >= 3);
  REQUIRE(group_lines.back() == kCommitLine);
  REQUIRE(fixture.group.ends_with('\n'));
  return fixture;
}

}  // namespace rockpoint::testing::journal
