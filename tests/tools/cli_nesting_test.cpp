// Deeply nested input never crashes the CLI (tools/cli/value_json.h states
// the limits): an import line, a journal line or a --filter value
// nested deeper than kMaxJsonDepth (767) JSON levels is refused before it is
// parsed; metadata deeper than the engine's 255 maps and arrays is refused
// by the checking pass; a stored "json" payload too deep to render shows as
// base64. Refused input writes nothing.
//
// The JSON here is built as text, never as nlohmann values, so that the test
// itself holds nothing deep.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxJsonDepth = 3 * 255 + 2;  // tools/cli/value_json.h
const std::string kTooDeepJson =
    "nests deeper than 767 JSON arrays and objects";

std::string Repeat(std::string_view text, int times) {
  std::string out;
  out.reserve(text.size() * static_cast<size_t>(times));
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// Standard base64 with padding.
std::string Base64(std::string_view data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < data.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(data[i]) << 16;
    if (i + 1 < data.size()) n |= static_cast<uint8_t>(data[i + 1]) << 8;
    if (i + 2 < data.size()) n |= static_cast<uint8_t>(data[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < data.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < data.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

// `levels` arrays nested around nothing: [[...[]...]].
std::string Arrays(int levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

// `levels` plain objects: {"k":{"k":...{}}}.
std::string Objects(int levels) {
  return Repeat(R"({"k":)", levels - 1) + "{}" + std::string(levels - 1, '}');
}

// `maps` maps in the $map form (three JSON levels each) around `leaf`.
std::string TaggedMaps(int maps, const std::string& leaf) {
  return Repeat(R"({"$map":[["$k",)", maps) + leaf + Repeat("]]}", maps);
}

// A checkpoint line of thread "deep" whose metadata is `metadata` (text).
std::string CheckpointLine(const std::string& metadata) {
  return R"({"kind":"checkpoint","thread":"deep","ns":"","id":"cp-1",)"
         R"("parent":null,"v":4,"ts":"2026-01-01T00:00:00Z",)"
         R"("channel_versions":[],"versions_seen":[],"metadata":)" +
         metadata + "}";
}

// An export of one checkpoint line (or any line standing for it).
std::string ExportOf(const std::string& line) {
  return R"({"kind":"header","format":"rockpoint-export","version":1})"
         "\n" +
         line + "\n" +
         R"({"kind":"end","checkpoints":1,"values":0,"writes":0})"
         "\n";
}

struct NestingFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  std::string input = dir.Sub("input.jsonl");
  NestingFixture() { MakeFixtureStore(store); }
  std::string Export(const std::string& path) const {
    return RunOk({"export", "--store", path}).out;
  }
};

// Imports `text` into the fixture store and into a new store of each
// backend: each refused with `needle`, the fixture unchanged, no new store.
void CheckImportRefused(NestingFixture& f, const std::string& text,
                        const std::string& needle) {
  WriteFile(f.input, text);
  const std::string before = f.Export(f.store);
  CheckOneLineError(RunCli({"import", f.input, "--store", f.store}), needle);
  CHECK(f.Export(f.store) == before);
  for (const std::string name : {"new-rocksdb", "new.db", "new.jsonl"}) {
    CAPTURE(name);
    const std::string target = f.dir.Sub(name);
    CheckOneLineError(RunCli({"import", f.input, "--store", target}), needle);
    CHECK(!fs::exists(target));
  }
}

TEST_CASE(
    "import refuses deeply nested lines with one error, writing nothing") {
  NestingFixture f;
  SUBCASE("metadata an array 20,000 deep") {
    CheckImportRefused(
        f, ExportOf(CheckpointLine(R"({"k":)" + Arrays(20000) + "}")),
        "line 2: " + kTooDeepJson);
  }
  SUBCASE("a 400 KB line of [") {
    CheckImportRefused(f, ExportOf(std::string(400000, '[')),
                       "line 2: " + kTooDeepJson);
  }
  SUBCASE("a 30 KB line of [ as the first line") {
    WriteFile(f.input, std::string(30000, '[') + "\n");
    CheckOneLineError(RunCli({"import", f.input, "--store", f.store}),
                      "line 1: " + kTooDeepJson);
  }
  SUBCASE("metadata 400 KB of nested arrays") {
    CheckImportRefused(
        f, ExportOf(CheckpointLine(R"({"k":)" + Arrays(200000) + "}")),
        "line 2: " + kTooDeepJson);
  }
}

TEST_CASE(
    "metadata at the engine's limit imports and exports back; deeper "
    "is refused") {
  NestingFixture f;
  const std::string target = f.dir.Sub("target");
  SUBCASE("255 maps are stored and read back") {
    const std::string metadata = Objects(255);
    WriteFile(f.input, ExportOf(CheckpointLine(metadata)));
    RunOk({"import", f.input, "--store", target});
    CHECK(f.Export(target).find(R"("metadata":)" + metadata + "}\n") !=
          std::string::npos);
  }
  SUBCASE("256 maps are refused by the engine") {
    CheckImportRefused(f, ExportOf(CheckpointLine(Objects(256))),
                       "line 2: metadata nests deeper than 255 maps and "
                       "arrays");
  }
  SUBCASE("257 maps are refused before they reach the engine") {
    CheckImportRefused(f, ExportOf(CheckpointLine(Objects(257))),
                       "nests deeper than 256 maps and arrays");
  }
}

TEST_CASE(
    "a line exactly kMaxJsonDepth deep imports; one level more does "
    "not") {
  NestingFixture f;
  const std::string target = f.dir.Sub("target");
  // 255 maps in the $map form around a tagged leaf: the deepest line the
  // engine's metadata limit allows, 1 + 3 * 255 + 1 = 767 levels.
  const std::string deepest = TaggedMaps(255, R"({"$bytes":"AA=="})");
  WriteFile(f.input, ExportOf(CheckpointLine(deepest)));
  RunOk({"import", f.input, "--store", target});
  const std::string exported = f.Export(target);
  CHECK(exported.find(R"("metadata":)" + deepest + "}\n") != std::string::npos);
  // The export re-imports (its line is as deep).
  WriteFile(f.input, exported);
  RunOk({"import", f.input, "--store", f.dir.Sub("again.db")});
  CHECK(f.Export(f.dir.Sub("again.db")) == exported);

  CheckImportRefused(
      f, ExportOf(CheckpointLine(TaggedMaps(255, R"([{"$bytes":"AA=="}])"))),
      "line 2: " + kTooDeepJson);
}

TEST_CASE("a journal with a deeply nested line is Corruption, unchanged") {
  TempDir dir;
  const std::string file = dir.Sub("store.jsonl");
  for (const std::string& line :
       {CheckpointLine(R"({"k":)" + Arrays(20000) + "}"),
        std::string(400000, '[')}) {
    const std::string text =
        R"({"kind":"header","format":"rockpoint-journal","version":1})"
        "\n" +
        line + "\n" + R"({"kind":"commit"})" + "\n";
    WriteFile(file, text);
    for (const char* command : {"threads", "compact"}) {
      CAPTURE(command);
      RunResult result = RunCli({command, "--store", file});
      CheckOneLineError(result, "Corruption");
      CHECK(result.err.find(file + ": line 2: " + kTooDeepJson) !=
            std::string::npos);
      CHECK(ReadFile(file) == text);
    }
  }
}

TEST_CASE("--filter values: the Value limit and the JSON limit") {
  NestingFixture f;
  const auto history = [&](const std::string& value) {
    return RunCli({"history", "t1", "--json", "--store", f.store, "--filter",
                   "k=" + value});
  };
  // 256 arrays is a Value at kMaxDepth: a filter that matches nothing.
  RunResult at_limit = history(Arrays(256));
  INFO(at_limit.err);
  CHECK(at_limit.status == 0);
  CHECK(ParseJson(at_limit.out).empty());
  CheckOneLineError(history(Arrays(257)),
                    "--filter k: nests deeper than 256 maps and arrays");
  CheckOneLineError(history(Arrays(30000)), "--filter k: " + kTooDeepJson);
}

TEST_CASE("a stored json payload renders up to kMaxJsonDepth, else as b64") {
  TempDir dir;
  const std::string store = dir.Sub("store");
  const std::string input = dir.Sub("input.jsonl");
  // A channel value of serializer type "json", never decoded by import.
  const auto import_payload = [&](const std::string& json) {
    const std::string value_line =
        R"({"kind":"value","thread":"deep","ns":"","channel":"c",)"
        R"("version":1,"type":"json","b64":")" +
        Base64(json) + R"("})";
    const std::string checkpoint =
        R"({"kind":"checkpoint","thread":"deep","ns":"","id":"cp-1",)"
        R"("parent":null,"v":4,"ts":"2026-01-01T00:00:00Z",)"
        R"("channel_versions":[["c",1]],"versions_seen":[],"metadata":{}})";
    WriteFile(input,
              R"({"kind":"header","format":"rockpoint-export","version":1})"
              "\n" +
                  value_line + "\n" + checkpoint + "\n" +
                  R"({"kind":"end","checkpoints":1,"values":1,"writes":0})"
                  "\n");
    fs::remove_all(store);
    RunOk({"import", input, "--store", store});
  };
  import_payload(Arrays(kMaxJsonDepth));
  Json shown =
      ParseJson(RunOk({"show", "deep", "--json", "--store", store}).out);
  CHECK(shown["channels"][0]["value"]["type"] == "json");
  CHECK(shown["channels"][0]["value"].contains("value"));
  CHECK(RunOk({"show", "deep", "--store", store}).out.find("[[[[") !=
        std::string::npos);

  for (int levels : {kMaxJsonDepth + 1, 100000}) {
    CAPTURE(levels);
    import_payload(Arrays(levels));
    Json deeper =
        ParseJson(RunOk({"show", "deep", "--json", "--store", store}).out);
    CHECK(deeper["channels"][0]["value"]["type"] == "json");
    CHECK(deeper["channels"][0]["value"]["b64"] == Base64(Arrays(levels)));
    CHECK(!deeper["channels"][0]["value"].contains("value"));
    CHECK(RunOk({"show", "deep", "--store", store}).out.find("json b64:") !=
          std::string::npos);
  }
}

}  // namespace
}  // namespace rockpoint::cli_test
