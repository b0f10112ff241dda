// Error messages a new user meets: each says what is wrong and, where the
// OS or the store knows why, the reason.
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

struct MessagesFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  MessagesFixture() { MakeFixtureStore(store); }
};

TEST_CASE("counts must be whole numbers in range") {
  MessagesFixture f;
  for (const std::string value : {"0", "99999999999999999999", "-1", "2.5"}) {
    CAPTURE(value);
    RunResult result =
        RunCli({"history", "t1", "--limit", value, "--store", f.store});
    CheckOneLineError(result, "--limit: must be a whole number from 1 to " +
                                  std::to_string(1000000000) + ", not " +
                                  value);
    CHECK(result.err.find("1797693134862315708145") == std::string::npos);
  }
  CheckOneLineError(
      RunCli({"prune", "t1", "--keep", "0", "--yes", "--store", f.store}),
      "--keep: must be a whole number");
  CheckOneLineError(RunCli({"threads", "--limit", "0", "--store", f.store}),
                    "--limit: must be a whole number");
  CHECK(ParseJson(RunOk({"history", "t1", "--limit", "2", "--json", "--store",
                         f.store})
                      .out)
            .size() == 2);
}

TEST_CASE("export to a missing directory gives the OS reason") {
  MessagesFixture f;
  const std::string out = f.dir.Sub("missing/out.jsonl");
  CheckOneLineError(RunCli({"export", "-o", out, "--store", f.store}),
                    "cannot write " + out +
                        ".partial: No such file or "
                        "directory");
}

TEST_CASE("--backend jsonl on a directory says it needs a file") {
  MessagesFixture f;
  CheckOneLineError(
      RunCli({"threads", "--backend", "jsonl", "--store", f.store}),
      "--backend jsonl needs a journal file, and " + f.store +
          " is a directory");
}

TEST_CASE("a store opened twice in one process says so") {
  MessagesFixture f;
  RocksDbOptions options;
  options.path = f.store;
  auto first = RocksDbCheckpointer::Open(options);
  REQUIRE(first.ok());
  auto second = RocksDbCheckpointer::Open(options);
  REQUIRE(!second.ok());
  CHECK(second.status().IsBusy());
  CHECK(second.status().message() ==
        "store is already open in this process: " + f.store);
  // Another process is told the store is locked by another process.
  CheckOneLineError(RunCli({"delete", "t2", "--yes", "--store", f.store}),
                    "store is locked by another process");
}

}  // namespace
}  // namespace rockpoint::cli_test
