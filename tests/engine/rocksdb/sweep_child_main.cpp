// sweep_child_main: the child of retention_crash_test. Opens a RocksDB
// store with sync_writes and sweeps it (max_age 1 hour at
// 2026-11-05T00:00:00Z, one thread per batch) until a sweep expires
// nothing, printing READY once open and a line per sweep; the parent kills
// it at a random moment.
//
//   sweep_child_main <store_path>
#include <cstdio>
#include <memory>

#include "engine/rocksdb/crash_protocol.h"
#include "engine/rocksdb/crash_writer.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

int main(int argc, char** argv) {
  using namespace rockpoint;
  using namespace rockpoint::testing;
  if (argc != 2) {
    std::fprintf(stderr, "usage: sweep_child_main <store_path>\n");
    return 2;
  }
  auto opened = RocksDbCheckpointer::Open(CrashStoreOptions(argv[1]));
  if (!opened.ok()) FailCrashWriter("open", opened.status());
  std::unique_ptr<RocksDbCheckpointer> store = std::move(opened).value();
  RetentionPolicy policy;
  policy.max_age = std::chrono::hours(1);
  policy.sweep_batch_threads = 1;
  const RetentionTime now = *ParseCheckpointTs("2026-11-05T00:00:00Z");
  Emit("READY\n");
  while (true) {
    auto swept = store->Sweep(policy, now);
    if (!swept.ok()) FailCrashWriter("sweep", swept.status());
    Emit("SWEPT " + std::to_string(swept->checkpoints_expired) + "\n");
    if (swept->checkpoints_expired == 0) return 0;
  }
}
