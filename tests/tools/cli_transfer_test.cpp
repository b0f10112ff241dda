// `rockpoint export` / `import` end to end: the JSONL format round-trips a
// store exactly, across RocksDB, SQLite and JSONL journals, and bad input is
// refused before anything is written.
#include "engine/sqlite/sqlite_checkpointer.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

struct TransferFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  TransferFixture() { MakeFixtureStore(store); }
  std::string Export(const std::string& path,
                     std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"export", "--store", path};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunOk(args).out;
  }
};

TEST_CASE("export writes header, values, checkpoints, writes and trailer") {
  TransferFixture f;
  const std::string text = f.Export(f.store);
  std::vector<Json> lines = ParseJsonLines(text);
  REQUIRE(lines.size() > 3);
  CHECK(lines.front() ==
        ParseJson(
            R"({"kind":"header","format":"rockpoint-export","version":1})"));
  CHECK(lines.back()["kind"] == "end");
  CHECK(lines.back()["checkpoints"] == 11);
  CHECK(lines.back()["writes"] == 8);
  // Values are written once per (thread, ns, channel, version).
  int checkpoints = 0, values = 0;
  for (const Json& line : lines) {
    checkpoints += line["kind"] == "checkpoint";
    values += line["kind"] == "value";
  }
  CHECK(checkpoints == 11);
  CHECK(values == lines.back()["values"]);
  CHECK(values == 14);
  // Order: thread bytes, ns, checkpoint id; a value precedes its checkpoint.
  CHECK(lines[1]["kind"] == "value");
  CHECK(lines[1]["thread"] == "t1");
  CHECK(lines[1]["channel"] == "count");
  CHECK(lines[1]["version"] == 1);
  const Json& cp1 = lines[3];
  CHECK(cp1["kind"] == "checkpoint");
  CHECK(cp1["id"] == "cp-01");
  CHECK(cp1["parent"].is_null());
  CHECK(cp1["channel_versions"] ==
        ParseJson(R"([["count",1],["messages",1]])"));
  // String versions stay strings; "1" is not 1.
  CHECK(text.find(R"(["n","1"])") != std::string::npos);
  // Non-UTF-8 ids are {"b64": ...}.
  CHECK(text.find(R"("thread":{"b64":"/29kZABpZA=="})") != std::string::npos);

  std::vector<Json> one = ParseJsonLines(f.Export(f.store, {"t2"}));
  CHECK(one.back()["checkpoints"] == 3);
  CHECK(RunOk({"export", "t2", "t2", "--store", f.store}).out ==
        f.Export(f.store, {"t2"}));
  RunResult missing = RunCli({"export", "t2", "nope", "--store", f.store});
  CHECK(missing.status == 1);
  CHECK(missing.out.empty());
  CHECK(missing.err.find("thread not found: nope") != std::string::npos);
}

TEST_CASE(
    "export -> import -> export is byte-identical: RocksDB -> SQLite -> "
    "journal -> RocksDB") {
  TransferFixture f;
  const std::string original = f.Export(f.store);
  const std::string file = f.dir.Sub("original.jsonl.export");
  WriteFile(file, original);

  const std::string sqlite = f.dir.Sub("copy.db");
  Json counts =
      ParseJson(RunOk({"import", file, "--json", "--store", sqlite}).out);
  CHECK(counts["checkpoints"] == 11);
  CHECK(counts["dry_run"] == false);
  CHECK(f.Export(sqlite) == original);
  const std::string from_sqlite = f.dir.Sub("from-sqlite");
  WriteFile(from_sqlite, f.Export(sqlite));

  const std::string journal = f.dir.Sub("copy.jsonl");
  RunOk({"import", from_sqlite, "--store", journal});
  CHECK(ReadFile(journal).starts_with(
      R"({"kind":"header","format":"rockpoint-journal","version":3,"crc":"552875c0"})"));
  CHECK(f.Export(journal) == original);

  // The journal itself is an import's input, as an export is.
  const std::string rocksdb = f.dir.Sub("copy-rocksdb");
  RunOk({"import", journal, "--store", rocksdb});
  CHECK(f.Export(rocksdb) == original);

  // Reads agree too, not only exports.
  for (const std::string& store : {sqlite, journal, rocksdb}) {
    CHECK(RunOk({"show", "t1", "--json", "--store", store}).out ==
          RunOk({"show", "t1", "--json", "--store", f.store}).out);
    CHECK(RunOk({"threads", "--json", "--store", store}).out ==
          RunOk({"threads", "--json", "--store", f.store}).out);
  }
  // Through a pipe: import - reads stdin.
  const std::string piped = f.dir.Sub("piped");
  RunOk({"import", "-", "--store", piped}, {.stdin_path = file});
  CHECK(f.Export(piped) == original);
}

// The delta histories of t1/cp-05 for every channel it names, read through
// the library from a RocksDB or SQLite store.
std::string DeltaHistories(const std::string& path, bool sqlite) {
  std::unique_ptr<Checkpointer> store;
  if (sqlite) {
    auto opened = SqliteCheckpointer::Open(SqliteOptions{.path = path});
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    store = std::move(*opened);
  } else {
    RocksDbOptions options;
    options.path = path;
    auto opened = RocksDbCheckpointer::Open(options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    store = std::move(*opened);
  }
  auto history = store->GetDeltaChannelHistory(
      CheckpointConfig{"t1", "", "cp-05"}, {"count", "delta", "messages", "x"});
  REQUIRE_MESSAGE(history.ok(), history.status().ToString());
  std::string out;
  for (const auto& [channel, entry] : *history) {
    out += channel + ": seed " + (entry.seed ? entry.seed->bytes : "-");
    for (const PendingWrite& write : entry.writes) {
      out += " " + write.checkpoint_id + "/" + write.task_id + "=" +
             write.value.bytes;
    }
    out += "\n";
  }
  return out;
}

TEST_CASE(
    "a pruned store round-trips exactly, hidden checkpoints and delta "
    "histories included") {
  TransferFixture f;
  const std::string before_prune = DeltaHistories(f.store, false);
  // cp-05 reads "count" from cp-03 and "x" from cp-03's write.
  CHECK(before_prune.find("x: seed - cp-03/task-0=") != std::string::npos);
  RunOk({"prune", "t1", "--keep", "1", "--yes", "--store", f.store});
  CHECK(DeltaHistories(f.store, false) == before_prune);

  RunResult exported = RunOk({"export", "--store", f.store});
  CHECK(exported.err.empty());
  const std::string original = exported.out;
  size_t hidden_lines = 0;
  for (const Json& line : ParseJsonLines(original)) {
    if (line.contains("hidden")) {
      CHECK(line["hidden"] == true);
      ++hidden_lines;
    }
  }
  CHECK(hidden_lines == 4);  // cp-01 .. cp-04, kept for cp-05.
  const std::string file = f.dir.Sub("pruned.export");
  WriteFile(file, original);

  const std::string sqlite = f.dir.Sub("pruned.db");
  RunOk({"import", file, "--store", sqlite});
  CHECK(f.Export(sqlite) == original);
  CHECK(DeltaHistories(sqlite, true) == before_prune);
  const std::string journal = f.dir.Sub("pruned.jsonl");
  const std::string from_sqlite = f.dir.Sub("from-sqlite");
  WriteFile(from_sqlite, f.Export(sqlite));
  RunOk({"import", from_sqlite, "--store", journal});
  CHECK(f.Export(journal) == original);
  const std::string rocksdb = f.dir.Sub("pruned-rocksdb");
  RunOk({"import", journal, "--store", rocksdb});
  CHECK(f.Export(rocksdb) == original);
  CHECK(DeltaHistories(rocksdb, false) == before_prune);
  for (const std::string& store : {sqlite, journal, rocksdb}) {
    CAPTURE(store);
    Json report = ParseJson(RunOk({"verify", "--json", "--store", store}).out);
    CHECK(report["sound"] == true);
    CHECK(report["hidden_checkpoints"] == 4);
    CHECK(RunOk({"history", "t1", "--json", "--store", store}).out ==
          RunOk({"history", "t1", "--json", "--store", f.store}).out);
  }
}

TEST_CASE("import refuses bad input and writes nothing") {
  TransferFixture f;
  const std::string original = f.Export(f.store);
  const std::string target = f.dir.Sub("target.db");
  const auto import = [&](const std::string& text) {
    const std::string file = f.dir.Sub("input");
    WriteFile(file, text);
    return RunCli({"import", file, "--store", target});
  };
  // Truncated: the last lines (and the trailer) are missing.
  const size_t cut = original.rfind("\n", original.size() - 2);
  RunResult truncated = import(original.substr(0, cut + 1));
  CheckOneLineError(truncated, "truncated");
  CHECK(!std::filesystem::exists(target));  // a store it created goes away

  CheckOneLineError(import("not json\n"), "line 1");
  CheckOneLineError(import(""), "empty");
  std::string bad_line = original;
  bad_line.replace(bad_line.find("\"kind\":\"checkpoint\""), 19,
                   "\"kind\":\"chekpoint\"");
  CheckOneLineError(import(bad_line), "line ");
  std::string newer = original;
  newer.replace(newer.find("\"version\":1}"), 12, "\"version\":9}");
  CheckOneLineError(import(newer), "version 9");
  std::string unknown_field = original;
  unknown_field.replace(unknown_field.find("\"parent\":null"), 13,
                        "\"parent\":null,\"extra\":1");
  CheckOneLineError(import(unknown_field), "checkpoint.extra: unknown field");
  CHECK(!std::filesystem::exists(target));  // a store it created goes away

  // Into a store that already has the threads.
  const std::string file = f.dir.Sub("good");
  WriteFile(file, original);
  CheckOneLineError(RunCli({"import", file, "--store", f.store}),
                    "already exists");
  CheckOneLineError(RunCli({"import", f.dir.Sub("absent"), "--store",
                            f.dir.Sub("never-created.db")}),
                    "import file not found");
  CHECK(!std::filesystem::exists(f.dir.Sub("never-created.db")));
  Json dry = ParseJson(
      RunOk({"import", file, "--dry-run", "--json", "--store", target}).out);
  CHECK(dry["dry_run"] == true);
  CHECK(dry["checkpoints"] == 11);
  CHECK(!std::filesystem::exists(target));  // a store it created goes away
}

TEST_CASE("progress goes to stderr only when it is a terminal") {
  TransferFixture f;
  RunResult plain = RunOk({"export", "--store", f.store});
  CHECK(plain.err.empty());
  Terminal terminal("");
  RunResult shown =
      RunOk({"export", "--store", f.store}, {.stderr_path = terminal.path()});
  const std::string screen = terminal.Output();
  CHECK(screen.find("exporting checkpoints: ") != std::string::npos);
  CHECK(screen.ends_with("\r\033[K"));  // the line is erased at the end
  CHECK(shown.out == plain.out);
}

TEST_CASE("export -o writes the export to a file") {
  TransferFixture f;
  const std::string file = f.dir.Sub("export");
  WriteFile(file, f.Export(f.store));
  // Export to a file with -o.
  const std::string out = f.dir.Sub("out.jsonl");
  RunResult to_file = RunOk({"export", "-o", out, "--store", f.store});
  CHECK(to_file.out.empty());
  CHECK(ReadFile(out) == ReadFile(file));
}

}  // namespace
}  // namespace rockpoint::cli_test
