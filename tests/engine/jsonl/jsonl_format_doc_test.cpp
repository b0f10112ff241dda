// engine/jsonl/FORMAT.md against the code: the calls its examples describe
// write exactly the examples' lines (the encrypted one up to its random
// base64, whose sealed texts are checked by opening them), and the plaintext
// example replays.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/record_cipher.h"
#include "engine/record_names.h"
#include "formats/json_text.h"
#include "keys/tuple.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::testing {
namespace {

// The lines between <!-- NAME:begin --> and its end marker, without the
// code fences, each followed by '\n'.
std::string DocExample(const std::string& name = "journal-example") {
  std::ifstream in(std::filesystem::path(ROCKPOINT_SOURCE_DIR) /
                   "engine/jsonl/FORMAT.md");
  REQUIRE(in.good());
  std::string line, example;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "<!-- " + name + ":begin -->") {
      inside = true;
    } else if (line == "<!-- " + name + ":end -->") {
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

// The calls of the example, on a new store.
void MakeExampleCalls(const JsonlOptions& options) {
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
}

TEST_CASE("jsonl format doc: the example is what its calls write") {
  TempDir dir;
  JsonlOptions options;
  options.path = dir.Sub("doc.jsonl");
  MakeExampleCalls(options);
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

// The name a sealed record line is sealed under (record_names.h).
std::string RecordNameOf(const nlohmann::ordered_json& line) {
  const auto text = [&](const char* member) {
    return line[member].get<std::string>();
  };
  const std::string kind = text("kind");
  if (kind == "value") {
    return record_names::Blob(text("thread"), text("ns"), text("channel"),
                              line["version"].get<int64_t>());
  }
  if (kind == "checkpoint") {
    return record_names::Checkpoint(text("thread"), text("ns"), text("id"));
  }
  REQUIRE(kind == "write");
  return record_names::Write(text("thread"), text("ns"), text("checkpoint"),
                             text("task_path"), text("task_id"),
                             line["idx"].get<int64_t>());
}

TEST_CASE("jsonl format doc: the encrypted example is what its calls write") {
  TempDir dir;
  JsonlOptions options;
  options.path = dir.Sub("doc.jsonl");
  options.encryption = EncryptionOptions{std::string(32, 'k')};
  MakeExampleCalls(options);
  const std::string journal = FileText(options.path);

  // The header's store id, and each sealed member's bytes and name.
  std::istringstream lines(journal);
  std::string line, normalized, store_id;
  std::vector<std::pair<std::string, std::string>> sealed;  // (name, bytes)
  // The checksum of a line that holds random bytes is random too.
  const std::regex checksum("\"crc\":\"[0-9a-f]{8}\"");
  while (std::getline(lines, line)) {
    const auto json = nlohmann::ordered_json::parse(line);
    if (json["kind"] == "header") {
      line = std::regex_replace(line, checksum, "\"crc\":CRC");
      store_id = Unwrap(formats::Base64Decode(
          json["encryption"]["store_id"].get<std::string>()));
      line = std::regex_replace(line,
                                std::regex("\"store_id\":\"[A-Za-z0-9+/=]+\""),
                                "\"store_id\":STORE_ID");
      line = std::regex_replace(line,
                                std::regex("\"key_check\":\"[A-Za-z0-9+/=]+\""),
                                "\"key_check\":KEY_CHECK");
    } else if (json.contains("sealed")) {
      sealed.emplace_back(
          RecordNameOf(json),
          Unwrap(formats::Base64Decode(json["sealed"].get<std::string>())));
      line = std::regex_replace(
          line, std::regex("\"sealed\":\"[A-Za-z0-9+/=]+\""),
          "\"sealed\":SEALED_" + std::to_string(sealed.size()));
      line = std::regex_replace(line, checksum, "\"crc\":CRC");
    }
    normalized += line + "\n";
  }
  const std::string example = DocExample("encrypted-example");
  REQUIRE(!example.empty());
  CHECK(normalized == example);

  // Each documented sealed text is what its SEALED_n opens to, under the
  // documented name.
  auto cipher = Unwrap(RecordCipher::Create(options.encryption->key, store_id));
  std::istringstream documented(DocExample("encrypted-sealed"));
  size_t n = 0;
  while (std::getline(documented, line)) {
    ++n;
    CAPTURE(line);
    REQUIRE(n <= sealed.size());
    const std::string label = "SEALED_" + std::to_string(n) + "  ";
    REQUIRE(line.starts_with(label));
    const size_t name_end = line.find(")  ", label.size());
    REQUIRE(name_end != std::string::npos);
    CHECK(line.substr(label.size(), name_end + 1 - label.size()) ==
          keys::Describe(sealed[n - 1].first));
    std::string text;
    RP_REQUIRE_OK(
        cipher->Open(sealed[n - 1].first, sealed[n - 1].second, "doc", &text));
    CHECK(line.substr(name_end + 3) == text);
  }
  CHECK(n == sealed.size());
}

}  // namespace
}  // namespace rockpoint::testing
