// `prune --older-than / --idle / --keep` and `stats` with a policy, on
// RocksDB, SQLite and JSONL stores: a dry run without --yes, the same
// figures applied with it, a question on a terminal, clear errors.
#include "engine/delta_helpers.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

constexpr const char* kNow = "2026-11-02T08:00:00Z";

// "2026-11-01T<hour>:00:00Z" for checkpoint i of thread `offset`.
std::string HourTs(int hour) {
  char ts[32];
  std::snprintf(ts, sizeof(ts), "2026-11-%02dT%02d:00:00Z", 1 + hour / 24,
                hour % 24);
  return ts;
}

// Threads "a" (hours 0..11), "b" (hours 20..31), "c" (hours 0..3), each a
// chain with a delta channel, in a store of `backend` at `path`.
void MakeStore(const std::string& backend, const std::string& path) {
  std::unique_ptr<Checkpointer> store;
  if (backend == "rocksdb") {
    store = testing::Unwrap(RocksDbCheckpointer::Open({.path = path}));
  } else if (backend == "sqlite") {
    store = testing::Unwrap(SqliteCheckpointer::Open({.path = path}));
  } else {
    store = testing::Unwrap(JsonlCheckpointer::Open({.path = path}));
  }
  testing::PutDeltaThread(*store, "a", "", 12, 4, HourTs);
  testing::PutDeltaThread(*store, "b", "", 12, 4,
                          [](int i) { return HourTs(20 + i); });
  testing::PutDeltaThread(*store, "c", "", 4, 4, HourTs);
  RP_REQUIRE_OK(store->Close());
}

size_t HistoryLength(const std::string& store, const std::string& thread) {
  return ParseJson(RunOk({"history", thread, "--json", "--store", store}).out)
      .size();
}

TEST_CASE("prune --older-than is a dry run without --yes, applied with it") {
  for (const std::string backend : {"rocksdb", "sqlite", "jsonl"}) {
    CAPTURE(backend);
    TempDir dir;
    const std::string store = dir.Sub(backend == "rocksdb"  ? "s.rpdb"
                                      : backend == "sqlite" ? "s.db"
                                                            : "s.jsonl");
    MakeStore(backend, store);
    // Older than hour 10 (22 hours before hour 32): a0..a9, all of c.
    const std::vector<std::string> prune = {"prune",   "--older-than", "22h",
                                            "--now",   kNow,           "--json",
                                            "--store", store};
    Json dry = ParseJson(RunOk(prune).out);
    CHECK(dry["dry_run"] == true);
    CHECK(dry["threads_examined"] == 3);
    CHECK(dry["checkpoints_expired"] == 14);
    CHECK(dry["checkpoints_hidden"] == 2);  // a8, a9: a10's delta history.
    CHECK(dry["threads_emptied"] == 1);
    CHECK(dry["bytes"].get<uint64_t>() > 0);
    CHECK(HistoryLength(store, "a") == 12);

    Json stats = ParseJson(RunOk({"stats", "--older-than", "22h", "--now", kNow,
                                  "--json", "--store", store})
                               .out);
    CHECK(stats["reclaimable"] == dry);

    std::vector<std::string> apply = prune;
    apply.push_back("--yes");
    Json applied = ParseJson(RunOk(apply).out);
    CHECK(applied["dry_run"] == false);
    applied["dry_run"] = true;
    CHECK(applied == dry);
    CHECK(HistoryLength(store, "a") == 2);
    CHECK(HistoryLength(store, "b") == 12);
    CHECK(
        ParseJson(RunOk({"threads", "--json", "--store", store}).out).size() ==
        2);
    if (backend != "jsonl") {
      CHECK(ParseJson(
                RunOk({"verify", "--json", "--store", store}).out)["sound"] ==
            true);
    }
    Json again = ParseJson(RunOk(apply).out);
    CHECK(again["checkpoints_expired"] == 0);
  }
}

TEST_CASE("prune --idle, --keep as a floor, --keep over every thread") {
  TempDir dir;
  const std::string store = dir.Sub("s.rpdb");
  MakeStore("rocksdb", store);
  Json idle = ParseJson(RunOk({"prune", "--idle", "20h", "--keep", "3", "--now",
                               kNow, "--yes", "--json", "--store", store})
                            .out);
  // a (last at hour 11) and c (hour 3) are idle (past hour 12); each keeps
  // its newest 3.
  CHECK(idle["checkpoints_expired"] == 9 + 1);
  CHECK(HistoryLength(store, "a") == 3);
  CHECK(HistoryLength(store, "c") == 3);
  CHECK(HistoryLength(store, "b") == 12);
  Json keep = ParseJson(
      RunOk({"prune", "--keep", "2", "--yes", "--json", "--store", store}).out);
  CHECK(keep["checkpoints_expired"] == 1 + 1 + 10);
  // Named threads only.
  RunOk({"prune", "b", "--older-than", "1h", "--now", kNow, "--yes", "--store",
         store});
  CHECK(HistoryLength(store, "b") == 1);  // hour 31 is not older than 1h.
  CHECK(HistoryLength(store, "a") == 2);
}

TEST_CASE("on a terminal, prune --older-than shows what would go and asks") {
  TempDir dir;
  const std::string store = dir.Sub("s.rpdb");
  MakeStore("rocksdb", store);
  const std::vector<std::string> prune = {
      "prune", "--older-than", "22h", "--now", kNow, "--store", store};
  {
    Terminal terminal("n\n");
    RunResult declined = RunCli(prune, {.stdin_path = terminal.path()});
    INFO(declined.err);
    CHECK(declined.status == 1);
    CHECK(declined.out.find("checkpoints_expired") != std::string::npos);
    CHECK(declined.err.starts_with("Expire 14 checkpoint(s) in "));
    CHECK(declined.err.find("cancelled; nothing changed") != std::string::npos);
    CHECK(HistoryLength(store, "a") == 12);
  }
  Terminal terminal("y\n");
  RunResult confirmed = RunCli(prune, {.stdin_path = terminal.path()});
  INFO(confirmed.err);
  CHECK(confirmed.status == 0);
  CHECK(HistoryLength(store, "a") == 2);
}

TEST_CASE("prune and stats refuse bad retention flags, changing nothing") {
  TempDir dir;
  const std::string store = dir.Sub("s.rpdb");
  MakeStore("rocksdb", store);
  CheckOneLineError(
      RunCli({"prune", "--older-than", "3x", "--yes", "--store", store}),
      "--older-than: must be a whole number and a unit");
  CheckOneLineError(RunCli({"prune", "--idle=-1d", "--yes", "--store", store}),
                    "--idle");
  CheckOneLineError(RunCli({"prune", "--older-than", "1d", "--now", "noon",
                            "--yes", "--store", store}),
                    "--now: must be an ISO-8601 time");
  CheckOneLineError(RunCli({"prune", "--yes", "--store", store}),
                    "name the THREADs to prune");
  CheckOneLineError(RunCli({"prune", "a", "--delete", "--idle", "1d", "--yes",
                            "--store", store}),
                    "--delete excludes --older-than and --idle");
  CheckOneLineError(
      RunCli({"prune", "zz", "--older-than", "1d", "--yes", "--store", store}),
      "thread not found");
  CheckOneLineError(RunCli({"stats", "--older-than", "soon", "--store", store}),
                    "--older-than");
  CHECK(HistoryLength(store, "a") == 12);
  CHECK(HistoryLength(store, "c") == 4);
}

}  // namespace
}  // namespace rockpoint::cli_test
