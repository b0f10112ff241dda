// Rekey under SIGKILL: a child process re-keying a RocksDB store is killed
// at a random moment; the store then opens under exactly one of the two
// keys and reads as before, and the next Rekey finishes the job.
#include <doctest/doctest.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "engine/delta_helpers.h"
#include "engine/rocksdb/child_process.h"
#include "engine/rocksdb/encryption_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace encryption_test;  // NOLINT: test helpers

const std::string kRekeyChild =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/rekey_child_main";
constexpr int kRekeyThreads = 30;
constexpr int kRekeyRounds = 6;

std::string ThreadName(int i) { return "thread-" + std::to_string(i); }

TEST_CASE("rocksdb encryption: SIGKILL during Rekey leaves one whole store") {
  std::mt19937 random(20261127);
  for (int round = 0; round < kRekeyRounds; ++round) {
    CAPTURE(round);
    TempDir dir;
    const std::string path = dir.Sub("store");
    std::map<std::string, Readings> before;
    {
      auto store =
          Unwrap(RocksDbCheckpointer::Open(EncryptedOptions(path, KeyA())));
      for (int t = 0; t < kRekeyThreads; ++t) {
        PutDeltaThread(*store, ThreadName(t), "", 12, 5);
        before[ThreadName(t)] = ReadThread(*store, ThreadName(t));
      }
    }
    std::string error;
    auto child =
        ChildProcess::Spawn(kRekeyChild, {path, "A", "B"}, false, &error);
    REQUIRE_MESSAGE(child.has_value(), error);
    REQUIRE(child->ReadLine(std::chrono::seconds(60)) == "READY");
    std::this_thread::sleep_for(std::chrono::microseconds(
        std::uniform_int_distribution<int>(0, 150000)(random)));
    child->Kill(SIGKILL);
    child->Wait();

    auto under_a = RocksDbCheckpointer::Open(EncryptedOptions(path, KeyA()));
    auto under_b = RocksDbCheckpointer::Open(EncryptedOptions(path, KeyB()));
    REQUIRE(under_a.ok() != under_b.ok());
    const std::string key = under_a.ok() ? KeyA() : KeyB();
    {
      RocksDbCheckpointer& store = under_a.ok() ? **under_a : **under_b;
      CHECK(Unwrap(VerifyStore(store, nullptr)).sound());
      for (int t = 0; t < kRekeyThreads; ++t) {
        const Readings after = ReadThread(store, ThreadName(t));
        CHECK(after.size() == before[ThreadName(t)].size());
        CheckSameReadings(before[ThreadName(t)], after, ThreadName(t));
      }
    }
    under_a = Status::Aborted("closed");
    under_b = Status::Aborted("closed");
    // The next Rekey (to key A, from whichever key holds) cleans up.
    RP_REQUIRE_OK(RocksDbCheckpointer::Rekey(EncryptedOptions(path, key),
                                             EncryptionOptions{KeyA()}));
    auto store =
        Unwrap(RocksDbCheckpointer::Open(EncryptedOptions(path, KeyA())));
    CHECK(ReadThread(*store, ThreadName(0)).size() ==
          before[ThreadName(0)].size());
  }
}

}  // namespace
}  // namespace rockpoint::testing
