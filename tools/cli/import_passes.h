// The two passes of `rockpoint import` over an export file
// (FORMAT_JSONL.md, "Import").
//
// CheckImport reads the whole input and writes nothing to the target: each
// thread is staged into a fresh MemoryCheckpointer, so that the engine's own
// validation judges every line, and is then compared with the target: a
// thread the target lacks is imported; one it has is refused (kRefuse),
// skipped when the target's copy exports identically and refused otherwise
// (kResume), or replaced (kReplace). WriteImport then writes the input into
// the target by that plan, one whole thread after another.
//
// Thread-safety: none; one import at a time per target.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "formats/export_format.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::cli {

enum class ExistingThread { kRefuse, kResume, kReplace };

struct ImportPlan {
  formats::ExportCounts counts;  // lines of the whole input.
  uint64_t threads = 0;
  std::set<std::string> skip;     // already in the target, identical.
  std::set<std::string> replace;  // in the target, to be replaced.
};

// The checking pass. InvalidArgument naming the line or the thread for
// input the format or the engine refuses, or a thread the target has that
// `existing` does not allow; Aborted when options.interrupted() says so.
Result<ImportPlan> CheckImport(const std::string& file, Checkpointer& target,
                               ExistingThread existing,
                               const formats::ImportOptions& options,
                               const formats::ProgressFn& progress);

// What WriteImport wrote, also when it stopped early.
struct ImportDone {
  uint64_t threads = 0;      // written whole (skipped ones not counted).
  uint64_t checkpoints = 0;  // of those threads.
  // The thread being written when the pass stopped: partly written (or, if
  // it was to be replaced, deleted and partly rewritten).
  std::optional<std::string> partial;
};

// The writing pass: the threads of `file` that `plan` does not skip, into
// `target`, deleting each thread of plan.replace first. On error (Aborted
// when interrupted) `done` says what was written.
Status WriteImport(const std::string& file, Checkpointer& target,
                   const ImportPlan& plan,
                   const formats::ImportOptions& options,
                   const formats::ProgressFn& progress, ImportDone& done);

}  // namespace rockpoint::cli
