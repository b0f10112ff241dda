// `rockpoint import` beyond the format: the engine's own validation in the
// checking pass, bounded work for huge write indexes, --resume and
// --replace, Ctrl-C, stdin, and no store left behind by a failed import.
#include <limits>

#include "formats/export_format.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

namespace fs = std::filesystem;

struct ImportFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  std::string input = dir.Sub("input.jsonl");
  ImportFixture() {
    MakeFixtureStore(store);
    WriteFile(input, RunOk({"export", "--store", store}).out);
  }
  std::string Export(const std::string& path) const {
    return RunOk({"export", "--store", path}).out;
  }
};

// A one-thread export: a header, its lines, and a matching end line.
std::string ExportOf(const std::vector<Json>& lines) {
  std::string text =
      R"({"kind":"header","format":"rockpoint-export","version":1})"
      "\n";
  uint64_t checkpoints = 0, values = 0, writes = 0;
  for (const Json& line : lines) {
    text += line.dump() + "\n";
    checkpoints += line["kind"] == "checkpoint";
    values += line["kind"] == "value";
    writes += line["kind"] == "write";
  }
  Json end = {{"kind", "end"},
              {"checkpoints", checkpoints},
              {"values", values},
              {"writes", writes}};
  return text + end.dump() + "\n";
}

Json CheckpointLine(const std::string& thread, const std::string& id,
                    Json parent) {
  return Json{{"kind", "checkpoint"},
              {"thread", thread},
              {"ns", ""},
              {"id", id},
              {"parent", parent},
              {"v", 4},
              {"ts", "2026-01-01T00:00:00Z"},
              {"channel_versions", Json::array()},
              {"versions_seen", Json::array()},
              {"metadata", Json::object()}};
}

Json WriteLine(const std::string& thread, const std::string& checkpoint,
               const std::string& channel, int64_t idx) {
  return Json{{"kind", "write"},   {"thread", thread},
              {"ns", ""},          {"checkpoint", checkpoint},
              {"task_path", ""},   {"task_id", "task"},
              {"idx", idx},        {"channel", channel},
              {"type", "msgpack"}, {"b64", "wA=="}};
}

TEST_CASE("input only the engine refuses writes nothing, from a file or -") {
  TempDir dir;
  const std::string input = dir.Sub("input.jsonl");
  const std::string target = dir.Sub("target");
  // Line 3 is valid JSONL; the engine refuses an empty id and a parent
  // equal to the id. Thread t1 (line 2) must not be written either.
  for (const Json& bad : {CheckpointLine("t2", "", nullptr),
                          CheckpointLine("t2", "same", "same")}) {
    CAPTURE(bad.dump());
    WriteFile(input, ExportOf({CheckpointLine("t1", "a", nullptr), bad}));
    CheckOneLineError(RunCli({"import", input, "--store", target}), "line 3");
    CHECK(!fs::exists(target));
    CheckOneLineError(
        RunCli({"import", "-", "--store", target}, {.stdin_path = input}),
        "line 3");
    CHECK(!fs::exists(target));
  }
}

TEST_CASE("a huge write idx is refused at once, at the int64 limits too") {
  TempDir dir;
  const std::string input = dir.Sub("input.jsonl");
  const std::string target = dir.Sub("target.db");
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  for (int64_t idx :
       {int64_t{30000000}, max, int64_t{formats::kMaxWriteIdxGap + 1}}) {
    CAPTURE(idx);
    WriteFile(input, ExportOf({CheckpointLine("t", "a", nullptr),
                               WriteLine("t", "a", "__error__", -1),
                               WriteLine("t", "a", "out", idx)}));
    CheckOneLineError(RunCli({"import", input, "--store", target}),
                      "line 4: write.idx " + std::to_string(idx));
    CHECK(!fs::exists(target));
  }
  WriteFile(input, ExportOf({CheckpointLine("t", "a", nullptr),
                             WriteLine("t", "a", "out", min)}));
  CheckOneLineError(RunCli({"import", input, "--store", target}),
                    "does not fit channel out");
  WriteFile(input, ExportOf({CheckpointLine("t", "a", nullptr),
                             WriteLine("t", "a", "__error__", min)}));
  CheckOneLineError(RunCli({"import", input, "--store", target}),
                    "does not fit channel __error__");
  // Within the limit the gaps are filled by the special write.
  WriteFile(input,
            ExportOf({CheckpointLine("t", "a", nullptr),
                      WriteLine("t", "a", "__error__", -1),
                      WriteLine("t", "a", "out", formats::kMaxWriteIdxGap)}));
  RunOk({"import", input, "--store", target});
  CHECK(RunOk({"export", "--store", target}).out == ReadFile(input));
}

TEST_CASE("an orphan write is refused by line, on every backend") {
  ImportFixture f;
  const std::string before = f.Export(f.store);
  Json other_ns = WriteLine("t", "a", "out", 0);
  other_ns["ns"] = "sub";
  // Line 3 writes to a checkpoint the input does not hold before it: one
  // that is not in the input at all, one whose line comes later, one of
  // another namespace.
  const std::vector<std::vector<Json>> inputs = {
      {CheckpointLine("t", "a", nullptr), WriteLine("t", "b", "out", 0)},
      {CheckpointLine("t", "a", nullptr), WriteLine("t", "b", "out", 0),
       CheckpointLine("t", "b", "a")},
      {CheckpointLine("t", "a", nullptr), other_ns},
  };
  for (const std::vector<Json>& lines : inputs) {
    WriteFile(f.input, ExportOf(lines));
    for (const char* name : {"target", "target.db", "target.jsonl"}) {
      CAPTURE(name);
      const std::string target = f.dir.Sub(name);
      CheckOneLineError(RunCli({"import", f.input, "--store", target}),
                        "line 3: write of checkpoint");
      CHECK(!fs::exists(target));
    }
    CheckOneLineError(RunCli({"import", f.input, "--store", f.store}),
                      "an orphan write");
    CHECK(f.Export(f.store) == before);
  }
}

TEST_CASE("--resume skips identical threads, --replace replaces them") {
  ImportFixture f;
  const std::string target = f.dir.Sub("target");
  RunOk({"import", f.input, "--store", target});
  CheckOneLineError(RunCli({"import", f.input, "--store", target}),
                    "already exists");
  Json resumed = ParseJson(
      RunOk({"import", f.input, "--resume", "--json", "--store", target}).out);
  CHECK(resumed["skipped_threads"] == 3);
  CHECK(f.Export(target) == ReadFile(f.input));

  // A thread that differs: --resume names it, --replace replaces it.
  RunOk({"delete", "t2", "--yes", "--store", f.store});
  const std::string smaller = f.dir.Sub("smaller.jsonl");
  WriteFile(smaller, f.Export(f.store));
  RunOk({"prune", "t1", "--keep", "2", "--yes", "--store", target});
  CheckOneLineError(
      RunCli({"import", smaller, "--resume", "--store", target}),
      "thread t1 exists in the target store and differs from the input");
  Json replaced = ParseJson(
      RunOk({"import", smaller, "--replace", "--json", "--store", target}).out);
  CHECK(replaced["replaced_threads"] == 2);  // t1 and the odd thread
  // t2 is not in `smaller`: it stays as it was.
  CHECK(f.Export(target) == ReadFile(f.input));
  CheckOneLineError(
      RunCli({"import", smaller, "--resume", "--replace", "--store", target}),
      "excludes");
}

TEST_CASE("Ctrl-C keeps whole threads, removes the partial one, exits 130") {
  ImportFixture f;
  for (const bool from_stdin : {false, true}) {
    CAPTURE(from_stdin);
    const std::string target = f.dir.Sub(from_stdin ? "piped.db" : "target");
    // The fixture's first thread (t1) has 7 checkpoints: stop inside t2.
    const RunOptions options{
        .stdin_path = from_stdin ? f.input : "/dev/null",
        .env = {"ROCKPOINT_TEST_SIGINT_AFTER_CHECKPOINTS=8"}};
    RunResult stopped = RunCli(
        {"import", from_stdin ? "-" : f.input, "--store", target}, options);
    INFO("stderr: ", stopped.err);
    CHECK(stopped.status == 130);
    CHECK(stopped.err.find("interrupted: imported 1 thread (7 checkpoints)") !=
          std::string::npos);
    CHECK(stopped.err.find("removed the partly imported thread t2") !=
          std::string::npos);
    CHECK(stopped.err.find("--resume") != std::string::npos);
    Json threads =
        ParseJson(RunOk({"threads", "--json", "--store", target}).out);
    REQUIRE(threads.size() == 2);  // t1's two namespaces
    CHECK(threads[0]["thread"] == "t1");
    RunOk({"import", f.input, "--resume", "--store", target});
    CHECK(f.Export(target) == ReadFile(f.input));
  }
  // Stopped inside the first thread of a new store: no store is left.
  const std::string fresh = f.dir.Sub("fresh");
  RunResult early =
      RunCli({"import", f.input, "--store", fresh},
             {.env = {"ROCKPOINT_TEST_SIGINT_AFTER_CHECKPOINTS=2"}});
  CHECK(early.status == 130);
  CHECK(early.err.find("nothing was imported") != std::string::npos);
  CHECK(!fs::exists(fresh));
}

TEST_CASE("a refused or dry-run import leaves no new store behind") {
  ImportFixture f;
  for (const std::string name : {"new-rocksdb", "new.db", "new.jsonl"}) {
    CAPTURE(name);
    const std::string target = f.dir.Sub(name);
    RunOk({"import", f.input, "--dry-run", "--store", target});
    CHECK(!fs::exists(target));
    WriteFile(f.dir.Sub("bad"), "not json\n");
    CheckOneLineError(RunCli({"import", f.dir.Sub("bad"), "--store", target}),
                      "line 1");
    CHECK(!fs::exists(target));
    RunOk({"import", f.input, "--store", target});
    CHECK(f.Export(target) == ReadFile(f.input));
  }
  // An existing store stays, unchanged.
  CheckOneLineError(RunCli({"import", f.input, "--store", f.store}),
                    "already exists");
  CHECK(f.Export(f.store) == ReadFile(f.input));
}

}  // namespace
}  // namespace rockpoint::cli_test
