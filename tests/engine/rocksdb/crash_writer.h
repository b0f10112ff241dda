// The child's side of the SIGKILL crash tests (crash_protocol.h): writes
// chain_workload chains into an open store until it is killed, and reports
// every acknowledged call on stdout. store_writer_main (tests/engine/open/)
// opens the store and hands it here.
//
// It finds the latest checkpoint of each chain (get_tuple) and continues
// after it, one std::thread per chain. One line per event, each written
// with a single write(2) so lines never interleave:
//   READY          the store is open and the chains are found;
//   P <index> <n>  put of checkpoint n of chain <index> returned ok;
//   W <index> <n>  put_writes of that checkpoint returned ok;
// and what `after_writes` emits. Any failed call prints the status to
// stderr and exits 3; a closed stdout exits 0. It never stops on its own
// otherwise (up to 10^6 puts per chain).
//
// Thread-safety: Emit is safe from every writer thread.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/crash_protocol.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::testing {

// Writes `line` to stdout in one write(2); exits 0 once the parent is gone.
inline void Emit(const std::string& line) {
  std::string_view data = line;
  while (!data.empty()) {
    ssize_t n = ::write(STDOUT_FILENO, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(0);  // the parent is gone.
    data.remove_prefix(static_cast<size_t>(n));
  }
}

[[noreturn]] inline void FailCrashWriter(const std::string& what,
                                         const Status& status) {
  std::fprintf(stderr, "crash writer: %s: %s\n", what.c_str(),
               status.ToString().c_str());
  std::_Exit(3);
}

// Called after the put_writes of checkpoint n of `chain` is acknowledged.
using AfterWrites = std::function<void(const Chain& chain, int64_t n)>;

inline void WriteCrashChain(Checkpointer* store, const Chain& chain,
                            int64_t first, const AfterWrites& after_writes) {
  std::string index = std::to_string(chain.index);
  for (int64_t n = first; n < first + 1000000; ++n) {
    CheckpointConfig parent = ChainConfig(chain, n - 1);
    auto put = store->Put(parent, ChainCheckpoint(chain, n),
                          ChainMetadata(chain, n), ChainNewVersions(chain, n));
    if (!put.ok()) {
      FailCrashWriter("put " + ChainCheckpointId(chain, n), put.status());
    }
    Emit("P " + index + " " + std::to_string(n) + "\n");
    Status writes =
        store->PutWrites(ChainConfig(chain, n), ChainWrites(chain, n),
                         ChainTaskId(n), kChainTaskPath);
    if (!writes.ok()) {
      FailCrashWriter("put_writes " + ChainCheckpointId(chain, n), writes);
    }
    Emit("W " + index + " " + std::to_string(n) + "\n");
    if (after_writes) after_writes(chain, n);
  }
}

// Continues every chain of CrashChains(prefix, text_ids) in `store` (see
// above).
inline int RunCrashWriter(Checkpointer* store, const std::string& prefix,
                          const AfterWrites& after_writes = {},
                          bool text_ids = false) {
  std::vector<Chain> chains = CrashChains(prefix, text_ids);
  std::vector<int64_t> first;
  for (const Chain& chain : chains) {
    auto latest = store->GetTuple(ChainConfig(chain, 0));
    if (!latest.ok()) FailCrashWriter("get_tuple latest", latest.status());
    int64_t next = 1;
    if (latest->has_value()) {
      auto parsed =
          ParseChainCheckpointId((*latest)->config.checkpoint_id.value_or(""));
      if (!parsed || parsed->first != chain.index) {
        FailCrashWriter("latest of chain " + std::to_string(chain.index),
                        Status::Corruption("unexpected checkpoint id"));
      }
      next = parsed->second + 1;
    }
    first.push_back(next);
  }
  Emit("READY\n");

  std::vector<std::thread> writers;
  for (size_t i = 0; i < chains.size(); ++i) {
    writers.emplace_back(WriteCrashChain, store, chains[i], first[i],
                         std::cref(after_writes));
  }
  for (std::thread& writer : writers) writer.join();
  return 0;
}

}  // namespace rockpoint::testing
