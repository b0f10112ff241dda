// Many threads on one RocksDB store: writers to one thread id (same and
// different namespaces) and to distinct ones, racing regular and special
// writes on one key, and readers that must never see a half-written
// checkpoint, lose an acknowledged one or get an error.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/process_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint::testing {
namespace {

constexpr int kWriters = 8;
constexpr int kReaders = 3;
constexpr int64_t kPutsPerWriter = 150;
// Every kContestEvery-th put, a writer also races on the contested key.
constexpr int64_t kContestEvery = 10;
constexpr std::string_view kContestTask = "race-task";

// Problems found on worker threads, checked on the test thread.
class Problems {
 public:
  void Add(std::string problem) {
    base::MutexLock lock(&mu_);
    list_.push_back(std::move(problem));
  }
  bool empty() {
    base::MutexLock lock(&mu_);
    return list_.empty();
  }
  std::string First() {
    base::MutexLock lock(&mu_);
    std::string out = std::to_string(list_.size()) + " problems:\n";
    for (size_t i = 0; i < list_.size() && i < 5; ++i) out += list_[i] + "\n";
    return out;
  }

 private:
  base::Mutex mu_;
  std::vector<std::string> list_ GUARDED_BY(mu_);
};

// Writers 0 and 1 share (shared, ""), 2 and 3 have their own namespaces of
// the same thread, 4.. each have a thread of their own.
std::vector<Chain> WriterChains(const std::string& prefix, int writers) {
  std::vector<Chain> chains;
  for (int w = 0; w < writers; ++w) {
    if (w < 2) {
      chains.push_back({w, prefix + "-shared", ""});
    } else if (w < 4) {
      chains.push_back({w, prefix + "-shared", "ns-" + std::to_string(w)});
    } else {
      chains.push_back({w, prefix + "-w" + std::to_string(w), ""});
    }
  }
  return chains;
}

CheckpointConfig ContestConfig(const std::string& prefix) {
  return {prefix + "-shared", "", "contested"};
}

std::vector<ChannelWrite> ContestWrites(int writer, int64_t n) {
  std::string tag = std::to_string(writer) + ":" + std::to_string(n);
  return {{"race", {"bytes", "race:" + tag}},
          {std::string(kErrorChannel), {"bytes", "err:" + tag}}};
}

// Every value a writer may have written under `channel_prefix` ("race:",
// "err:").
std::set<std::string> ContestValues(const std::string& channel_prefix) {
  std::set<std::string> values;
  for (int w = 0; w < kWriters; ++w) {
    for (int64_t n = kContestEvery; n <= kPutsPerWriter; n += kContestEvery) {
      values.insert(channel_prefix + std::to_string(w) + ":" +
                    std::to_string(n));
    }
  }
  return values;
}

// Shared by writers and readers of one run.
struct Run {
  RocksDbCheckpointer* store = nullptr;
  std::string prefix;
  std::vector<Chain> chains;
  int64_t puts = 0;
  bool contest = false;
  std::vector<std::atomic<int64_t>> acked_puts;
  std::vector<std::atomic<int64_t>> acked_writes;
  std::atomic<bool> writers_done{false};
  Problems problems;
  base::Mutex race_mu;
  std::optional<std::string> first_seen_race GUARDED_BY(race_mu);
  std::atomic<int64_t> reads{0};
  std::atomic<int> compactions{0};

  Run(RocksDbCheckpointer* s, std::string p, int writers, int64_t n, bool c)
      : store(s),
        prefix(std::move(p)),
        chains(WriterChains(prefix, writers)),
        puts(n),
        contest(c),
        acked_puts(writers),
        acked_writes(writers) {}
};

void Writer(Run* run, int w) {
  const Chain& chain = run->chains[w];
  for (int64_t n = 1; n <= run->puts; ++n) {
    auto put =
        run->store->Put(ChainConfig(chain, n - 1), ChainCheckpoint(chain, n),
                        ChainMetadata(chain, n), ChainNewVersions(chain, n));
    if (!put.ok() || *put != ChainConfig(chain, n)) {
      run->problems.Add("put " + ChainCheckpointId(chain, n) + ": " +
                        put.status().ToString());
      return;
    }
    run->acked_puts[w].store(n, std::memory_order_release);
    Status writes =
        run->store->PutWrites(ChainConfig(chain, n), ChainWrites(chain, n),
                              ChainTaskId(n), kChainTaskPath);
    if (!writes.ok()) {
      run->problems.Add("put_writes " + ChainCheckpointId(chain, n) + ": " +
                        writes.ToString());
      return;
    }
    run->acked_writes[w].store(n, std::memory_order_release);
    if (run->contest && n % kContestEvery == 0) {
      Status raced = run->store->PutWrites(ContestConfig(run->prefix),
                                           ContestWrites(w, n), kContestTask);
      if (!raced.ok()) run->problems.Add("race write: " + raced.ToString());
    }
  }
}

// Checks a tuple read while writers run. `writes_acked` is a snapshot of
// acked_writes taken before the read.
void CheckReadTuple(Run* run, const CheckpointTuple& tuple,
                    const std::vector<int64_t>& writes_acked) {
  const std::string& id = tuple.config.checkpoint_id.value_or("");
  if (id == "contested") return;
  auto parsed = ParseChainCheckpointId(id);
  if (!parsed || parsed->first >= static_cast<int>(run->chains.size())) {
    run->problems.Add("read an unexpected id " + id);
    return;
  }
  auto [index, n] = *parsed;
  std::string problem =
      CheckChainTuple(run->chains[index], n, tuple, n <= writes_acked[index]);
  if (!problem.empty()) run->problems.Add("concurrent read " + problem);
}

// Checks the contested checkpoint's writes: at most one per key, each a
// value some writer wrote, and the regular one never changes once seen.
void CheckContest(Run* run, const CheckpointTuple& tuple, bool final) {
  static const std::set<std::string> races = ContestValues("race:");
  static const std::set<std::string> errors = ContestValues("err:");
  int race_count = 0;
  int error_count = 0;
  for (const PendingWrite& write : tuple.pending_writes) {
    if (write.task_id != kContestTask || !write.task_path.empty()) {
      run->problems.Add("contested: unexpected write of " + write.task_id);
    } else if (write.idx == 0 && write.channel == "race") {
      ++race_count;
      if (races.count(write.value.bytes) == 0) {
        run->problems.Add("contested: race value never written: " +
                          write.value.bytes);
      }
      base::MutexLock lock(&run->race_mu);
      if (!run->first_seen_race) run->first_seen_race = write.value.bytes;
      if (*run->first_seen_race != write.value.bytes) {
        run->problems.Add("contested: regular write changed from " +
                          *run->first_seen_race + " to " + write.value.bytes);
      }
    } else if (write.idx == -1 && write.channel == kErrorChannel) {
      ++error_count;
      if (errors.count(write.value.bytes) == 0) {
        run->problems.Add("contested: error value never written: " +
                          write.value.bytes);
      }
    } else {
      run->problems.Add("contested: unexpected write idx " +
                        std::to_string(write.idx));
    }
  }
  if (race_count > 1 || error_count > 1 ||
      (final && (race_count != 1 || error_count != 1))) {
    run->problems.Add("contested: " + std::to_string(race_count) +
                      " race and " + std::to_string(error_count) +
                      " error writes");
  }
}

void Reader(Run* run, int reader) {
  std::mt19937 rng(1000 + reader);
  const int writers = static_cast<int>(run->chains.size());
  while (!run->writers_done.load(std::memory_order_acquire)) {
    int w = static_cast<int>(rng() % writers);
    const Chain& chain = run->chains[w];
    std::vector<int64_t> writes_acked(writers);
    for (int i = 0; i < writers; ++i) {
      writes_acked[i] = run->acked_writes[i].load(std::memory_order_acquire);
    }
    int64_t put_acked = run->acked_puts[w].load(std::memory_order_acquire);
    run->reads.fetch_add(1);
    switch (rng() % 5) {
      case 0: {  // An acknowledged put is visible to every later call.
        if (put_acked == 0) break;
        auto got = run->store->GetTuple(ChainConfig(chain, put_acked));
        if (!got.ok() || !got->has_value()) {
          run->problems.Add("acknowledged " +
                            ChainCheckpointId(chain, put_acked) +
                            " not readable: " + got.status().ToString());
          break;
        }
        CheckReadTuple(run, **got, writes_acked);
        break;
      }
      case 1: {  // The latest is at least the last acknowledged one.
        auto got = run->store->GetTuple(ChainConfig(chain, 0));
        if (!got.ok()) {
          run->problems.Add("get_tuple latest: " + got.status().ToString());
          break;
        }
        if (!got->has_value()) {
          if (put_acked > 0) run->problems.Add("latest missing");
          break;
        }
        if (put_acked > 0 && (*got)->config.checkpoint_id <
                                 ChainCheckpointId(chain, put_acked)) {
          run->problems.Add("latest older than an acknowledged put");
        }
        CheckReadTuple(run, **got, writes_acked);
        break;
      }
      case 2:
      case 3: {  // Lists: all threads, or every namespace of one thread.
        ListOptions options;
        options.limit = 40;
        if (rng() % 2 == 0) {
          options.config =
              CheckpointConfig{chain.thread_id, std::nullopt, std::nullopt};
        }
        auto cursor = run->store->List(options);
        if (!cursor.ok()) {
          run->problems.Add("list: " + cursor.status().ToString());
          break;
        }
        std::optional<std::string> previous;
        while (true) {
          auto next = (*cursor)->Next();
          if (!next.ok()) {
            run->problems.Add("list next: " + next.status().ToString());
            break;
          }
          if (!next->has_value()) break;
          const std::string& id = (*next)->config.checkpoint_id.value_or("");
          if (previous && !(id < *previous)) {
            run->problems.Add("list not strictly descending at " + id);
          }
          previous = id;
          CheckReadTuple(run, **next, writes_acked);
        }
        break;
      }
      case 4: {
        if (!run->contest) break;
        auto got = run->store->GetTuple(ContestConfig(run->prefix));
        if (!got.ok() || !got->has_value()) {
          run->problems.Add("contested not readable: " +
                            got.status().ToString());
          break;
        }
        CheckContest(run, **got, /*final=*/false);
        break;
      }
    }
  }
}

// Once writer 0 is a quarter through, compacts the store (flushing
// memtables) up to 3 times while writers run, so that reads also cross
// flushes and compactions.
void Compactor(Run* run) {
  while (!run->writers_done.load() &&
         run->acked_puts[0].load() < run->puts / 4) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (int i = 0; i < 3 && !run->writers_done.load(); ++i) {
    Status compacted = run->store->Compact();
    if (!compacted.ok()) run->problems.Add("compact: " + compacted.ToString());
    run->compactions.fetch_add(1);
  }
}

// Runs writers, readers and (with `compact`) a compactor to completion.
void RunThreads(Run* run, int readers, bool compact) {
  std::vector<std::thread> threads;
  for (int r = 0; r < readers; ++r) threads.emplace_back(Reader, run, r);
  if (compact) threads.emplace_back(Compactor, run);
  std::vector<std::thread> writers;
  for (int w = 0; w < static_cast<int>(run->chains.size()); ++w) {
    writers.emplace_back(Writer, run, w);
  }
  for (std::thread& writer : writers) writer.join();
  run->writers_done.store(true, std::memory_order_release);
  for (std::thread& thread : threads) thread.join();
}

// After the run: every checkpoint and write is there and listed once.
void VerifyAfterRun(Run* run) {
  Problems problems;
  std::set<std::string> want_ids;
  for (const Chain& chain : run->chains) {
    for (int64_t n = 1; n <= run->puts; ++n) {
      want_ids.insert(ChainCheckpointId(chain, n));
      auto got = run->store->GetTuple(ChainConfig(chain, n));
      if (!got.ok() || !got->has_value()) {
        problems.Add("missing " + ChainCheckpointId(chain, n));
        continue;
      }
      std::string problem = CheckChainTuple(chain, n, **got, true);
      if (!problem.empty()) problems.Add(problem);
    }
  }
  if (run->contest) want_ids.insert("contested");
  CHECK_MESSAGE(problems.empty(), problems.First());

  auto all = run->store->ListAll(ListOptions{});
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  std::vector<std::string> ids;
  for (const CheckpointTuple& tuple : *all) {
    ids.push_back(tuple.config.checkpoint_id.value_or(""));
  }
  std::vector<std::string> descending(want_ids.rbegin(), want_ids.rend());
  CHECK(ids == descending);

  ThreadSummary want;
  for (const Chain& chain : run->chains) {
    auto& entry = want[chain.thread_id][chain.ns];
    entry.first += run->puts;
    entry.second = std::max(entry.second, ChainCheckpointId(chain, run->puts));
  }
  if (run->contest) {
    auto& entry = want[run->prefix + "-shared"][""];
    entry.first += 1;
    entry.second = std::max(entry.second, std::string("contested"));
  }
  auto got = SummarizeThreads(run->store);
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  CHECK_MESSAGE(*got == want, "list_threads " << DescribeThreadSummary(*got)
                                              << " want "
                                              << DescribeThreadSummary(want));
}

std::unique_ptr<RocksDbCheckpointer> OpenStore(const std::string& path,
                                               bool sync) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = sync;
  auto opened = RocksDbCheckpointer::Open(options);
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

TEST_CASE("concurrent writers and readers on one store") {
  TempDir dir("concurrency");
  REQUIRE(dir.ok());
  auto store = OpenStore(dir.Sub("store"), /*sync=*/false);
  Run run(store.get(), "conc", kWriters, kPutsPerWriter, /*contest=*/true);

  Checkpoint contested;
  contested.id = "contested";
  contested.ts = "2024-05-01T00:00:00Z";
  auto put = store->Put({run.prefix + "-shared", "", std::nullopt}, contested,
                        Value::MakeMap(), {});
  REQUIRE_MESSAGE(put.ok(), put.status().ToString());

  RunThreads(&run, kReaders, /*compact=*/true);
  CHECK_MESSAGE(run.problems.empty(), run.problems.First());
  MESSAGE("concurrent reads checked: " << run.reads.load() << ", compactions "
                                       << run.compactions.load());
  VerifyAfterRun(&run);

  auto got = store->GetTuple(ContestConfig(run.prefix));
  REQUIRE(got.ok());
  REQUIRE(got->has_value());
  CheckContest(&run, **got, /*final=*/true);
  CHECK_MESSAGE(run.problems.empty(), run.problems.First());
  std::string race_winner;
  for (const PendingWrite& write : (*got)->pending_writes) {
    if (write.idx == 0) race_winner = write.value.bytes;
  }

  // After the race, a special write still replaces and a regular one is
  // still ignored.
  {
    REQUIRE(
        store
            ->PutWrites(ContestConfig(run.prefix),
                        {{"race", {"bytes", "race:late"}},
                         {std::string(kErrorChannel), {"bytes", "err:late"}}},
                        kContestTask)
            .ok());
    auto after = store->GetTuple(ContestConfig(run.prefix));
    REQUIRE(after.ok());
    REQUIRE(after->has_value());
    std::vector<PendingWrite> want = {
        {std::string(kContestTask),
         std::string(kErrorChannel),
         {"bytes", "err:late"},
         "",
         -1,
         "contested"},
        {std::string(kContestTask),
         "race",
         {"bytes", race_winner},
         "",
         0,
         "contested"},
    };
    CHECK((*after)->pending_writes == want);
  }
}

TEST_CASE(
    "concurrent synced writers: every acknowledged call survives reopen") {
  TempDir dir("concurrency-sync");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store");
  auto store = OpenStore(path, /*sync=*/true);
  Run run(store.get(), "conc-sync", 4, 20, /*contest=*/false);
  RunThreads(&run, 1, /*compact=*/false);
  CHECK_MESSAGE(run.problems.empty(), run.problems.First());
  store.reset();

  auto reopened = OpenStore(path, /*sync=*/true);
  run.store = reopened.get();
  VerifyAfterRun(&run);
}

}  // namespace
}  // namespace rockpoint::testing
