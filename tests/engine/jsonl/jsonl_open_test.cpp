// What JsonlCheckpointer::Open makes of files that are not whole journals:
// text that is not a journal is refused and left as it was, read-write or
// read-only; the start of a header (a creation that stopped) is an empty
// store that a read-write open rewrites.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/contract_helpers.h"
#include "rockpoint/jsonl_checkpointer.h"

namespace rockpoint::testing {
namespace {

std::string FileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

TEST_CASE(
    "jsonl open: regression: a file that is not a journal is refused, "
    "unchanged") {
  TempDir dir;
  const std::string path = dir.Sub("notes.jsonl");
  for (const std::string& text :
       {std::string("hello"), std::string("hello\nworld\n"),
        std::string("{\"kind\":\"header\"}"), std::string("\n")}) {
    CAPTURE(text);
    WriteFile(path, text);
    for (const bool read_only : {false, true}) {
      auto opened =
          JsonlCheckpointer::Open({.path = path, .read_only = read_only});
      REQUIRE(!opened.ok());
      CHECK(opened.status().IsInvalidArgument());
      CHECK(opened.status().message().find("not a rockpoint journal") !=
            std::string::npos);
      CHECK(FileText(path) == text);
    }
  }
}

TEST_CASE("jsonl open: the start of a header is an unfinished creation") {
  TempDir dir;
  const std::string path = dir.Sub("new.jsonl");
  const std::string start = "{\"kind\":\"header\",\"format\":\"rock";
  WriteFile(path, start);
  {
    auto store =
        Unwrap(JsonlCheckpointer::Open({.path = path, .read_only = true}));
    CHECK(Unwrap(store->ListThreads({})).threads.empty());
    CHECK(Unwrap(store->Stats()).torn_tail_bytes == start.size());
  }
  CHECK(FileText(path) == start);
  auto store = Unwrap(JsonlCheckpointer::Open({.path = path}));
  CHECK(Unwrap(store->Stats()).torn_tail_bytes == start.size());
  CHECK(FileText(path) ==
        "{\"kind\":\"header\",\"format\":\"rockpoint-journal\","
        "\"version\":1}\n");
}

}  // namespace
}  // namespace rockpoint::testing
