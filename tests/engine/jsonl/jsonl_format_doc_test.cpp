// engine/jsonl/FORMAT.md against the code: the calls its example describes
// write exactly the example's lines, and the example replays.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/contract_helpers.h"
#include "rockpoint/jsonl_checkpointer.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::testing {
namespace {

// The lines between <!-- journal-example:begin --> and its end marker,
// without the code fences, each followed by '\n'.
std::string DocExample() {
  std::ifstream in(std::filesystem::path(ROCKPOINT_SOURCE_DIR) /
                   "engine/jsonl/FORMAT.md");
  REQUIRE(in.good());
  std::string line, example;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "<!-- journal-example:begin -->") {
      inside = true;
    } else if (line == "<!-- journal-example:end -->") {
      break;
    } else if (inside && line.rfind("```", 0) != 0) {
      example += line + "\n";
    }
  }
  return example;
}

std::string FileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("jsonl format doc: the example is what its calls write") {
  TempDir dir;
  JsonlOptions options;
  options.path = dir.Sub("doc.jsonl");
  auto store = Unwrap(JsonlCheckpointer::Open(options));
  Checkpoint checkpoint = MakeCheckpoint(
      "cp-01",
      {{"messages", Val(serde::EncodeMsgpack(Value(Value::Array{Value("hi")})),
                        std::string(serde::kMsgpackType))}},
      {{"messages", int64_t{1}}}, "2026-01-01T00:00:01Z");
  checkpoint.v = 4;
  RP_REQUIRE_OK(store
                    ->Put(Cfg("t1"), checkpoint,
                          Meta({{"source", Value("input")},
                                {"step", Value(int64_t{-1})}}),
                          {{"messages", int64_t{1}}})
                    .status());
  RP_REQUIRE_OK(store->PutWrites(Cfg("t1", "cp-01"),
                                 {W("messages", "[\"ho\"]")}, "task-1"));
  RP_REQUIRE_OK(store->DeleteThread("t1"));
  RP_REQUIRE_OK(store->Close());
  const std::string example = DocExample();
  REQUIRE(!example.empty());
  CHECK(FileText(options.path) == example);
}

TEST_CASE("jsonl format doc: the example replays to an empty store") {
  TempDir dir;
  JsonlOptions options;
  options.path = dir.Sub("doc.jsonl");
  std::ofstream(options.path, std::ios::binary) << DocExample();
  auto store = Unwrap(JsonlCheckpointer::Open(options));
  CHECK(Unwrap(store->ListThreads({})).threads.empty());
  const JsonlStats stats = Unwrap(store->Stats());
  CHECK(stats.lines == 8);
  CHECK(stats.torn_tail_bytes == 0);
}

}  // namespace
}  // namespace rockpoint::testing
