// jsonl_crash_writer_main: the child of the contract's kill case (JSONL)
// and of jsonl_crash_test's Busy case. Opens a JSONL journal with
// sync_writes and writes chains into it until it is killed,
// reporting every acknowledged call (engine/rocksdb/crash_writer.h). The
// writer of chain 0 also compacts the journal after every kCompactEvery-th
// put, so kills land in compactions too, and reports each:
//   C 0 <n>        the compaction after put n of chain 0 returned ok.
//
//   jsonl_crash_writer_main <journal_path> <thread_prefix>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/crash_writer.h"

namespace {

constexpr int64_t kCompactEvery = 4;

}  // namespace

int main(int argc, char** argv) {
  using namespace rockpoint;
  using namespace rockpoint::testing;
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: jsonl_crash_writer_main <journal_path> <prefix>\n");
    return 2;
  }
  JsonlOptions options;
  options.path = argv[1];
  options.sync_writes = true;
  auto opened = JsonlCheckpointer::Open(options);
  if (!opened.ok()) FailCrashWriter("open", opened.status());
  std::unique_ptr<JsonlCheckpointer> store = std::move(opened).value();
  JsonlCheckpointer* journal = store.get();
  return RunCrashWriter(journal, argv[2],
                        [journal](const Chain& chain, int64_t n) {
                          if (chain.index != 0 || n % kCompactEvery != 0)
                            return;
                          Status compacted = journal->Compact();
                          if (!compacted.ok())
                            FailCrashWriter("compact", compacted);
                          Emit("C 0 " + std::to_string(n) + "\n");
                        });
}
