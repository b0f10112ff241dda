// `rockpoint copy`, `delete`, `delete-runs`, `prune` end to end: they change
// the store as the engine contract says, ask for --yes when stdin is not a
// terminal, and leave a store that verifies.
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

struct ModifyFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  ModifyFixture() { MakeFixtureStore(store); }
  Json Threads() const {
    return ParseJson(RunOk({"threads", "--json", "--store", store}).out);
  }
  Json History(const std::string& thread) const {
    return ParseJson(
        RunOk({"history", thread, "--json", "--store", store}).out);
  }
};

TEST_CASE("copy: same ids, parents, values and writes under a new thread") {
  ModifyFixture f;
  Json copied =
      ParseJson(RunOk({"copy", "t1", "t3", "--json", "--store", f.store}).out);
  CHECK(copied["checkpoints"] == 7);
  Json source =
      ParseJson(RunOk({"show", "t1", "--json", "--store", f.store}).out);
  Json target =
      ParseJson(RunOk({"show", "t3", "--json", "--store", f.store}).out);
  CHECK(target["thread"] == "t3");
  source["thread"] = "t3";
  CHECK(source == target);
  CheckOneLineError(RunCli({"copy", "t1", "t2", "--store", f.store}),
                    "already exists");
  CheckOneLineError(RunCli({"copy", "nope", "t9", "--store", f.store}),
                    "thread not found: nope");
  CheckOneLineError(RunCli({"copy", "t1", "--store", f.store}), "DST");
}

TEST_CASE("delete asks for --yes without a terminal, then deletes") {
  ModifyFixture f;
  RunResult refused = RunCli({"delete", "t2", "--store", f.store});
  CheckOneLineError(refused, "--yes");
  CHECK(f.Threads().size() == 4);
  Json deleted = ParseJson(
      RunOk({"delete", "t2", "--yes", "--json", "--store", f.store}).out);
  CHECK(deleted["deleted_checkpoints"] == 3);
  Json threads = f.Threads();
  CHECK(threads.size() == 3);
  for (const Json& row : threads) CHECK(row["thread"] != "t2");
  CheckOneLineError(RunCli({"delete", "t2", "-y", "--store", f.store}),
                    "thread not found");
  CheckOneLineError(RunCli({"delete", "--yes", "--store", f.store}), "THREAD");
}

TEST_CASE("on a terminal, delete asks and does only what is confirmed") {
  ModifyFixture f;
  {
    Terminal terminal("n\n");
    RunResult declined = RunCli({"delete", "t2", "--store", f.store},
                                {.stdin_path = terminal.path()});
    INFO(declined.err);
    CHECK(declined.status == 1);
    CHECK(declined.err.starts_with("Delete 1 thread(s) with 3 checkpoint(s)"));
    CHECK(declined.err.find("[y/N] rockpoint: error: Aborted: cancelled; "
                            "nothing changed\n") != std::string::npos);
    CHECK(f.Threads().size() == 4);
  }
  Terminal terminal("y\n");
  RunResult confirmed = RunCli({"delete", "t2", "--store", f.store},
                               {.stdin_path = terminal.path()});
  INFO(confirmed.err);
  CHECK(confirmed.status == 0);
  CHECK(f.Threads().size() == 3);
}

TEST_CASE("delete-runs removes the runs' checkpoints everywhere") {
  ModifyFixture f;
  CheckOneLineError(RunCli({"delete-runs", "run-b", "--store", f.store}),
                    "--yes");
  Json result = ParseJson(RunOk({"delete-runs", "run-b", "run-t2", "unknown",
                                 "--yes", "--json", "--store", f.store})
                              .out);
  CHECK(result["deleted_checkpoints"] == 6);
  Json history = f.History("t1");
  REQUIRE(history.size() == 4);
  CHECK(history[0]["checkpoint_id"] == "cp-03a");
  CHECK(history[1]["checkpoint_id"] == "cp-02a");
  CHECK(history[2]["checkpoint_id"] == "cp-02");
  Json threads = f.Threads();
  CHECK(threads.size() == 3);  // rows: (t1, ""), (t1, child:t), odd thread
  for (const Json& row : threads) CHECK(row["thread"] != "t2");
  RunOk({"verify", "--store", f.store});
}

TEST_CASE("prune keeps the newest N per namespace; --delete removes all") {
  ModifyFixture f;
  CheckOneLineError(RunCli({"prune", "t1", "--store", f.store}), "--yes");
  Json pruned = ParseJson(RunOk({"prune", "t1", "--keep", "1", "--yes",
                                 "--json", "--store", f.store})
                              .out);
  REQUIRE(pruned.size() == 1);
  CHECK(pruned[0]["before"] == 7);
  CHECK(pruned[0]["after"] == 2);
  Json history = f.History("t1");
  REQUIRE(history.size() == 2);
  CHECK(history[0]["checkpoint_id"] == "cp-05");
  CHECK(history[1]["checkpoint_id"] == "cp-03a");
  // cp-05's "delta" channel runs through its ancestors, which stay hidden:
  // verify accepts hidden checkpoints without run/ts index entries (its one
  // warning is cp-03a's removed parent).
  Json report = ParseJson(RunOk({"verify", "--json", "--store", f.store}).out);
  CHECK(report["sound"] == true);
  CHECK(report["hidden_checkpoints"] == 4);
  CHECK(report["warnings"] == 1);
  Json stats = ParseJson(RunOk({"stats", "--json", "--store", f.store}).out);
  CHECK(stats["checkpoints"] == 6);  // 2 of t1, 3 of t2, 1 of the odd thread
  CHECK(stats["hidden_checkpoints"] == 4);
  Json all = ParseJson(RunOk({"history", "t1", "--ns", "", "--include-hidden",
                              "--json", "--store", f.store})
                           .out);
  REQUIRE(all.size() == 5);
  CHECK(all[0]["checkpoint_id"] == "cp-05");
  CHECK(all[0]["hidden"] == false);
  for (size_t i = 1; i < all.size(); ++i) CHECK(all[i]["hidden"] == true);
  CHECK_FALSE(history[0].contains("hidden"));
  const std::string table =
      RunOk({"history", "t1", "--include-hidden", "--store", f.store}).out;
  CHECK(table.find("HIDDEN") != std::string::npos);
  // show and writes reach a hidden checkpoint by id and say it is hidden.
  Json hidden = ParseJson(
      RunOk({"show", "t1", "cp-03", "--json", "--store", f.store}).out);
  CHECK(hidden["hidden"] == true);
  CHECK(hidden["checkpoint_id"] == "cp-03");
  Json visible =
      ParseJson(RunOk({"show", "t1", "--json", "--store", f.store}).out);
  CHECK(visible["checkpoint_id"] == "cp-05");
  CHECK_FALSE(visible.contains("hidden"));
  CHECK(ParseJson(
            RunOk({"writes", "t1", "cp-03", "--json", "--store", f.store}).out)
            .size() == 2);

  RunOk({"prune", "t2", "--delete", "--yes", "--store", f.store});
  Json threads = f.Threads();
  CHECK(threads.size() == 3);  // rows: (t1, ""), (t1, child:t), odd thread
  for (const Json& row : threads) CHECK(row["thread"] != "t2");
  CheckOneLineError(RunCli({"prune", "nope", "--yes", "--store", f.store}),
                    "thread not found");
}

TEST_CASE("a write command on a locked store says it is locked") {
  ModifyFixture f;
  RocksDbOptions options;
  options.path = f.store;
  auto holder = RocksDbCheckpointer::Open(options);
  REQUIRE(holder.ok());
  CheckOneLineError(RunCli({"delete", "t2", "--yes", "--store", f.store}),
                    "locked");
  // Reading does not need the lock.
  CHECK(f.Threads().size() == 4);
}

}  // namespace
}  // namespace rockpoint::cli_test
