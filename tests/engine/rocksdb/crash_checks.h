// The parent's side of the SIGKILL crash test (the contract's kill case,
// tests/engine/contract_kill.h, on RocksDB and JSONL): running a writer child
// until it is killed, and checking a reopened store against what the child
// acknowledged (crash_protocol.h): every acknowledged put and write is
// there, at most the one put in flight is extra, chains are whole, lists
// and the thread index agree.
//
// Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::testing {

// Guards against a hung child; not a performance threshold.
inline constexpr std::chrono::milliseconds kCrashHangGuard{30000};

// What the parent knows about one chain.
struct ChainState {
  int64_t found = 0;          // greatest n in the store at the last check.
  int64_t max_acked_put = 0;  // greatest acknowledged put.
  std::set<int64_t> acked_puts_this_round;
  std::set<int64_t> acked_writes;
};

inline uint64_t Seed() {
  const char* env = std::getenv("ROCKPOINT_CRASH_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20240501;
}

inline std::string First(const std::vector<std::string>& problems) {
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
  int64_t acked_puts = 0;
  int64_t acked_writes = 0;
  int64_t torn_tails = 0;         // JSONL: opens that cut a tail.
  int64_t acked_compactions = 0;  // JSONL: by the child.
};

// One chain against `st`: its latest, its whole list, and each checkpoint
// acknowledged this round by id. Returns the chain's length.
inline int64_t VerifyChain(Checkpointer* store, const Chain& chain,
                           ChainState* st, Tally* tally,
                           std::vector<std::string>* problems) {
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
  // Every acknowledged put and everything seen after the last kill is there;
  // at most the one put in flight when the child died is extra.
  CHECK(found >= st->max_acked_put);
  CHECK(found >= st->found);
  CHECK(found <= std::max(st->max_acked_put, st->found) + 1);
  if (found > std::max(st->max_acked_put, st->found)) {
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
        CheckChainTuple(chain, n, (*listed)[i], st->acked_writes.count(n) > 0);
    if (!problem.empty()) problems->push_back("list " + problem);
    if (i == 0 && (*listed)[i].pending_writes.empty()) {
      ++tally->checkpoints_without_writes;
    }
  }
  // get_tuple by id returns each acknowledged checkpoint intact.
  for (int64_t n : st->acked_puts_this_round) {
    auto got = store->GetTuple(ChainConfig(chain, n));
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    if (!got->has_value()) {
      problems->push_back("acknowledged " + ChainCheckpointId(chain, n) +
                          " is missing");
      continue;
    }
    std::string problem =
        CheckChainTuple(chain, n, **got, st->acked_writes.count(n) > 0);
    if (!problem.empty()) problems->push_back("get_tuple " + problem);
  }
  st->acked_puts_this_round.clear();
  st->found = found;
  return found;
}

// A list over all threads returns every record once, newest first, each
// with every value its versions name and all or none of its writes.
inline void VerifyListAll(Checkpointer* store, const std::vector<Chain>& chains,
                          const std::vector<ChainState>& state, int64_t total,
                          std::vector<std::string>* problems) {
  auto all = store->ListAll(ListOptions{});
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  CHECK(static_cast<int64_t>(all->size()) == total);
  std::string previous;
  for (const CheckpointTuple& tuple : *all) {
    const std::string& id = tuple.config.checkpoint_id.value_or("");
    if (!previous.empty() && !(id < previous)) {
      problems->push_back("list over all threads is not descending at " + id);
    }
    previous = id;
    auto parsed = ParseChainCheckpointId(id);
    if (!parsed || parsed->first >= static_cast<int>(chains.size())) {
      problems->push_back("unexpected checkpoint id " + id);
      continue;
    }
    const Chain& chain = chains[parsed->first];
    std::string problem = CheckChainTuple(
        chain, parsed->second, tuple,
        state[chain.index].acked_writes.count(parsed->second) > 0);
    if (!problem.empty()) problems->push_back("list all " + problem);
  }
}

// Checks the whole store against `state` and records the chains' lengths.
inline void VerifyStore(Checkpointer* store, const std::vector<Chain>& chains,
                        std::vector<ChainState>* state, Tally* tally) {
  std::vector<std::string> problems;
  int64_t total = 0;
  for (const Chain& chain : chains) {
    total +=
        VerifyChain(store, chain, &(*state)[chain.index], tally, &problems);
  }
  VerifyListAll(store, chains, *state, total, &problems);

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

// Runs the child for one round and returns every line it printed before it
// was killed. An early round kills it 0-20 ms after the start; the others
// wait for the first acknowledged put, then let it run 3-100 ms.
inline std::vector<std::string> RunKilledWriter(
    const std::string& binary, const std::vector<std::string>& args, bool early,
    std::mt19937_64* rng) {
  std::string error;
  auto child = ChildProcess::Spawn(binary, args, /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  std::vector<std::string> lines;
  auto deadline = ChildProcess::Clock::now();
  if (early) {
    deadline += std::chrono::milliseconds(
        std::uniform_int_distribution<int>(0, 20)(*rng));
  } else {
    while (true) {
      auto line = child->ReadLine(kCrashHangGuard);
      // Not REQUIRE_MESSAGE: doctest may render a message of a passing
      // check (-s), and waiting for a live child would never return.
      if (!line.has_value()) {
        child->Kill(SIGKILL);
        FAIL("writer stopped before its first put: "
             << DescribeWaitStatus(child->Wait()));
      }
      lines.push_back(*line);
      if (line->rfind("P ", 0) == 0) break;
    }
    deadline = ChildProcess::Clock::now() +
               std::chrono::milliseconds(
                   std::uniform_int_distribution<int>(3, 100)(*rng));
  }
  while (auto line = child->ReadLineUntil(deadline)) lines.push_back(*line);
  child->Kill(SIGKILL);
  for (std::string& line : child->ReadRemainingLines(kCrashHangGuard)) {
    lines.push_back(std::move(line));
  }
  int status = child->Wait();
  CHECK_MESSAGE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL),
                "writer " << DescribeWaitStatus(status));
  return lines;
}

// Records what a killed writer acknowledged (crash_protocol.h): its puts and
// writes per chain, and its compactions ("C 0 <n>", JSONL's writer).
inline void RecordAcks(const std::vector<std::string>& lines,
                       std::vector<ChainState>* state, Tally* tally) {
  for (const std::string& line : lines) {
    if (line == "READY") continue;
    if (line.rfind("C 0 ", 0) == 0) {
      ++tally->acked_compactions;
      continue;
    }
    auto ack = ParseCrashAck(line);
    REQUIRE_MESSAGE(ack.has_value(), "unexpected line: " << line);
    REQUIRE(ack->index >= 0);
    REQUIRE(ack->index < static_cast<int>(state->size()));
    ChainState& st = (*state)[ack->index];
    if (ack->kind == 'P') {
      st.max_acked_put = std::max(st.max_acked_put, ack->n);
      st.acked_puts_this_round.insert(ack->n);
      ++tally->acked_puts;
    } else {
      st.acked_writes.insert(ack->n);
      ++tally->acked_writes;
    }
  }
}

}  // namespace rockpoint::testing
