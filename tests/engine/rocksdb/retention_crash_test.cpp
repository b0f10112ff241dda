// Retention on RocksDB under real processes: sweeps racing with writer
// threads keep every checkpoint written after they began, and a child
// process killed with SIGKILL in the middle of a sweep leaves a sound store
// where every surviving checkpoint reads as before and nothing that had not
// expired is lost.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "engine/delta_helpers.h"
#include "engine/retention_concurrency.h"
#include "engine/rocksdb/child_process.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

const std::string kSweepChild =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/sweep_child_main";
constexpr int kSweepThreads = 40;
constexpr int kSweepRounds = 8;

std::string ThreadName(int i) { return "thread-" + std::to_string(i); }

// Checkpoint i of each thread: hours 0..7 of 2026-11-01 (expired by the
// child's policy), then 8..11 at 2026-11-05 (kept). "msgs" is a full value
// every 5, so the kept cp0008 and cp0009 read through hidden cp0005..7.
std::string TsOf(int i) {
  return i < 8 ? "2026-11-01T0" + std::to_string(i) + ":00:00Z"
               : "2026-11-05T00:00:00Z";
}

std::unique_ptr<RocksDbCheckpointer> OpenCrashStore(const std::string& path) {
  return Unwrap(RocksDbCheckpointer::Open(CrashStoreOptions(path)));
}

TEST_CASE("rocksdb retention: sweeps racing writers keep fresh writes") {
  testing::TempDir dir;
  RocksDbOptions options;
  options.path = dir.Sub("store");
  options.sync_writes = false;
  auto store = Unwrap(RocksDbCheckpointer::Open(options));
  CheckSweepsRacingWriters(*store);
}

TEST_CASE("rocksdb retention: SIGKILL during a sweep loses nothing kept") {
  std::mt19937 random(20261127);
  for (int round = 0; round < kSweepRounds; ++round) {
    CAPTURE(round);
    testing::TempDir dir;
    const std::string path = dir.Sub("store");
    std::map<std::string, Readings> before;
    {
      auto store = OpenCrashStore(path);
      for (int t = 0; t < kSweepThreads; ++t) {
        PutDeltaThread(*store, ThreadName(t), "", 12, 5, TsOf);
        before[ThreadName(t)] = ReadThread(*store, ThreadName(t));
      }
      RP_REQUIRE_OK(store->Close());
    }
    std::string error;
    auto child = ChildProcess::Spawn(kSweepChild, {path}, false, &error);
    REQUIRE_MESSAGE(child.has_value(), error);
    REQUIRE(child->ReadLine(std::chrono::seconds(60)) == "READY");
    // Kill somewhere in the sweep (or after it, in some rounds).
    std::this_thread::sleep_for(std::chrono::microseconds(
        std::uniform_int_distribution<int>(0, 60000)(random)));
    child->Kill(SIGKILL);
    child->Wait();

    auto store = OpenCrashStore(path);
    const VerifyReport verify = Unwrap(VerifyStore(*store, nullptr));
    CHECK(verify.sound());
    for (int t = 0; t < kSweepThreads; ++t) {
      const std::string thread = ThreadName(t);
      CAPTURE(thread);
      const Readings after = ReadThread(*store, thread);
      CheckSameReadings(before[thread], after, thread);
      for (int i = 8; i < 12; ++i) CHECK(after.contains({"", CpId(i)}));
      // A thread is swept whole or not at all.
      CHECK((after.size() == 4 || after.size() == 12));
    }
  }
}

}  // namespace
}  // namespace rockpoint::testing
