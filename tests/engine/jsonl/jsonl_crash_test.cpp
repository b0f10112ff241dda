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

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/process_helpers.h"
#include "rockpoint/jsonl_checkpointer.h"

namespace rockpoint::testing {
namespace {

using std::chrono::milliseconds;

// Fewer rounds than RocksDB's crash test: a journal has one file and one
// recovery path (replay, cut the tail), and the suite must stay quick.
constexpr int kRounds = 12;
// Every kEarlyKillEvery-th round kills the child without waiting for an
// acknowledgement, usually while it opens (replays) the journal.
constexpr int kEarlyKillEvery = 4;
// After every kCompactEvery-th round the parent compacts the journal, so
// later rounds replay a snapshot, not only appended groups.
constexpr int kCompactEvery = 3;
// Guards against a hung child; not a performance threshold.
constexpr milliseconds kHangGuard{30000};

const std::string kWriterBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/jsonl_crash_writer_main";

JsonlOptions JournalOptions(const std::string& path) {
  JsonlOptions options;
  options.path = path;
  options.sync_writes = true;
  return options;
}

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
  int64_t torn_tails = 0;                  // opens that cut a torn tail.
  int64_t acked_compactions = 0;           // by the child.
};

// One chain against `st`: its latest, its whole list, and each checkpoint
// acknowledged this round by id. Returns the chain's length.
int64_t VerifyChain(Checkpointer* store, const Chain& chain, ChainState* st,
                    Tally* tally, std::vector<std::string>* problems) {
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
void VerifyListAll(Checkpointer* store, const std::vector<Chain>& chains,
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
void VerifyStore(Checkpointer* store, const std::vector<Chain>& chains,
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
std::vector<std::string> RunKilledWriter(const std::string& path, bool early,
                                         std::mt19937_64* rng) {
  std::string error;
  auto child = ChildProcess::Spawn(kWriterBinary, {path, "jsonl-crash"},
                                   /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  std::vector<std::string> lines;
  auto deadline = ChildProcess::Clock::now();
  if (early) {
    deadline += milliseconds(std::uniform_int_distribution<int>(0, 20)(*rng));
  } else {
    while (true) {
      auto line = child->ReadLine(kHangGuard);
      REQUIRE_MESSAGE(line.has_value(),
                      "writer stopped before its first put: "
                          << DescribeWaitStatus(child->Wait()));
      lines.push_back(*line);
      if (line->rfind("P ", 0) == 0) break;
    }
    deadline = ChildProcess::Clock::now() +
               milliseconds(std::uniform_int_distribution<int>(3, 100)(*rng));
  }
  while (auto line = child->ReadLineUntil(deadline)) lines.push_back(*line);
  child->Kill(SIGKILL);
  for (std::string& line : child->ReadRemainingLines(kHangGuard)) {
    lines.push_back(std::move(line));
  }
  int status = child->Wait();
  CHECK_MESSAGE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL),
                "writer " << DescribeWaitStatus(status));
  return lines;
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
  int64_t acked_puts = 0;
  int64_t acked_writes = 0;
  Tally tally;

  for (int round = 0; round < kRounds; ++round) {
    CAPTURE(round);
    const bool early = round % kEarlyKillEvery == kEarlyKillEvery - 1;
    for (const std::string& line : RunKilledWriter(path, early, &rng)) {
      if (line == "READY") continue;
      if (line.rfind("C 0 ", 0) == 0) {
        ++tally.acked_compactions;
        continue;
      }
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
      << kRounds << ": " << acked_puts << " acknowledged puts, " << acked_writes
      << " acknowledged put_writes, " << tally.acked_compactions
      << " acknowledged compactions; after kills, "
      << tally.unacknowledged_puts_found << " unacknowledged puts were found, "
      << tally.checkpoints_without_writes
      << " latest checkpoints had no writes yet, " << tally.torn_tails
      << " opens cut a torn tail");
  // Every non-early round waited for an acknowledged put.
  CHECK(acked_puts >= kRounds - kRounds / kEarlyKillEvery);
}

TEST_CASE("jsonl: a journal another process has open is Busy") {
  TempDir dir("jsonl-busy");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store.jsonl");
  std::string error;
  auto child = ChildProcess::Spawn(kWriterBinary, {path, "jsonl-busy"},
                                   /*pipe_stdin=*/false, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  auto ready = child->ReadLine(kHangGuard);
  REQUIRE_MESSAGE(ready.has_value(), "writer did not start: "
                                         << DescribeWaitStatus(child->Wait()));
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
