// step_overhead_main: time per tiny superstep for each durability mode
// against no checkpointer (a measurement for the resolution note, not a
// test). Each configuration runs STEPS supersteps of one trivial node in
// one run, REPEAT times; the best run is reported.
//
// Usage: step_overhead_main STEPS [REPEAT] [ROCKSDB_DIR]
// Without ROCKSDB_DIR only the memory backend is measured; with it, also
// RocksDB without fsync and with fsync (the latter over STEPS/10 steps).
//
// Usage: step_overhead_main overlap STEPS NODE_US STORE_US
// Overlap of node time and storage time: each node sleeps NODE_US, each
// storage write call (a discarding store) takes STORE_US; prints the time
// per step in sync and async mode (async should approach the larger of the
// two per-step costs, sync their sum).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"
#include "runtime/runtime_measure.h"

using namespace rockpoint;

namespace {

// Best microseconds per step over `repeat` runs (fresh thread each run).
double Measure(Checkpointer* store, runtime::Durability mode, int64_t steps,
               int repeat, const std::string& label,
               std::chrono::microseconds pause = std::chrono::microseconds(0)) {
  auto graph =
      testing::TinyLoop(steps, pause)
          .Compile(
              {.checkpointer = store, .durability = mode, .task_threads = 2});
  if (!graph.ok()) return -1;
  double best = 1e18;
  for (int i = 0; i < repeat; ++i) {
    runtime::RunConfig config;
    config.thread_id = label + "-" + std::to_string(i);
    config.recursion_limit = steps + 10;
    auto start = std::chrono::steady_clock::now();
    auto outcome = (*graph)->Invoke(runtime::State{}, config);
    double us = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    if (!outcome.ok()) {
      std::fprintf(stderr, "%s: %s\n", label.c_str(),
                   outcome.status().ToString().c_str());
      return -1;
    }
    best = std::min(best, us / static_cast<double>(steps));
  }
  return best;
}

void Report(const char* backend, Checkpointer* store, int64_t steps,
            int repeat) {
  double none =
      Measure(nullptr, runtime::Durability::kAsync, steps, repeat, "none");
  std::printf("%-16s steps=%-7lld none   %8.2f us/step\n", backend,
              static_cast<long long>(steps), none);
  const std::pair<const char*, runtime::Durability> modes[] = {
      {"sync", runtime::Durability::kSync},
      {"async", runtime::Durability::kAsync},
      {"exit", runtime::Durability::kExit}};
  for (const auto& [name, mode] : modes) {
    double us = Measure(store, mode, steps, repeat, name);
    std::printf("%-16s steps=%-7lld %-6s %8.2f us/step  (+%.2f over none)\n",
                backend, static_cast<long long>(steps), name, us, us - none);
  }
}

}  // namespace

int Overlap(int64_t steps, std::chrono::microseconds node,
            std::chrono::microseconds store_delay) {
  testing::DiscardCheckpointer store(store_delay);
  for (auto [name, mode] : {std::pair{"sync", runtime::Durability::kSync},
                            std::pair{"async", runtime::Durability::kAsync}}) {
    double us = Measure(&store, mode, steps, 1, name, node);
    std::printf(
        "overlap node=%lldus store_call=%lldus (2 calls/step) %-5s "
        "%8.1f us/step\n",
        static_cast<long long>(node.count()),
        static_cast<long long>(store_delay.count()), name, us);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "overlap") {
    return Overlap(std::stoll(argv[2]),
                   std::chrono::microseconds(std::stoll(argv[3])),
                   std::chrono::microseconds(std::stoll(argv[4])));
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: step_overhead_main STEPS [REPEAT] [DIR]\n");
    return 1;
  }
  int64_t steps = std::stoll(argv[1]);
  int repeat = argc > 2 ? std::stoi(argv[2]) : 3;
  MemoryCheckpointer memory;
  Report("memory", &memory, steps, repeat);
  if (argc > 3) {
    for (bool sync_writes : {false, true}) {
      std::string path =
          std::string(argv[3]) + (sync_writes ? "/fsync" : "/nosync");
      std::filesystem::remove_all(path);
      RocksDbOptions options;
      options.path = path;
      options.sync_writes = sync_writes;
      auto store = RocksDbCheckpointer::Open(options);
      if (!store.ok()) {
        std::fprintf(stderr, "open: %s\n", store.status().ToString().c_str());
        return 1;
      }
      Report(sync_writes ? "rocksdb-fsync" : "rocksdb-nosync", store->get(),
             sync_writes ? std::max<int64_t>(steps / 10, 1) : steps, repeat);
    }
  }
  return 0;
}
