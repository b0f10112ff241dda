// Helpers shared by several commands: confirmation prompts, metadata
// filters from the command line, all threads of a store, and the JSON forms
// of configs, checkpoints and writes used by history, show and writes.
//
// Thread-safety: none needed (pure, or reads stdin on the main thread).
#pragma once

#include <string>
#include <vector>

#include "formats/json_text.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"
#include "tools/cli/command.h"

namespace rockpoint::cli {

// Largest count a --limit / --keep accepts.
inline constexpr uint64_t kMaxCount = 1000000000;

// Checks a count option: a decimal whole number from 1 to kMaxCount;
// otherwise the error names the range and what was given.
CLI::Validator CountValidator();

// Asks `question` on the terminal. With `yes` returns true at once; when
// stdin is not a terminal (a script) returns InvalidArgument asking for
// --yes; otherwise true iff the answer is y or yes.
Result<bool> Confirm(const std::string& question, bool yes);

// key=value pairs -> a metadata filter (a map). The value is read as JSON
// when it is valid JSON (step=3 is the int 3, ok=true a bool, run='"7"' the
// string "7"), else taken as a plain string (source=loop). InvalidArgument
// for JSON nested deeper than value_json.h allows.
Result<Value> ParseFilter(const std::vector<std::string>& pairs);

// The tuple of (thread, ns, checkpoint_id), hidden or not, or the latest
// visible one of (thread, ns) without an id; NotFound naming what is
// missing.
Result<CheckpointTuple> FindTuple(
    Checkpointer& store, const std::string& thread, const std::string& ns,
    const std::optional<std::string>& checkpoint_id);

// Table-friendly rows of one pending write.
formats::Json WriteToRow(const PendingWrite& write, const Context& context);

// metadata[key] as JSON, or null.
formats::Json MetadataField(const Metadata& metadata, std::string_view key);

}  // namespace rockpoint::cli
