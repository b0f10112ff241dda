// The JSONL export format (tools/cli/FORMAT_JSONL.md): what the CLI's
// `export` writes and its `import` reads, and what the import fuzz target
// (fuzz/import_fuzz.cpp) checks. (A .jsonl store is not an export but a
// journal, engine/jsonl/FORMAT.md; `import` reads it through that backend.)
//
// ExportStore walks a store through the Checkpointer interface and writes,
// in a deterministic order (thread bytes, namespace bytes, checkpoint id),
// a header line, per checkpoint its not yet written values, the checkpoint
// and its pending writes, and a trailer with counts. ImportStore reads that
// back into any backend, so export -> import -> export is byte-identical.
// Hidden checkpoints (kept for a survivor's delta history) are exported
// marked as such and imported hidden.
//
// Thread-safety: none; one call at a time per stream.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "formats/export_header.h"
#include "formats/json_text.h"
#include "formats/lines.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"

namespace rockpoint::formats {

struct ExportCounts {
  uint64_t checkpoints = 0;
  uint64_t values = 0;
  uint64_t writes = 0;
};

// Called after each checkpoint with the number handled so far.
using ProgressFn = std::function<void(uint64_t checkpoints)>;

// Exports `threads` (all threads when empty; each must exist, else
// NotFound) to `out`.
Result<ExportCounts> ExportStore(Checkpointer& source,
                                 const std::vector<std::string>& threads,
                                 std::ostream& out, const ProgressFn& progress);

// The most positions a task's writes may leave to special writes: a regular
// write's idx is at most (regular writes of its task - 1) + this. Bounds
// the work an import does per line (see FORMAT_JSONL.md, "Import").
inline constexpr int64_t kMaxWriteIdxGap = 1024;

// Where ImportThreads puts each thread's lines.
class ImportSink {
 public:
  virtual ~ImportSink() = default;
  // Before the first line of `thread`: the store its lines are written to,
  // or nullptr to read them (and check the format) without writing.
  virtual Result<Checkpointer*> BeginThread(const std::string& thread) = 0;
  // After the last line of the thread BeginThread was called for.
  virtual Status EndThread(const std::string& thread) = 0;
};

struct ImportOptions {
  // Polled before every line; true stops the import with Aborted. Default:
  // never.
  std::function<bool()> interrupted;
};

// Reads an export from `in`, handing each thread to `sink` (a thread's
// lines must be contiguous, as ExportStore writes them). InvalidArgument
// "line N: ..." for input outside the format or refused by the engine's
// validation (a missing trailer means a truncated file). Every error is
// returned before EndThread of the thread it occurs in.
Result<ExportCounts> ImportThreads(std::istream& in, ImportSink& sink,
                                   const ImportOptions& options,
                                   const ProgressFn& progress);

// Every thread of `in` into `target`, with no checking pass (the import
// fuzz target's entry point).
Result<ExportCounts> ImportStore(std::istream& in, Checkpointer& target,
                                 const ProgressFn& progress);

// --- the header and trailer lines (export_lines.cpp); the lines between
// them are lines.h's, in its kExport dialect ---

Json HeaderToJson();
Json TrailerToJson(const ExportCounts& counts);

// InvalidArgument naming the field on anything outside the format.
Status CheckHeader(const Json& json);
Result<ExportCounts> TrailerFromJson(const Json& json);

}  // namespace rockpoint::formats
