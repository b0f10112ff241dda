// Fuzz target: the JSONL backend's journal (engine/jsonl/FORMAT.md), opened
// through rockpoint::Open like any store.
//
// For any input written as a journal file, a read-write open either
// recovers a store or fails with a message, never crashing or hanging.
// When it opens, the torn tail it cut is part of the input, and the
// snapshot Compact writes opens again and compacts to the same bytes.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "fuzz/fuzz_check.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"

namespace {

using namespace rockpoint;

// The journal file of this process (one path, rewritten per input).
const std::string& JournalPath() {
  static const std::string path = [] {
    std::string pattern = "/tmp/rockpoint-journal-fuzz-XXXXXX";
    FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr, "mkdtemp failed");
    return pattern + "/store.jsonl";
  }();
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Result<std::unique_ptr<Checkpointer>> OpenJournal() {
  StoreOptions options;
  options.create_if_missing = false;
  options.sync_writes = false;
  options.jsonl.auto_compact_min_lines = 0;
  // No detection: every byte reaches the journal's own reader.
  return Open(StoreLocation{.backend = BackendKind::kJsonl,
                            .target = JournalPath(),
                            .exists = true},
              options);
}

// Compacts `store` and returns the journal's bytes afterwards.
std::string CompactedBytes(Checkpointer& store) {
  const Status compacted = Compact(store);
  FUZZ_CHECK(compacted.ok(), "compact: " + compacted.ToString());
  return ReadFile(JournalPath());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(JournalPath(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data),
              static_cast<std::streamsize>(size));
    FUZZ_CHECK(out.good(), "cannot write the journal file");
  }
  Result<std::unique_ptr<Checkpointer>> opened = OpenJournal();
  if (!opened.ok()) {
    FUZZ_CHECK(!opened.status().message().empty(), "empty error message");
    return 0;
  }
  std::unique_ptr<Checkpointer> store = std::move(opened).value();
  const Result<StoreFigures> figures = Figures(*store);
  FUZZ_CHECK(figures.ok() && figures->jsonl, "no journal figures");
  FUZZ_CHECK(figures->jsonl->torn_tail_bytes_cut <= size,
             "the open cut more than the input");
  const std::string snapshot = CompactedBytes(*store);
  FUZZ_CHECK(store->Close().ok(), "close failed");
  store.reset();
  Result<std::unique_ptr<Checkpointer>> again = OpenJournal();
  FUZZ_CHECK(again.ok(), "a snapshot does not open: " +
                             again.status().ToString() + "\n" + snapshot);
  FUZZ_CHECK(CompactedBytes(**again) == snapshot,
             "a snapshot does not compact to itself:\n" + snapshot);
  return 0;
}
