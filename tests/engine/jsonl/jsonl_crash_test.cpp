// Durability of the JSONL journal under SIGKILL, as engine/rocksdb's
// crash_test checks RocksDB: a child process (jsonl_crash_writer_main)
// writes chains with synced puts and put_writes, compacting now and then,
// and acknowledges each call on a pipe; the parent kills it at a random
// moment, reopens the journal read-write (which cuts a torn tail) and checks
// that every acknowledged call survived and nothing is half-written. The
// rounds run on one journal, each continuing the chains of the last. Also:
// a journal a live process holds is Busy for this one.
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_checks.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"

namespace rockpoint::testing {
namespace {

// Fewer rounds than RocksDB's crash test: a journal has one file and one
// recovery path (replay, cut the tail), and the suite must stay quick.
constexpr int kRounds = 12;
// Every kEarlyKillEvery-th round kills the child without waiting for an
// acknowledgement, usually while it opens (replays) the journal.
constexpr int kEarlyKillEvery = 4;
// After every kCompactEvery-th round the parent compacts the journal, so
// later rounds replay a snapshot, not only appended groups.
constexpr int kCompactEvery = 3;

const std::string kWriterBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/jsonl_crash_writer_main";

JsonlOptions JournalOptions(const std::string& path) {
  JsonlOptions options;
  options.path = path;
  options.sync_writes = true;
  return options;
}

TEST_CASE(
    "jsonl: a SIGKILLed synced writer loses no acknowledged call and leaves "
    "nothing half-written") {
  uint64_t seed = Seed();
  INFO("seed " << seed << " (set ROCKPOINT_CRASH_SEED to replay)");
  std::mt19937_64 rng(seed);
  TempDir dir("jsonl-crash");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store.jsonl");
  const std::vector<Chain> chains = CrashChains("jsonl-crash");
  std::vector<ChainState> state(chains.size());
  Tally tally;

  for (int round = 0; round < kRounds; ++round) {
    CAPTURE(round);
    const bool early = round % kEarlyKillEvery == kEarlyKillEvery - 1;
    RecordAcks(
        RunKilledWriter(kWriterBinary, {path, "jsonl-crash"}, early, &rng),
        &state, &tally);

    auto opened = JsonlCheckpointer::Open(JournalOptions(path));
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    auto stats = (*opened)->Stats();
    REQUIRE_MESSAGE(stats.ok(), stats.status().ToString());
    if (stats->torn_tail_bytes > 0) ++tally.torn_tails;
    // The read-write open cut the torn tail: the file is what it counts.
    CHECK(stats->file_bytes == std::filesystem::file_size(path));
    VerifyStore(opened->get(), chains, &state, &tally);
    if (round % kCompactEvery == kCompactEvery - 1) {
      Status compacted = (*opened)->Compact();
      CHECK_MESSAGE(compacted.ok(), compacted.ToString());
    }
  }
  MESSAGE(
      "jsonl crash rounds "
      << kRounds << ": " << tally.acked_puts << " acknowledged puts, "
      << tally.acked_writes << " acknowledged put_writes, "
      << tally.acked_compactions << " acknowledged compactions; after kills, "
      << tally.unacknowledged_puts_found << " unacknowledged puts were found, "
      << tally.checkpoints_without_writes
      << " latest checkpoints had no writes yet, " << tally.torn_tails
      << " opens cut a torn tail");
  // Every non-early round waited for an acknowledged put.
  CHECK(tally.acked_puts >= kRounds - kRounds / kEarlyKillEvery);
}

TEST_CASE("jsonl: a journal another process has open is Busy") {
  TempDir dir("jsonl-busy");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store.jsonl");
  std::string error;
  auto child = ChildProcess::Spawn(kWriterBinary, {path, "jsonl-busy"},
                                   /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  auto ready = child->ReadLine(kCrashHangGuard);
  if (!ready.has_value()) {  // see RunKilledWriter: no lazy Wait().
    child->Kill(SIGKILL);
    FAIL("writer did not start: " << DescribeWaitStatus(child->Wait()));
  }
  REQUIRE(*ready == "READY");

  auto busy = JsonlCheckpointer::Open(JournalOptions(path));
  CAPTURE(busy.status().ToString());
  CHECK(busy.status().IsBusy());
  JsonlOptions read_only = JournalOptions(path);
  read_only.read_only = true;
  CHECK(JsonlCheckpointer::Open(read_only).ok());  // readers take no lock.

  child->Kill(SIGKILL);
  child->Wait();
  auto opened = JsonlCheckpointer::Open(JournalOptions(path));
  CHECK_MESSAGE(opened.ok(), opened.status().ToString());
}

}  // namespace
}  // namespace rockpoint::testing
