// Durability under SIGKILL: a child process (crash_writer_main) writes
// chains with synced puts and put_writes and acknowledges each call on a
// pipe; the parent kills it at a random moment, reopens the store and checks
// that every acknowledged call survived and nothing is half-written. Many
// rounds run on one store, each continuing the chains of the last.
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_checks.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint::testing {
namespace {

constexpr int kRounds = 24;
// Every kEarlyKillEvery-th round kills the child without waiting for an
// acknowledgement, usually while it opens (and recovers) the store.
constexpr int kEarlyKillEvery = 6;
// After every kCompactEvery-th round the parent compacts the store, so later
// rounds recover on top of flushed SST and blob files, not only the WAL.
constexpr int kCompactEvery = 4;

const std::string kWriterBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/crash_writer_main";

TEST_CASE(
    "a SIGKILLed synced writer loses no acknowledged call and leaves "
    "nothing half-written") {
  uint64_t seed = Seed();
  INFO("seed " << seed << " (set ROCKPOINT_CRASH_SEED to replay)");
  std::mt19937_64 rng(seed);
  TempDir dir("crash");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store");
  const std::vector<Chain> chains = CrashChains("crash-test");
  std::vector<ChainState> state(chains.size());
  Tally tally;

  for (int round = 0; round < kRounds; ++round) {
    CAPTURE(round);
    const bool early = round % kEarlyKillEvery == kEarlyKillEvery - 1;
    RecordAcks(
        RunKilledWriter(kWriterBinary, {path, "crash-test"}, early, &rng),
        &state, &tally);

    auto opened = RocksDbCheckpointer::Open(CrashStoreOptions(path));
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    VerifyStore(opened->get(), chains, &state, &tally);
    if (round % kCompactEvery == kCompactEvery - 1) {
      Status compacted = (*opened)->Compact();
      CHECK_MESSAGE(compacted.ok(), compacted.ToString());
    }
  }
  MESSAGE("crash rounds " << kRounds << ": " << tally.acked_puts
                          << " acknowledged puts, " << tally.acked_writes
                          << " acknowledged put_writes; after kills, "
                          << tally.unacknowledged_puts_found
                          << " unacknowledged puts were found and "
                          << tally.checkpoints_without_writes
                          << " latest checkpoints had no writes yet");
  // Every non-early round waited for an acknowledged put.
  CHECK(tally.acked_puts >= kRounds - kRounds / kEarlyKillEvery);
}

}  // namespace
}  // namespace rockpoint::testing
