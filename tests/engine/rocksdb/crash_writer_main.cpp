// crash_writer_main: the child of the contract's kill case (RocksDB).
// Opens a RocksDB store with sync_writes and writes chains into it until it is
// killed, reporting every acknowledged call (crash_writer.h).
//
//   crash_writer_main <store_path> <thread_prefix>
#include <cstdio>
#include <memory>

#include "engine/rocksdb/crash_writer.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

int main(int argc, char** argv) {
  using namespace rockpoint;
  using namespace rockpoint::testing;
  if (argc != 3) {
    std::fprintf(stderr, "usage: crash_writer_main <store_path> <prefix>\n");
    return 2;
  }
  auto opened = RocksDbCheckpointer::Open(CrashStoreOptions(argv[1]));
  if (!opened.ok()) FailCrashWriter("open", opened.status());
  std::unique_ptr<RocksDbCheckpointer> store = std::move(opened).value();
  return RunCrashWriter(store.get(), argv[2]);
}
