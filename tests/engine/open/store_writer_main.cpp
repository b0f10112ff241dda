// store_writer_main: the child of the contract's kill case (contract_kill.h)
// on every persistent backend, and of jsonl_crash_test's Busy case. Opens
// the store at a URL (rockpoint::Open) with sync_writes (RocksDB: with the
// blob threshold of CrashStoreOptions, crash_protocol.h) and writes chains
// into it until it is killed, reporting every acknowledged call
// (engine/rocksdb/crash_writer.h). With --compact-every N, the writer of
// chain 0 also compacts the store (rockpoint::Compact) after every N-th put,
// so kills land in compactions too, and reports each:
//   C 0 <n>        the compaction after put n of chain 0 returned ok.
// With --text-ids, the chains' thread ids are UTF-8 text (CrashChains), for
// a backend that stores ids as text.
//
//   store_writer_main <store_url> <thread_prefix> [--compact-every N]
//                     [--text-ids]
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/rocksdb/crash_writer.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"

int main(int argc, char** argv) {
  using namespace rockpoint;
  using namespace rockpoint::testing;
  int64_t compact_every = 0;
  bool text_ids = false;
  bool usage = argc < 3;
  for (int i = 3; i < argc && !usage; ++i) {
    const std::string flag = argv[i];
    if (flag == "--text-ids") {
      text_ids = true;
    } else if (flag == "--compact-every" && i + 1 < argc) {
      compact_every = std::stoll(argv[++i]);
    } else {
      usage = true;
    }
  }
  if (usage) {
    std::fprintf(stderr,
                 "usage: store_writer_main <store_url> <prefix> "
                 "[--compact-every N] [--text-ids]\n");
    return 2;
  }
  StoreOptions options;
  options.sync_writes = true;
  // RocksDB: values of 4 KiB and more go to blob files once flushed, so
  // kills land beside blob files too.
  options.rocksdb.blob_file_min_bytes = 4096;
  auto opened = Open(argv[1], options);
  if (!opened.ok()) FailCrashWriter("open", opened.status());
  std::unique_ptr<Checkpointer> store = std::move(opened).value();
  Checkpointer* writer = store.get();
  AfterWrites compact;
  if (compact_every > 0) {
    compact = [writer, compact_every](const Chain& chain, int64_t n) {
      if (chain.index != 0 || n % compact_every != 0) return;
      const Status compacted = Compact(*writer);
      if (!compacted.ok()) FailCrashWriter("compact", compacted);
      Emit("C 0 " + std::to_string(n) + "\n");
    };
  }
  return RunCrashWriter(writer, argv[2], compact, text_ids);
}
