// The journal's lines (engine/jsonl/FORMAT.md): what each call appends, the
// snapshot a compaction writes, and the replay that rebuilds the memory
// structures from a journal. In an encrypted journal the record lines are
// sealed (sealed_lines.h) by the overloads that take a RecordCipher.
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
#include "engine/record_cipher.h"
#include "rockpoint/status.h"

namespace rockpoint::jsonl {

inline constexpr std::string_view kJournalFormatName = "rockpoint-journal";
// The version every journal is written in: every line, the header
// included, ends with its checksum member (line_checksum.h); a header with
// an "encryption" member makes it an encrypted journal (its record lines
// sealed: sealed_lines.h).
inline constexpr int64_t kJournalFormatVersion = 3;
// Read, and appended to, but never created: a plaintext journal without
// line checksums (1), and its encrypted form (2).
inline constexpr int64_t kPlainJournalFormatVersion = 1;
inline constexpr int64_t kEncryptedJournalFormatVersion = 2;
// Whether every line of a journal of `version` ends with its checksum
// member (line_checksum.h).
inline bool HasLineChecksums(int64_t version) {
  return version >= kJournalFormatVersion;
}
// The commit line as the writers produce it, before a version 3 journal's
// checksum member is added (WithLineChecksums); a version 1 or 2 journal
// holds exactly these bytes.
inline constexpr std::string_view kCommitLine = "{\"kind\":\"commit\"}\n";
// The commit line of a journal with (true) or without line checksums:
// replay finds the last commit by comparing lines with it.
std::string CommitLine(bool line_checksums);

// The header of a new plaintext journal (version 3).
std::string HeaderLine();
// The header of a new journal whose encryption is `stored` (version 3,
// with an "encryption" member unless `stored` is empty).
std::string HeaderLine(const StoredEncryption& stored);
// The header a journal of `version` (1, 2 or 3) starts with, for a store
// whose encryption is `stored` (empty for versions 1, set for 2).
std::string HeaderLineOfVersion(const StoredEncryption& stored,
                                int64_t version);

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

// With a `cipher` (an encrypted journal), the put's and put_writes' lines
// with their records sealed (sealed_lines.h); with nullptr, exactly the
// plaintext lines above. IOError if sealing fails (nothing appended then).
Status AppendPutLines(const memory::PutRecord& record,
                      const RecordCipher* cipher, std::string* out);
Status AppendWritesLines(const memory::WritesRecord& record,
                         const RecordCipher* cipher, std::string* out);

// A whole journal holding `threads`, of the current version: the header, a
// line per stored value, checkpoint and write, and one commit line.
std::string Snapshot(const memory::Threads& threads);
// The same for a journal whose encryption is `stored` (HeaderLine(stored))
// and whose records `cipher` seals (nullptr: plaintext, as above). IOError
// if sealing fails.
Result<std::string> Snapshot(const memory::Threads& threads,
                             const StoredEncryption& stored,
                             const RecordCipher* cipher);
// The number of lines Snapshot(threads) has.
uint64_t SnapshotLines(const memory::Threads& threads);

struct ReplayResult {
  // False when the file is a prefix of the header line (a creation that
  // did not finish, or an empty file): it holds nothing and a writer
  // rewrites it.
  bool has_header = false;
  uint64_t committed_bytes = 0;  // up to the end of the last commit line.
  uint64_t committed_lines = 0;  // lines within committed_bytes.
  // After committed_bytes: whole lines that pass their checksum (version 3)
  // or parse (versions 1, 2), then at most one line without its '\n'.
  uint64_t torn_tail_bytes = 0;
};

// Applies every line of `content` up to its last commit line to `threads`.
// InvalidArgument for a file that is not a journal (naming an export as
// such), of a newer version, or encrypted; Corruption "<path>: line N: ..."
// for a whole line (one that ends in '\n') anywhere in the file that fails
// its checksum (version 3) or does not parse, for a committed line that
// does not apply, and for a last line without its '\n' that is a whole line
// followed by one more byte (its line end was damaged).
Result<ReplayResult> Replay(std::string_view content, const std::string& path,
                            memory::Threads* threads);

// True if `content`, a file without a line end, is what a creation that
// stopped leaves: the start of a plaintext or an encrypted header line
// (an encrypted one up to any of its store-specific bytes).
bool IsHeaderStart(std::string_view content);

// What a journal's header says, read before its lines are: what the store
// keeps about its encryption, and whether it holds any committed line.
struct JournalHead {
  bool has_header = false;           // as ReplayResult::has_header.
  StoredEncryption encryption;       // empty for a plaintext journal.
  bool has_committed_lines = false;  // a commit line follows the header.
  int64_t version = 0;               // header.version, once there is one.
  // Every line ends with its checksum member (version 3).
  bool line_checksums() const { return HasLineChecksums(version); }
};
// InvalidArgument as Replay for a file that is not a journal of this build.
Result<JournalHead> ReadHead(std::string_view content, const std::string& path);

// Replay, with the cipher of the journal's store (OpenStoreCipher of
// ReadHead's encryption), nullptr for a plaintext store. With a cipher
// every committed record line must be sealed and open under its name
// (Corruption "<path>: line N: <kind> at <name>: ..." otherwise). A
// plaintext header with a cipher is accepted (OpenStoreCipher gives one
// for a plaintext journal only while it holds no committed line: it is
// being encrypted). InvalidArgument for an encrypted journal without a
// cipher or with another store's.
Result<ReplayResult> Replay(std::string_view content, const std::string& path,
                            const RecordCipher* cipher,
                            memory::Threads* threads);

}  // namespace rockpoint::jsonl
