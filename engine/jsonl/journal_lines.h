// The journal's lines (engine/jsonl/FORMAT.md): what each call appends, the
// snapshot a compaction writes, and the replay that rebuilds the memory
// structures from a journal.
//
// Every function that appends lines ends each with '\n'; a call's group is
// closed by kCommitLine, which callers append once per call.
//
// Thread-safety: pure functions (Replay writes only to `threads`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/memory_ops.h"
#include "rockpoint/status.h"

namespace rockpoint::jsonl {

inline constexpr std::string_view kJournalFormatName = "rockpoint-journal";
inline constexpr int64_t kJournalFormatVersion = 1;
// Exactly these bytes: replay finds the last commit by comparing lines.
inline constexpr std::string_view kCommitLine = "{\"kind\":\"commit\"}\n";

std::string HeaderLine();

void AppendPutLines(const memory::PutRecord& record, std::string* out);
void AppendWritesLines(const memory::WritesRecord& record, std::string* out);
void AppendDeleteThreadLine(std::string_view thread, std::string* out);
void AppendDeleteRunsLine(const std::vector<std::string>& runs,
                          std::string* out);
void AppendCopyThreadLine(std::string_view source, std::string_view target,
                          std::string* out);
void AppendHideLine(const CheckpointConfig& config, std::string* out);
void AppendPruneLine(const std::vector<std::string>& threads,
                     PruneStrategy strategy, size_t keep_last,
                     std::string* out);
// The checkpoints one retention pass expired in one (thread, ns).
void AppendExpireLine(const memory::Expired& expired, std::string* out);

// A whole journal holding `threads`: the header, a line per stored value,
// checkpoint and write, and one commit line.
std::string Snapshot(const memory::Threads& threads);
// The number of lines Snapshot(threads) has.
uint64_t SnapshotLines(const memory::Threads& threads);

struct ReplayResult {
  // False when the file is a prefix of the header line (a creation that
  // did not finish, or an empty file): it holds nothing and a writer
  // rewrites it.
  bool has_header = false;
  uint64_t committed_bytes = 0;  // up to the end of the last commit line.
  uint64_t committed_lines = 0;  // lines within committed_bytes.
  uint64_t torn_tail_bytes = 0;  // after committed_bytes.
};

// Applies every line of `content` up to its last commit line to `threads`.
// InvalidArgument for a file that is not a journal (naming an export as
// such) or of a newer version; Corruption "<path>: line N: ..." for a
// committed line that does not parse or does not apply.
Result<ReplayResult> Replay(std::string_view content, const std::string& path,
                            memory::Threads* threads);

}  // namespace rockpoint::jsonl
