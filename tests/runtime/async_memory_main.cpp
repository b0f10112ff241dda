// async_memory_main: memory of durability=async over many tiny supersteps
// (a measurement for the resolution note, not a test). Run it under
// `/usr/bin/time -v` and read "Maximum resident set size".
//
// Usage: async_memory_main STORE STEPS [QUEUE_CAPACITY] [DELAY_US]
//   STORE: "discard" (keeps nothing; isolates the runtime), "memory"
//          (MemoryCheckpointer: grows with the stored history by design) or
//          a directory for a RocksDB store (no fsync).
//   QUEUE_CAPACITY: the async writer's bound (default 64).
//   DELAY_US: discard store only, time each write call takes (default 0);
//          > node time makes storage the bottleneck, filling the queue.
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"
#include "runtime/runtime_measure.h"

using namespace rockpoint;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(
        stderr, "usage: async_memory_main STORE STEPS [CAPACITY] [DELAY_US]\n");
    return 1;
  }
  std::string kind = argv[1];
  int64_t steps = std::stoll(argv[2]);
  size_t capacity = argc > 3 ? std::stoul(argv[3]) : 64;
  std::chrono::microseconds delay(argc > 4 ? std::stoll(argv[4]) : 0);

  std::unique_ptr<Checkpointer> store;
  if (kind == "discard") {
    store = std::make_unique<testing::DiscardCheckpointer>(delay);
  } else if (kind == "memory") {
    store = std::make_unique<MemoryCheckpointer>();
  } else {
    RocksDbOptions options;
    options.path = kind;
    options.sync_writes = false;
    auto opened = RocksDbCheckpointer::Open(options);
    if (!opened.ok()) {
      std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
      return 1;
    }
    store = std::move(opened).value();
  }
  auto graph = testing::TinyLoop(steps).Compile(
      {.checkpointer = store.get(),
       .durability = runtime::Durability::kAsync,
       .task_threads = 2,
       .async_queue_capacity = capacity});
  if (!graph.ok()) {
    std::fprintf(stderr, "compile: %s\n", graph.status().ToString().c_str());
    return 1;
  }
  runtime::RunConfig config;
  config.thread_id = "memory";
  config.recursion_limit = steps + 10;
  auto start = std::chrono::steady_clock::now();
  auto outcome = (*graph)->Invoke(runtime::State{}, config);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!outcome.ok()) {
    std::fprintf(stderr, "run: %s\n", outcome.status().ToString().c_str());
    return 1;
  }
  std::printf(
      "store=%s steps=%lld capacity=%zu delay_us=%lld seconds=%.3f "
      "us_per_step=%.2f n=%s\n",
      kind.c_str(), static_cast<long long>(steps), capacity,
      static_cast<long long>(delay.count()), seconds,
      seconds * 1e6 / static_cast<double>(steps),
      outcome->values.at("n").DebugString().c_str());
  return 0;
}
