// `rockpoint` end to end: --version, --help, bad arguments, store errors,
// and the read commands (threads, history, show, writes, diff) on a real
// RocksDB store.
#include "rockpoint/version.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

const std::vector<std::string> kCommands = {
    "threads", "history", "show",   "writes",  "diff",
    "export",  "import",  "copy",   "delete",  "delete-runs",
    "prune",   "stats",   "verify", "compact", "dump"};

struct InspectFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  InspectFixture() { MakeFixtureStore(store); }
};

TEST_CASE("--version and --help print to stdout and exit 0") {
  RunResult version = RunOk({"--version"});
  CHECK(version.out == std::string("rockpoint ") + kVersion + "\n");
  RunResult help = RunOk({"--help"});
  for (const std::string& command : kCommands) {
    CHECK_MESSAGE(help.out.find(command) != std::string::npos, command);
  }
  CHECK(help.err.empty());
  // --store and --backend name every backend.
  CHECK(help.out.find("PostgreSQL URL") != std::string::npos);
  CHECK(help.out.find("jsonl or postgres") != std::string::npos);
  for (const std::string& command : kCommands) {
    RunResult sub = RunCli({command, "--help"});
    INFO(command, ": ", sub.err);
    CHECK(sub.status == 0);
    CHECK(sub.out.find("rockpoint " + command) != std::string::npos);
    CHECK(sub.out.find("--store") != std::string::npos);
  }
}

TEST_CASE("bad arguments: one line on stderr, exit 1") {
  InspectFixture f;
  CheckOneLineError(RunCli({}), "subcommand");
  CheckOneLineError(RunCli({"frobnicate"}), "unknown command \"frobnicate\"");
  CheckOneLineError(RunCli({"--store", f.store, "frobnicate"}),
                    "unknown command");
  CheckOneLineError(RunCli({"history", "--store", f.store}), "THREAD");
  CheckOneLineError(
      RunCli({"threads", "--store", f.store, "--json", "--jsonl"}), "exclude");
  CheckOneLineError(
      RunCli({"threads", "--store", f.store, "--backend", "tape"}), "backend");
  CheckOneLineError(
      RunCli({"history", "t1", "--store", f.store, "--limit", "0"}), "limit");
  CheckOneLineError(
      RunCli({"prune", "t1", "--keep", "2", "--delete", "--store", f.store}),
      "exclude");
  CheckOneLineError(RunCli({"threads"}), "no store given");
  CheckOneLineError(RunCli({"show", "t1", "--store", f.store, "--filter", "x"}),
                    "filter");
  CheckOneLineError(
      RunCli({"history", "t1", "--store", f.store, "--filter", "novalue"}),
      "key=value");
}

TEST_CASE("store errors say what is wrong with the path") {
  TempDir dir;
  CheckOneLineError(RunCli({"threads", "--store", dir.Sub("missing")}),
                    "store not found");
  WriteFile(dir.Sub("notes.txt"), "hello");
  CheckOneLineError(RunCli({"threads", "--store", dir.Sub("notes.txt")}),
                    "not a rockpoint store");
  std::filesystem::create_directory(dir.Sub("empty-dir"));
  CheckOneLineError(RunCli({"threads", "--store", dir.Sub("empty-dir")}),
                    "not a RocksDB store");
  WriteFile(dir.Sub("broken.jsonl"), "{\"kind\":\"header\"}\n");
  CheckOneLineError(RunCli({"threads", "--store", dir.Sub("broken.jsonl")}),
                    "not a rockpoint journal");
  WriteFile(dir.Sub("newer.jsonl"),
            "{\"kind\":\"header\",\"format\":\"rockpoint-journal\","
            "\"version\":9}\n");
  CheckOneLineError(RunCli({"threads", "--store", dir.Sub("newer.jsonl")}),
                    "journal format version 9 is not supported");
}

TEST_CASE("the store comes from ROCKPOINT_STORE when --store is absent") {
  InspectFixture f;
  RunResult result =
      RunOk({"threads", "--json"}, {.env = {"ROCKPOINT_STORE=" + f.store}});
  CHECK(ParseJson(result.out).size() == 4);
}

TEST_CASE("threads: namespaces, counts and latest checkpoint") {
  InspectFixture f;
  RunResult table = RunOk({"threads", "--store", f.store});
  CHECK(table.out.starts_with("THREAD"));
  CHECK(table.out.find("child:t") != std::string::npos);
  CHECK(table.out.find("\\xffodd\\x00id") != std::string::npos);

  Json rows = ParseJson(RunOk({"--json", "threads", "--store", f.store}).out);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0]["thread"] == "t1");
  CHECK(rows[0]["ns"] == "");
  CHECK(rows[0]["checkpoints"] == 5);
  CHECK(rows[0]["latest_checkpoint_id"] == "cp-05");
  CHECK(rows[1]["ns"] == "child:t");
  CHECK(rows[1]["checkpoints"] == 2);
  CHECK(rows[2]["thread"] == "t2");
  CHECK(rows[3]["thread"]["b64"] == "/29kZABpZA==");
  CHECK(rows[3]["ns"] == "\x01");

  std::vector<Json> lines =
      ParseJsonLines(RunOk({"threads", "--jsonl", "--store", f.store}).out);
  CHECK(lines.size() == 4);
  CHECK(RunOk({"threads", "--limit", "1", "--json", "--store", f.store}).out ==
        RunOk({"threads", "--limit", "1", "--json", "--store", f.store}).out);
  CHECK(
      ParseJson(
          RunOk({"threads", "--limit", "1", "--json", "--store", f.store}).out)
          .size() == 2);
}

TEST_CASE("history: newest first, --ns, --limit, --filter, --before") {
  InspectFixture f;
  Json all =
      ParseJson(RunOk({"history", "t1", "--json", "--store", f.store}).out);
  REQUIRE(all.size() == 7);
  CHECK(all[0]["checkpoint_id"] == "cp-05");
  CHECK(all[0]["parent_checkpoint_id"] == "cp-04");
  CHECK(all[0]["source"] == "update");
  CHECK(all[0]["writes"] == 4);
  CHECK(all[0]["metadata"]["run_id"] == "run-b");

  Json root = ParseJson(
      RunOk({"history", "t1", "--ns", "", "--json", "--store", f.store}).out);
  CHECK(root.size() == 5);
  CHECK(root[4]["parent_checkpoint_id"].is_null());
  Json child = ParseJson(
      RunOk({"history", "t1", "--ns", "child:t", "--json", "--store", f.store})
          .out);
  CHECK(child.size() == 2);

  Json limited = ParseJson(
      RunOk({"history", "t1", "--limit", "2", "--json", "--store", f.store})
          .out);
  CHECK(limited.size() == 2);

  Json loops =
      ParseJson(RunOk({"history", "t1", "--filter", "source=loop", "--filter",
                       "run_id=run-b", "--json", "--store", f.store})
                    .out);
  REQUIRE(loops.size() == 2);
  CHECK(loops[0]["checkpoint_id"] == "cp-04");
  Json step = ParseJson(RunOk({"history", "t1", "--filter", "step=1", "--json",
                               "--store", f.store})
                            .out);
  REQUIRE(step.size() == 1);
  CHECK(step[0]["checkpoint_id"] == "cp-03");
  Json before = ParseJson(RunOk({"history", "t1", "--ns", "", "--before",
                                 "cp-03", "--json", "--store", f.store})
                              .out);
  CHECK(before.size() == 2);

  RunResult table = RunOk({"history", "t1", "--store", f.store});
  CHECK(table.out.find("CHECKPOINT") != std::string::npos);
  CHECK(table.out.find("cp-05") < table.out.find("cp-01"));
  CheckOneLineError(RunCli({"history", "nope", "--store", f.store}),
                    "no checkpoints for thread nope");
}

TEST_CASE("show: config, metadata, decoded values, writes, parent") {
  InspectFixture f;
  Json latest =
      ParseJson(RunOk({"show", "t1", "--json", "--store", f.store}).out);
  CHECK(latest["checkpoint_id"] == "cp-05");
  CHECK(latest["parent_checkpoint_id"] == "cp-04");
  CHECK(latest["metadata"]["source"] == "update");
  Json channels = latest["channels"];
  REQUIRE(channels.size() == 3);
  CHECK(channels[0]["channel"] == "count");
  CHECK(channels[0]["value"]["value"] == 2);
  CHECK(channels[1]["channel"] == "delta");
  CHECK(channels[1]["value"].is_null());
  CHECK(channels[2]["value"]["type"] == "msgpack");
  CHECK(channels[2]["value"]["value"].size() == 5);
  CHECK(channels[2]["value"]["value"][4] == "message 5");
  REQUIRE(latest["pending_writes"].size() == 4);
  CHECK(latest["pending_writes"][0]["task_id"] == "task-2");
  CHECK(latest["pending_writes"][2]["channel"] == "__error__");
  CHECK(latest["pending_writes"][2]["idx"] == -1);
  CHECK(latest["pending_writes"][3]["idx"] == 1);

  Json first = ParseJson(
      RunOk({"show", "t1", "cp-01", "--json", "--store", f.store}).out);
  CHECK(first["parent_checkpoint_id"].is_null());
  CHECK(first["channels"][1]["value"]["value"] == Json::array({"message 1"}));

  Json odd = ParseJson(
      RunOk({"show", "t2", "t2-01", "--json", "--store", f.store}).out);
  CHECK(odd["metadata"]["blob"]["$bytes"] == "AP8=");
  CHECK(odd["metadata"]["nested"]["$map"][0][0] == "$odd");
  CHECK(odd["metadata"]["bad_text"]["$string_b64"] == "wyg=");
  CHECK(odd["metadata"]["ratio"] == 0.5);
  CHECK(odd["channels"][0]["value"]["value"]["a"] == 1);  // json payload
  CHECK(odd["channels"][1]["value"]["b64"] == "AAH/");    // opaque payload
  CHECK(odd["channels"][0]["version"] ==
        "00000000000000000000000000000001.0123456789012345");
  CHECK(odd["updated_channels"] == Json::array({"js", "opaque"}));

  Json raw = ParseJson(
      RunOk({"show", "t1", "--raw", "--json", "--store", f.store}).out);
  CHECK(raw["channels"][0]["value"]["type"] == "msgpack");
  CHECK(raw["channels"][0]["value"]["b64"] == "Ag==");
  CHECK(!raw["channels"][0]["value"].contains("value"));

  RunResult table = RunOk({"show", "t1", "--store", f.store});
  CHECK(table.out.find("checkpoint_id") != std::string::npos);
  CHECK(table.out.find("[\"message 1\",\"message 2\"") != std::string::npos);
  CHECK(table.out.find("pending_writes (4)") != std::string::npos);
  RunResult t2 = RunOk({"show", "t2", "t2-01", "--store", f.store});
  CHECK(t2.out.find("bytes b64:AAH/") != std::string::npos);

  CheckOneLineError(RunCli({"show", "t1", "cp-99", "--store", f.store}),
                    "checkpoint cp-99 not found in thread t1");
  CheckOneLineError(RunCli({"show", "nope", "--store", f.store}),
                    "no checkpoint in thread nope");
}

TEST_CASE("writes: ordered by task path, task id and idx") {
  InspectFixture f;
  std::vector<Json> lines = ParseJsonLines(
      RunOk({"writes", "t1", "cp-05", "--jsonl", "--store", f.store}).out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0]["task_path"] == "");
  CHECK(lines[0]["idx"] == 0);
  CHECK(lines[0]["value"]["value"] == "first");
  CHECK(lines[2]["task_path"] == "~node");
  CHECK(lines[2]["channel"] == "__error__");
  CHECK(lines[3]["channel"] == "out");
  CHECK(lines[3]["value"]["value"] == 7);
  RunResult table = RunOk({"writes", "t1", "cp-05", "--store", f.store});
  CHECK(table.out.find("\"boom\"") != std::string::npos);
  // NUL cannot pass through argv: --escaped takes the escapes tables print.
  Json odd =
      ParseJson(RunOk({"writes", "\\xffodd\\x00id", "odd-01", "--ns", "\\x01",
                       "--escaped", "--json", "--store", f.store})
                    .out);
  REQUIRE(odd.size() == 1);
  CHECK(odd[0]["task_id"] == std::string("\0task", 5));  // NUL is UTF-8
  CheckOneLineError(RunCli({"writes", "t1", "--store", f.store}), "CHECKPOINT");
  CheckOneLineError(
      RunCli({"writes", "t1", "\\q", "--escaped", "--store", f.store}),
      "bad escape");
}

TEST_CASE("diff: which channels changed and how") {
  InspectFixture f;
  Json rows = ParseJson(
      RunOk({"diff", "t1", "cp-02", "cp-05", "--json", "--store", f.store})
          .out);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["channel"] == "count");
  CHECK(rows[0]["change"] == "changed");
  CHECK(rows[0]["detail"] == "1 -> 2");
  CHECK(rows[1]["channel"] == "delta");
  CHECK(rows[1]["change"] == "added");
  CHECK(rows[2]["channel"] == "messages");
  CHECK(rows[2]["detail"] == "appended 3 items");
  CHECK(rows[2]["version_a"] == 2);
  CHECK(rows[2]["version_b"] == 5);

  Json back = ParseJson(
      RunOk({"diff", "t1", "cp-05", "cp-04", "--json", "--store", f.store})
          .out);
  REQUIRE(back.size() == 1);
  CHECK(back[0]["detail"] == "removed last 1 item");
  Json all = ParseJson(RunOk({"diff", "t1", "cp-04", "cp-05", "--all", "--json",
                              "--store", f.store})
                           .out);
  CHECK(all.size() == 3);
  CHECK(all[0]["change"] == "unchanged");

  RunResult table = RunOk({"diff", "t1", "cp-01", "cp-03", "--store", f.store});
  CHECK(table.out.find("appended 2 items") != std::string::npos);
  CheckOneLineError(RunCli({"diff", "t1", "cp-01", "--store", f.store}), "B");
  CheckOneLineError(RunCli({"diff", "t1", "cp-01", "zz", "--store", f.store}),
                    "checkpoint zz not found");
}

}  // namespace
}  // namespace rockpoint::cli_test
