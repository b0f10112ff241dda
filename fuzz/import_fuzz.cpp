// Fuzz target: the export format's import reader (formats/export_format.h,
// ImportStore; tools/cli/FORMAT_JSONL.md), into a memory store.
//
// For any input, ImportStore() either imports it or fails with a message,
// never crashing or hanging. When it imports, the store round-trips as the
// format promises: its export imports into a fresh store whose export is
// byte-identical (export(import(export(S))) == export(S)), with the same
// counts.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "formats/export_format.h"
#include "fuzz/fuzz_check.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint::formats {
namespace {

// `store` exported, REQUIRing success.
std::string Export(Checkpointer& store, ExportCounts* counts) {
  std::ostringstream out;
  Result<ExportCounts> exported = ExportStore(store, {}, out, ProgressFn());
  FUZZ_CHECK(exported.ok(), "export of an imported store fails: " +
                                exported.status().ToString());
  *counts = *exported;
  return out.str();
}

bool SameCounts(const ExportCounts& a, const ExportCounts& b) {
  return a.checkpoints == b.checkpoints && a.values == b.values &&
         a.writes == b.writes;
}

}  // namespace
}  // namespace rockpoint::formats

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint;
  using namespace rockpoint::formats;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  MemoryCheckpointer store;
  const Result<ExportCounts> imported = ImportStore(in, store, ProgressFn());
  if (!imported.ok()) {
    FUZZ_CHECK(!imported.status().message().empty(), "empty error message");
    return 0;
  }
  ExportCounts counts;
  const std::string exported = Export(store, &counts);
  std::istringstream again_in(exported);
  MemoryCheckpointer again;
  const Result<ExportCounts> reimported =
      ImportStore(again_in, again, ProgressFn());
  FUZZ_CHECK(reimported.ok(),
             "an export does not import: " + reimported.status().ToString() +
                 "\n" + exported);
  FUZZ_CHECK(SameCounts(*reimported, counts),
             "import counts differ from the export's");
  ExportCounts again_counts;
  const std::string reexported = Export(again, &again_counts);
  FUZZ_CHECK(reexported == exported, "export is not stable across import:\n" +
                                         exported + "\nthen\n" + reexported);
  return 0;
}
