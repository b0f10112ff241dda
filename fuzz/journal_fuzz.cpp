// Fuzz target: the journal replay of the JSONL backend
// (engine/jsonl/journal_lines.h; engine/jsonl/FORMAT.md).
//
// For any input, Replay() either rebuilds a store or fails with a message,
// never crashing or hanging. When it rebuilds one, the snapshot a
// compaction would write replays to the same store: its snapshot is
// byte-identical, with no torn tail.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/jsonl/journal_lines.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint;
  const std::string journal(reinterpret_cast<const char*>(data), size);
  memory::Threads threads;
  const Result<jsonl::ReplayResult> replayed =
      jsonl::Replay(journal, "input", &threads);
  if (!replayed.ok()) {
    FUZZ_CHECK(!replayed.status().message().empty(), "empty error message");
    return 0;
  }
  FUZZ_CHECK(replayed->committed_bytes + replayed->torn_tail_bytes == size,
             "committed and torn bytes do not add up to the input");
  const std::string snapshot = jsonl::Snapshot(threads);
  memory::Threads again;
  const Result<jsonl::ReplayResult> reread =
      jsonl::Replay(snapshot, "snapshot", &again);
  FUZZ_CHECK(reread.ok(), "a snapshot does not replay: " +
                              reread.status().ToString() + "\n" + snapshot);
  FUZZ_CHECK(reread->torn_tail_bytes == 0, "a snapshot has a torn tail");
  FUZZ_CHECK(jsonl::Snapshot(again) == snapshot,
             "a snapshot does not replay to itself:\n" + snapshot);
  return 0;
}
