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
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"
#include "rockpoint/rocksdb_checkpointer.h"

namespace rockpoint::testing {
namespace {

using std::chrono::milliseconds;

constexpr int kRounds = 24;
// Every kEarlyKillEvery-th round kills the child without waiting for an
// acknowledgement, usually while it opens (and recovers) the store.
constexpr int kEarlyKillEvery = 6;
// After every kCompactEvery-th round the parent compacts the store, so later
// rounds recover on top of flushed SST and blob files, not only the WAL.
constexpr int kCompactEvery = 4;
// Guards against a hung child; not a performance threshold.
constexpr milliseconds kHangGuard{30000};

const std::string kWriterBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/crash_writer_main";

// What the parent knows about one chain.
struct ChainState {
  int64_t found = 0;          // greatest n in the store at the last check.
  int64_t max_acked_put = 0;  // greatest acknowledged put.
  std::set<int64_t> acked_puts_this_round;
  std::set<int64_t> acked_writes;
};

uint64_t Seed() {
  const char* env = std::getenv("ROCKPOINT_CRASH_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240501;
}

std::string First(const std::vector<std::string>& problems) {
  std::string out;
  for (size_t i = 0; i < problems.size() && i < 5; ++i) {
    out += problems[i] + "\n";
  }
  return out;
}

// What the kills hit, for the test's message.
struct Tally {
  int64_t unacknowledged_puts_found = 0;   // in flight when killed, yet there.
  int64_t checkpoints_without_writes = 0;  // killed between put and writes.
};

// Checks the whole store against `state` and records the chains' lengths.
void VerifyStore(RocksDbCheckpointer* store, const std::vector<Chain>& chains,
                 std::vector<ChainState>* state, Tally* tally) {
  std::vector<std::string> problems;
  int64_t total = 0;
  for (const Chain& chain : chains) {
    ChainState& st = (*state)[chain.index];
    auto latest = store->GetTuple(ChainConfig(chain, 0));
    REQUIRE_MESSAGE(latest.ok(), latest.status().ToString());
    int64_t found = 0;
    if (latest->has_value()) {
      auto parsed =
          ParseChainCheckpointId((*latest)->config.checkpoint_id.value_or(""));
      REQUIRE(parsed.has_value());
      CHECK(parsed->first == chain.index);
      found = parsed->second;
    }
    CAPTURE(chain.index);
    // Every acknowledged put and everything seen after the last kill is
    // there; at most the one put in flight when the child died is extra.
    CHECK(found >= st.max_acked_put);
    CHECK(found >= st.found);
    CHECK(found <= std::max(st.max_acked_put, st.found) + 1);
    if (found > std::max(st.max_acked_put, st.found)) {
      ++tally->unacknowledged_puts_found;
    }

    // The chain is complete: ids found..1, each child of the one below.
    ListOptions chain_only;
    chain_only.config = ChainConfig(chain, 0);
    auto listed = store->ListAll(chain_only);
    REQUIRE_MESSAGE(listed.ok(), listed.status().ToString());
    REQUIRE(static_cast<int64_t>(listed->size()) == found);
    for (int64_t i = 0; i < found; ++i) {
      int64_t n = found - i;
      std::string problem =
          CheckChainTuple(chain, n, (*listed)[i], st.acked_writes.count(n) > 0);
      if (!problem.empty()) problems.push_back("list " + problem);
      if (i == 0 && (*listed)[i].pending_writes.empty()) {
        ++tally->checkpoints_without_writes;
      }
    }
    // get_tuple by id returns each acknowledged checkpoint intact.
    for (int64_t n : st.acked_puts_this_round) {
      auto got = store->GetTuple(ChainConfig(chain, n));
      REQUIRE_MESSAGE(got.ok(), got.status().ToString());
      if (!got->has_value()) {
        problems.push_back("acknowledged " + ChainCheckpointId(chain, n) +
                           " is missing");
        continue;
      }
      std::string problem =
          CheckChainTuple(chain, n, **got, st.acked_writes.count(n) > 0);
      if (!problem.empty()) problems.push_back("get_tuple " + problem);
    }
    st.acked_puts_this_round.clear();
    st.found = found;
    total += found;
  }

  // A list over all threads returns every record once, newest first, each
  // with every value its versions name and all or none of its writes.
  auto all = store->ListAll(ListOptions{});
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  CHECK(static_cast<int64_t>(all->size()) == total);
  std::string previous;
  for (const CheckpointTuple& tuple : *all) {
    const std::string& id = tuple.config.checkpoint_id.value_or("");
    if (!previous.empty() && !(id < previous)) {
      problems.push_back("list over all threads is not descending at " + id);
    }
    previous = id;
    auto parsed = ParseChainCheckpointId(id);
    if (!parsed || parsed->first >= static_cast<int>(chains.size())) {
      problems.push_back("unexpected checkpoint id " + id);
      continue;
    }
    const Chain& chain = chains[parsed->first];
    std::string problem = CheckChainTuple(
        chain, parsed->second, tuple,
        (*state)[chain.index].acked_writes.count(parsed->second) > 0);
    if (!problem.empty()) problems.push_back("list all " + problem);
  }

  // The thread index agrees: one entry per non-empty (thread, ns).
  ThreadSummary want;
  for (const Chain& chain : chains) {
    int64_t found = (*state)[chain.index].found;
    if (found == 0) continue;
    want[chain.thread_id][chain.ns] = {static_cast<uint64_t>(found),
                                       ChainCheckpointId(chain, found)};
  }
  auto got = SummarizeThreads(store);
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  CHECK_MESSAGE(*got == want, "list_threads " << DescribeThreadSummary(*got)
                                              << " want "
                                              << DescribeThreadSummary(want));
  CHECK_MESSAGE(problems.empty(), First(problems));
}

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
  int64_t acked_puts = 0;
  int64_t acked_writes = 0;
  Tally tally;

  for (int round = 0; round < kRounds; ++round) {
    CAPTURE(round);
    std::string error;
    auto child = ChildProcess::Spawn(kWriterBinary, {path, "crash-test"},
                                     /*pipe_stdin=*/false, &error);
    REQUIRE_MESSAGE(child.has_value(), error);

    std::vector<std::string> lines;
    auto deadline = ChildProcess::Clock::now();
    if (round % kEarlyKillEvery == kEarlyKillEvery - 1) {
      deadline += milliseconds(std::uniform_int_distribution<int>(0, 20)(rng));
    } else {
      // Wait for the first acknowledged put, then let the child run on.
      while (true) {
        auto line = child->ReadLine(kHangGuard);
        REQUIRE_MESSAGE(line.has_value(),
                        "writer stopped before its first put: "
                            << DescribeWaitStatus(child->Wait()));
        lines.push_back(*line);
        if (line->rfind("P ", 0) == 0) break;
      }
      deadline = ChildProcess::Clock::now() +
                 milliseconds(std::uniform_int_distribution<int>(3, 100)(rng));
    }
    while (auto line = child->ReadLineUntil(deadline)) lines.push_back(*line);
    child->Kill(SIGKILL);
    for (std::string& line : child->ReadRemainingLines(kHangGuard)) {
      lines.push_back(std::move(line));
    }
    int status = child->Wait();
    CHECK_MESSAGE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL),
                  "writer " << DescribeWaitStatus(status));

    for (const std::string& line : lines) {
      if (line == "READY") continue;
      auto ack = ParseCrashAck(line);
      REQUIRE_MESSAGE(ack.has_value(), "unexpected line: " << line);
      REQUIRE(ack->index >= 0);
      REQUIRE(ack->index < static_cast<int>(chains.size()));
      ChainState& st = state[ack->index];
      if (ack->kind == 'P') {
        st.max_acked_put = std::max(st.max_acked_put, ack->n);
        st.acked_puts_this_round.insert(ack->n);
        ++acked_puts;
      } else {
        st.acked_writes.insert(ack->n);
        ++acked_writes;
      }
    }

    auto opened = RocksDbCheckpointer::Open(CrashStoreOptions(path));
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    VerifyStore(opened->get(), chains, &state, &tally);
    if (round % kCompactEvery == kCompactEvery - 1) {
      Status compacted = (*opened)->Compact();
      CHECK_MESSAGE(compacted.ok(), compacted.ToString());
    }
  }
  MESSAGE("crash rounds " << kRounds << ": " << acked_puts
                          << " acknowledged puts, " << acked_writes
                          << " acknowledged put_writes; after kills, "
                          << tally.unacknowledged_puts_found
                          << " unacknowledged puts were found and "
                          << tally.checkpoints_without_writes
                          << " latest checkpoints had no writes yet");
  // Every non-early round waited for an acknowledged put.
  CHECK(acked_puts >= kRounds - kRounds / kEarlyKillEvery);
}

}  // namespace
}  // namespace rockpoint::testing
