// crash_run_main: the child process of the runtime crash test.
//
// Usage: crash_run_main STORE_DIR THREAD ROUNDS PROGRESS_FILE
// Runs CrashGraph on a RocksDB store with sync writes and durability=sync:
// a fresh thread starts from empty input, a thread with checkpoints is
// continued (what did not finish reruns). Each round number is written to
// PROGRESS_FILE as it starts, so the test knows when to kill. On success it
// prints "DONE <final state>" and exits 0; errors go to stderr, exit 1.
#include <cstdio>
#include <fstream>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "runtime/crash_graph.h"

using namespace rockpoint;

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr,
                 "usage: crash_run_main STORE_DIR THREAD ROUNDS PROGRESS\n");
    return 1;
  }
  std::string progress = argv[4];
  RocksDbOptions options;
  options.path = argv[1];
  options.sync_writes = true;
  auto store = RocksDbCheckpointer::Open(options);
  if (!store.ok()) {
    std::fprintf(stderr, "open: %s\n", store.status().ToString().c_str());
    return 1;
  }
  auto graph = testing::CrashGraph(
                   std::stoll(argv[3]),
                   [&progress](int64_t round) {
                     std::ofstream(progress, std::ios::trunc) << round << "\n";
                   },
                   std::chrono::milliseconds(2))
                   .Compile({.checkpointer = store->get(),
                             .durability = runtime::Durability::kSync});
  if (!graph.ok()) {
    std::fprintf(stderr, "compile: %s\n", graph.status().ToString().c_str());
    return 1;
  }
  runtime::RunConfig config;
  config.thread_id = argv[2];
  config.recursion_limit = 10000;
  auto existing = (*store)->GetTuple(CheckpointConfig{argv[2], "", {}});
  if (!existing.ok()) {
    std::fprintf(stderr, "read: %s\n", existing.status().ToString().c_str());
    return 1;
  }
  auto outcome = existing->has_value()
                     ? (*graph)->Continue(config)
                     : (*graph)->Invoke(runtime::State{}, config);
  if (!outcome.ok()) {
    std::fprintf(stderr, "run: %s\n", outcome.status().ToString().c_str());
    return 1;
  }
  std::printf("DONE %s\n", Value(outcome->values).DebugString().c_str());
  return 0;
}
