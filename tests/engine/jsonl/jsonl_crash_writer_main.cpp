// jsonl_crash_writer_main: the child of jsonl_crash_test. Writes
// chain_workload chains into a JSONL journal until it is killed, and reports
// every acknowledged call (the protocol of engine/rocksdb/crash_protocol.h).
//
//   jsonl_crash_writer_main <journal_path> <thread_prefix>
//
// Opens the journal with sync_writes, finds the latest checkpoint of each
// chain (get_tuple) and continues after it, one std::thread per chain; the
// writer of chain 0 also compacts the journal after every kCompactEvery-th
// put, so kills land in compactions too. On stdout, one line per event, each
// written with a single write(2) so lines never interleave:
//   READY          the journal is open and the chains are found;
//   P <index> <n>  put of checkpoint n of chain <index> returned ok;
//   W <index> <n>  put_writes of that checkpoint returned ok;
//   C 0 <n>        the compaction after put n of chain 0 returned ok.
// Any failed call prints the status to stderr and exits 3; a closed stdout
// exits 0. It never stops on its own otherwise (up to 10^6 puts per chain).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_protocol.h"
#include "rockpoint/jsonl_checkpointer.h"

namespace rockpoint::testing {
namespace {

constexpr int64_t kCompactEvery = 4;

void Emit(const std::string& line) {
  std::string_view data = line;
  while (!data.empty()) {
    ssize_t n = ::write(STDOUT_FILENO, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(0);  // the parent is gone.
    data.remove_prefix(static_cast<size_t>(n));
  }
}

[[noreturn]] void Fail(const std::string& what, const Status& status) {
  std::fprintf(stderr, "jsonl_crash_writer_main: %s: %s\n", what.c_str(),
               status.ToString().c_str());
  std::_Exit(3);
}

void WriteChain(JsonlCheckpointer* store, const Chain& chain, int64_t first) {
  std::string index = std::to_string(chain.index);
  for (int64_t n = first; n < first + 1000000; ++n) {
    CheckpointConfig parent = ChainConfig(chain, n - 1);
    auto put = store->Put(parent, ChainCheckpoint(chain, n),
                          ChainMetadata(chain, n), ChainNewVersions(chain, n));
    if (!put.ok()) Fail("put " + ChainCheckpointId(chain, n), put.status());
    Emit("P " + index + " " + std::to_string(n) + "\n");
    Status writes =
        store->PutWrites(ChainConfig(chain, n), ChainWrites(chain, n),
                         ChainTaskId(n), kChainTaskPath);
    if (!writes.ok()) Fail("put_writes " + ChainCheckpointId(chain, n), writes);
    Emit("W " + index + " " + std::to_string(n) + "\n");
    if (chain.index == 0 && n % kCompactEvery == 0) {
      Status compacted = store->Compact();
      if (!compacted.ok()) Fail("compact", compacted);
      Emit("C 0 " + std::to_string(n) + "\n");
    }
  }
}

int Main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: jsonl_crash_writer_main <journal_path> <prefix>\n");
    return 2;
  }
  JsonlOptions options;
  options.path = argv[1];
  options.sync_writes = true;
  auto opened = JsonlCheckpointer::Open(options);
  if (!opened.ok()) Fail("open", opened.status());
  std::unique_ptr<JsonlCheckpointer> store = std::move(opened).value();

  std::vector<Chain> chains = CrashChains(argv[2]);
  std::vector<int64_t> first;
  for (const Chain& chain : chains) {
    auto latest = store->GetTuple(ChainConfig(chain, 0));
    if (!latest.ok()) Fail("get_tuple latest", latest.status());
    int64_t next = 1;
    if (latest->has_value()) {
      auto parsed =
          ParseChainCheckpointId((*latest)->config.checkpoint_id.value_or(""));
      if (!parsed || parsed->first != chain.index) {
        Fail("latest of chain " + std::to_string(chain.index),
             Status::Corruption("unexpected checkpoint id"));
      }
      next = parsed->second + 1;
    }
    first.push_back(next);
  }
  Emit("READY\n");

  std::vector<std::thread> writers;
  for (size_t i = 0; i < chains.size(); ++i) {
    writers.emplace_back(WriteChain, store.get(), chains[i], first[i]);
  }
  for (std::thread& writer : writers) writer.join();
  return 0;
}

}  // namespace
}  // namespace rockpoint::testing

int main(int argc, char** argv) { return rockpoint::testing::Main(argc, argv); }
