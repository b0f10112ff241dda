// Durability of the item store under SIGKILL: a child (item_writer_main)
// puts with synced writes, and sweeps, acknowledging each call; the parent
// kills it at a random moment, reopens the store and checks that every
// acknowledged put is there, no expired item is returned, and the families
// agree (Verify). The rounds continue on one store. The same holds when a
// checkpoint store shares the directory: every acknowledged checkpoint is
// there too.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/rocksdb/child_process.h"
#include "engine/store/kill_checkpoint_id.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"
#include "rockpoint/store.h"
#include "temp_dir.h"

namespace rockpoint {
namespace {

using rockpoint::serde::Value;
using rockpoint::testing::ChildProcess;

const std::string kWriter =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/item_writer_main";

// Runs the writer from `start` until it has acknowledged a random number
// of puts, kills it, and returns the highest acknowledged put (start - 1
// when none).
int64_t RunAndKill(const std::string& dir, const std::string& mode,
                   int64_t start, std::mt19937_64& rng) {
  std::string error;
  auto child = ChildProcess::Spawn(kWriter, {dir, mode, std::to_string(start)},
                                   false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  const int wanted = std::uniform_int_distribution<int>(5, 60)(rng);
  int64_t acked = start - 1;
  int puts = 0;
  while (puts < wanted) {
    auto line = child->ReadLine(std::chrono::seconds(30));
    if (!line) {
      child->Kill(SIGKILL);
      FAIL("writer stopped: " << child->Wait());
    }
    if (line->rfind("P ", 0) == 0) {
      acked = std::stoll(line->substr(2));
      ++puts;
    }
  }
  child->Kill(SIGKILL);
  for (const std::string& line :
       child->ReadRemainingLines(std::chrono::seconds(30))) {
    if (line.rfind("P ", 0) == 0) acked = std::stoll(line.substr(2));
  }
  const int status = child->Wait();
  CHECK(WIFSIGNALED(status));
  return acked;
}

// Every put up to `acked` is there with its value; the store is sound.
void CheckRecovered(const std::string& dir, int64_t acked) {
  StoreOpenOptions options;
  // Ten days ahead: every one-minute item has expired.
  options.clock = [] {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           int64_t{10} * 24 * 3600 * 1000000;
  };
  auto store = OpenStore(dir, options);
  REQUIRE(store.ok());
  for (int64_t i = 0; i <= acked; ++i) {
    auto item = (*store)->Get({{"kill", "puts"}, "k" + std::to_string(i)});
    REQUIRE(item.ok());
    REQUIRE_MESSAGE(item->has_value(), "acknowledged put k" << i << " lost");
    CHECK((*item)->value == Value(Value::Map{{"i", i}}));
  }
  SearchOp expired;
  expired.ns_prefix = {"kill", "ttl"};
  auto found = (*store)->Search(expired);
  REQUIRE(found.ok());
  CHECK(found->empty());
  auto report = (*store)->Verify();
  REQUIRE(report.ok());
  for (const std::string& problem : report->problems) FAIL_CHECK(problem);
  REQUIRE((*store)->Close().ok());
}

// Kills the writer `modes.size()` times on `path`, in modes[round], each
// round continuing the puts after the last acknowledged one, and runs
// `check(acked)` after each.
void KillRounds(const std::string& path, const std::vector<std::string>& modes,
                const std::function<void(int64_t acked)>& check) {
  std::mt19937_64 rng(std::random_device{}());
  int64_t next = 0;
  for (size_t round = 0; round < modes.size(); ++round) {
    CAPTURE(round);
    const int64_t acked = RunAndKill(path, modes[round], next, rng);
    CHECK(acked >= next);
    check(acked);
    next = acked + 1;
  }
}

TEST_CASE("store kill: no acknowledged put is lost, sweeps stay atomic") {
  testing::TempDir dir("store-kill");
  const std::string path = dir.Sub("items");
  KillRounds(path, {"puts", "sweep", "puts", "sweep"},
             [&](int64_t acked) { CheckRecovered(path, acked); });
  // A full sweep then leaves none of the expired items.
  StoreOpenOptions options;
  options.clock = [] { return int64_t{1} << 62; };
  auto store = OpenStore(path, options);
  REQUIRE(store.ok());
  REQUIRE((*store)->SweepExpired().ok());
  ListNamespacesOp list;
  auto namespaces = (*store)->ListNamespaces(list);
  REQUIRE(namespaces.ok());
  CHECK(*namespaces == std::vector<Namespace>{{"kill", "puts"}});
}

// Every checkpoint of thread "kill" up to `acked` is there, and the
// checkpoint store is sound.
void CheckCheckpointsRecovered(const std::string& dir, int64_t acked) {
  auto checkpoints = Open(dir);
  REQUIRE_MESSAGE(checkpoints.ok(), checkpoints.status().ToString());
  for (int64_t i = 0; i <= acked; ++i) {
    CheckpointConfig config;
    config.thread_id = "kill";
    config.checkpoint_id = store_testing::KillCheckpointId(i);
    auto tuple = (*checkpoints)->GetTuple(config);
    REQUIRE(tuple.ok());
    REQUIRE_MESSAGE(tuple->has_value(), "acknowledged checkpoint "
                                            << *config.checkpoint_id
                                            << " lost");
  }
  auto report = Verify(**checkpoints);
  REQUIRE(report.ok());
  CHECK(report->sound());
  REQUIRE((*checkpoints)->Close().ok());
}

TEST_CASE("store kill: checkpoints and items in one directory survive") {
  testing::TempDir dir("store-kill-both");
  const std::string path = dir.Sub("agent");
  KillRounds(path, {"both", "both", "both"}, [&](int64_t acked) {
    CheckRecovered(path, acked);
    CheckCheckpointsRecovered(path, acked);
  });
}

}  // namespace
}  // namespace rockpoint
