// Rebuilding the memory structures from a journal (journal_lines.h).
#include <set>
#include <string>
#include <utility>

#include "engine/jsonl/journal_lines.h"
#include "engine/jsonl/json_forms.h"
#include "engine/jsonl/line_checksum.h"
#include "engine/jsonl/sealed_lines.h"
#include "formats/export_header.h"

namespace rockpoint::jsonl {
namespace {

using memory::NamespaceKey;

Status ApplyValue(const Json& json, memory::Threads& threads) {
  RP_ASSIGN_OR_RETURN(ValueLine line,
                      ValueLineFromJson(json, Dialect::kJournal));
  memory::Blob blob{line.empty, std::move(line.value)};
  memory::InsertBlob(threads, NamespaceKey{line.thread, line.ns},
                     memory::BlobKey{line.channel, line.version},
                     std::move(blob));
  return Status::OK();
}

Status ApplyCheckpoint(const Json& json, memory::Threads& threads) {
  RP_ASSIGN_OR_RETURN(CheckpointLine line,
                      CheckpointLineFromJson(json, Dialect::kJournal));
  memory::StoredCheckpoint cp;
  cp.checkpoint = std::move(line.checkpoint);
  cp.parent_id = std::move(line.parent_id);
  cp.metadata = std::move(line.metadata);
  cp.stored_channels = std::move(*line.stored);
  cp.hidden = line.hidden;
  memory::SetCheckpoint(threads, NamespaceKey{line.thread, line.ns},
                        std::move(cp));
  return Status::OK();
}

Status ApplyWrite(const Json& json, memory::Threads& threads) {
  RP_ASSIGN_OR_RETURN(WriteLine line,
                      WriteLineFromJson(json, Dialect::kJournal));
  PendingWrite& write = line.write;
  memory::InsertWrite(
      threads, NamespaceKey{line.thread, line.ns}, line.checkpoint_id,
      memory::WriteKey{std::move(write.task_path), std::move(write.task_id),
                       write.idx},
      memory::StoredWrite{std::move(write.channel), std::move(write.value)});
  return Status::OK();
}

Status ApplyDeleteThread(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "delete_thread");
  RP_ASSIGN_OR_RETURN(std::string thread, fields.Text("thread"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  memory::DeleteThreadIn(threads, thread);
  return Status::OK();
}

Status ApplyDeleteRuns(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "delete_runs");
  RP_ASSIGN_OR_RETURN(const Json* runs_json, fields.Required("runs"));
  RP_ASSIGN_OR_RETURN(std::vector<std::string> runs,
                      TextsFromJson(*runs_json, fields.Path("runs")));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  memory::DeleteForRunsIn(threads, runs);
  return Status::OK();
}

Status ApplyCopyThread(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "copy_thread");
  RP_ASSIGN_OR_RETURN(std::string source, fields.Text("source"));
  RP_ASSIGN_OR_RETURN(std::string target, fields.Text("target"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return memory::CopyThreadIn(threads, source, target);
}

Status ApplyHide(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "hide");
  CheckpointConfig config;
  RP_ASSIGN_OR_RETURN(config.thread_id, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(config.checkpoint_ns, fields.Text("ns"));
  RP_ASSIGN_OR_RETURN(config.checkpoint_id, fields.Text("id"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return memory::HideCheckpointIn(threads, config);
}

Status ApplyPrune(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "prune");
  RP_ASSIGN_OR_RETURN(const Json* threads_json, fields.Required("threads"));
  RP_ASSIGN_OR_RETURN(std::vector<std::string> thread_ids,
                      TextsFromJson(*threads_json, fields.Path("threads")));
  RP_ASSIGN_OR_RETURN(std::string strategy, fields.Text("strategy"));
  RP_ASSIGN_OR_RETURN(int64_t keep_last, fields.Int("keep_last"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  if (strategy != "delete" && strategy != "keep_latest") {
    return BadField("prune.strategy", "expected \"delete\" or \"keep_latest\"");
  }
  if (strategy == "keep_latest" && keep_last < 1) {
    return BadField("prune.keep_last", "must be >= 1");
  }
  memory::PruneIn(threads, thread_ids,
                  strategy == "delete" ? PruneStrategy::kDelete
                                       : PruneStrategy::kKeepLatest,
                  static_cast<size_t>(keep_last));
  return Status::OK();
}

Status ApplyExpire(const Json& json, memory::Threads& threads) {
  LineFields fields(json, "expire");
  memory::Expired expired;
  RP_ASSIGN_OR_RETURN(expired.where.thread, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(expired.where.ns, fields.Text("ns"));
  RP_ASSIGN_OR_RETURN(const Json* ids, fields.Required("ids"));
  RP_ASSIGN_OR_RETURN(expired.ids, TextsFromJson(*ids, fields.Path("ids")));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  memory::ApplyExpired(threads, expired);
  return Status::OK();
}

// Applies one committed line (not the header). With a cipher, a record
// line is opened first (sealed_lines.h).
Status ApplyLine(std::string_view text, const RecordCipher* cipher,
                 memory::Threads& threads) {
  RP_RETURN_IF_ERROR(CheckJsonNesting(text));
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    return Status::InvalidArgument("not a JSON object");
  }
  const Json* kind = json.contains("kind") ? &json["kind"] : nullptr;
  const std::string name =
      kind && kind->is_string() ? kind->get<std::string>() : std::string();
  if (cipher != nullptr && IsRecordKind(name)) {
    RP_ASSIGN_OR_RETURN(json, OpenLine(json, *cipher));
  }
  if (name == "value") return ApplyValue(json, threads);
  if (name == "checkpoint") return ApplyCheckpoint(json, threads);
  if (name == "write") return ApplyWrite(json, threads);
  if (name == "commit") return LineFields(json, "commit").NoOthers();
  if (name == "delete_thread") return ApplyDeleteThread(json, threads);
  if (name == "delete_runs") return ApplyDeleteRuns(json, threads);
  if (name == "copy_thread") return ApplyCopyThread(json, threads);
  if (name == "hide") return ApplyHide(json, threads);
  if (name == "prune") return ApplyPrune(json, threads);
  if (name == "expire") return ApplyExpire(json, threads);
  return Status::InvalidArgument("unknown kind \"" + name + "\"");
}

// What a journal's header line says.
struct Header {
  StoredEncryption encryption;  // empty for a plaintext journal.
  int64_t version = 0;
};

Status HeaderCorruption(const std::string& path, const std::string& what) {
  return Status::Corruption(path + ": line 1: " + what);
}

// Checks that `version` is one this build reads, and that the header's
// checksum and encryption fit it.
Status CheckHeaderVersion(int64_t version, bool checked, bool encrypted,
                          const std::string& path) {
  if (version < kPlainJournalFormatVersion || version > kJournalFormatVersion) {
    return Status::InvalidArgument(
        path + ": journal format version " + std::to_string(version) +
        " is not supported by this build (supports 1 to " +
        std::to_string(kJournalFormatVersion) + ")");
  }
  if (checked != HasLineChecksums(version)) {
    return HeaderCorruption(
        path, checked ? "a header of version " + std::to_string(version) +
                            " with a checksum member"
                      : "a header of version " + std::to_string(version) +
                            " without its checksum member");
  }
  if (version == kPlainJournalFormatVersion && encrypted) {
    return Status::InvalidArgument(
        path +
        ": a version 1 header with an \"encryption\" member is not a "
        "journal this build reads");
  }
  return Status::OK();
}

// The header line, if it is the header of a journal of a version this
// build reads. A header whose checksum does not match is Corruption.
Result<Header> ReadHeader(std::string_view text, const std::string& path) {
  const bool checked = HasLineChecksum(text);
  std::string body(text);
  if (checked) {
    Result<std::string> opened = OpenCheckedLine(text);
    if (!opened.ok()) return HeaderCorruption(path, opened.status().message());
    body = std::move(*opened);
  }
  Json json = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  const bool object = !json.is_discarded() && json.is_object();
  const Json* format =
      object && json.contains("format") ? &json["format"] : nullptr;
  if (format && *format == formats::kExportFormatName) {
    return Status::InvalidArgument(
        path +
        " is a rockpoint export, not a journal: load it into a store "
        "with `rockpoint import`");
  }
  if (!format || *format != kJournalFormatName || json["kind"] != "header") {
    return Status::InvalidArgument(path + " is not a rockpoint journal");
  }
  LineFields fields(json, "header");
  (void)fields.Required("format");
  Header header;
  RP_ASSIGN_OR_RETURN(header.version, fields.Int("version"));
  RP_RETURN_IF_ERROR(CheckHeaderVersion(header.version, checked,
                                        json.contains("encryption"), path));
  if (header.version == kEncryptedJournalFormatVersion ||
      json.contains("encryption")) {
    RP_ASSIGN_OR_RETURN(const Json* encryption, fields.Required("encryption"));
    RP_ASSIGN_OR_RETURN(
        header.encryption,
        EncryptionFromJson(*encryption, fields.Path("encryption")));
  }
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return header;
}

// The start of an encrypted journal's header of `version`, up to its first
// member that differs from store to store.
std::string EncryptedHeaderStart(int64_t version) {
  const std::string header = HeaderLineOfVersion(
      StoredEncryption{std::string(kStoreIdBytes, '\0'), std::string(1, '\0')},
      version);
  return header.substr(0, header.find("\"store_id\""));
}

// Where a journal's parts end: its header line, and its committed lines.
struct Layout {
  size_t header_end = 0;  // the header's '\n'.
  size_t committed = 0;   // the end of the last commit line.
  uint64_t committed_lines = 1;
};

Layout Scan(std::string_view content, size_t header_end,
            std::string_view commit_line) {
  Layout layout;
  layout.header_end = header_end;
  layout.committed = header_end + 1;
  uint64_t lines = 1;
  for (size_t start = layout.committed; start < content.size();) {
    const size_t end = content.find('\n', start);
    if (end == std::string_view::npos) break;
    ++lines;
    if (content.substr(start, end + 1 - start) == commit_line) {
      layout.committed = end + 1;
      layout.committed_lines = lines;
    }
    start = end + 1;
  }
  return layout;
}

// The header's '\n', or npos for a creation that stopped; InvalidArgument
// for any other text without a line end.
Result<size_t> HeaderEnd(std::string_view content, const std::string& path) {
  const size_t header_end = content.find('\n');
  if (header_end == std::string_view::npos && !IsHeaderStart(content)) {
    return Status::InvalidArgument(path + " is not a rockpoint journal");
  }
  return header_end;
}

// The text of one line (without its '\n') as the line parsers read it:
// without its checksum member, checked, in a journal with line checksums.
Result<std::string> LineText(std::string_view line, bool line_checksums) {
  if (!line_checksums) return std::string(line);
  return OpenCheckedLine(line);
}

// The kinds of line a group holds: every kind but the header's.
bool IsGroupLineKind(const std::string& kind) {
  static const std::set<std::string> kKinds = {
      "value",       "checkpoint",  "write", "commit", "delete_thread",
      "delete_runs", "copy_thread", "hide",  "prune",  "expire"};
  return kKinds.contains(kind);
}

// Checks a whole line after the last commit line, which replay does not
// apply: it must pass its checksum, or (without checksums) be a JSON object
// of a kind a group holds.
Status CheckTailLine(std::string_view line, bool line_checksums) {
  RP_ASSIGN_OR_RETURN(const std::string text, LineText(line, line_checksums));
  if (line_checksums) return Status::OK();
  RP_RETURN_IF_ERROR(CheckJsonNesting(text));
  const Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  const bool object = !json.is_discarded() && json.is_object();
  if (!object || !json.contains("kind") || !json["kind"].is_string() ||
      !IsGroupLineKind(json["kind"].get<std::string>())) {
    return Status::InvalidArgument("not a line of a group");
  }
  return Status::OK();
}

// Checks the lines after the last commit line (`tail`, starting at line
// `number`): a torn tail holds whole lines that pass CheckTailLine and at
// most one last line without its '\n', which a crash leaves as a prefix of
// a line. A last line that is a whole line plus one byte is not such a
// prefix: its '\n' was overwritten.
Status CheckTornTail(std::string_view tail, uint64_t number,
                     bool line_checksums, const std::string& path) {
  for (size_t start = 0; start < tail.size(); ++number) {
    const size_t end = tail.find('\n', start);
    const auto corrupt = [&](const std::string& what) {
      return Status::Corruption(path + ": line " + std::to_string(number) +
                                " (after the last commit line): " + what);
    };
    if (end == std::string_view::npos) {
      const std::string_view last = tail.substr(start);
      if (CheckTailLine(last.substr(0, last.size() - 1), line_checksums).ok()) {
        return corrupt("a whole line whose line end was changed");
      }
      return Status::OK();
    }
    Status status =
        CheckTailLine(tail.substr(start, end - start), line_checksums);
    if (!status.ok()) return corrupt(status.message());
    start = end + 1;
  }
  return Status::OK();
}

}  // namespace

bool IsHeaderStart(std::string_view content) {
  for (const int64_t version :
       {kPlainJournalFormatVersion, kJournalFormatVersion}) {
    if (HeaderLineOfVersion(StoredEncryption{}, version).starts_with(content)) {
      return true;
    }
  }
  for (const int64_t version :
       {kEncryptedJournalFormatVersion, kJournalFormatVersion}) {
    const std::string encrypted = EncryptedHeaderStart(version);
    if (std::string_view(encrypted).starts_with(content) ||
        content.starts_with(encrypted)) {
      return true;
    }
  }
  return false;
}

Result<JournalHead> ReadHead(std::string_view content,
                             const std::string& path) {
  JournalHead head;
  RP_ASSIGN_OR_RETURN(const size_t header_end, HeaderEnd(content, path));
  if (header_end == std::string_view::npos) return head;
  RP_ASSIGN_OR_RETURN(const Header header,
                      ReadHeader(content.substr(0, header_end), path));
  head.encryption = header.encryption;
  head.version = header.version;
  head.has_header = true;
  head.has_committed_lines =
      Scan(content, header_end, CommitLine(head.line_checksums()))
          .committed_lines > 1;
  return head;
}

Result<ReplayResult> Replay(std::string_view content, const std::string& path,
                            memory::Threads* threads) {
  return Replay(content, path, nullptr, threads);
}

Result<ReplayResult> Replay(std::string_view content, const std::string& path,
                            const RecordCipher* cipher,
                            memory::Threads* threads) {
  ReplayResult result;
  RP_ASSIGN_OR_RETURN(const size_t header_end, HeaderEnd(content, path));
  if (header_end == std::string_view::npos) {
    // Only a creation that stopped leaves part of the header and nothing
    // else: it holds nothing.
    result.torn_tail_bytes = content.size();
    return result;
  }
  RP_ASSIGN_OR_RETURN(const Header header,
                      ReadHeader(content.substr(0, header_end), path));
  const StoredEncryption& stored = header.encryption;
  const bool line_checksums = HasLineChecksums(header.version);
  if (stored.encrypted() && cipher == nullptr) {
    return Status::InvalidArgument(path +
                                   " is an encrypted journal: give its key");
  }
  if (stored.encrypted() && cipher->store_id() != stored.store_id) {
    return Status::InvalidArgument(
        path + ": the cipher given is not the journal's store's");
  }
  result.has_header = true;
  // Everything up to the last commit line is committed; find it first.
  const Layout layout = Scan(content, header_end, CommitLine(line_checksums));
  uint64_t number = 1;
  for (size_t start = header_end + 1; start < layout.committed;) {
    const size_t end = content.find('\n', start);
    ++number;
    Result<std::string> text =
        LineText(content.substr(start, end - start), line_checksums);
    Status status =
        text.ok() ? ApplyLine(*text, cipher, *threads) : text.status();
    if (!status.ok()) {
      return Status::Corruption(path + ": line " + std::to_string(number) +
                                ": " + status.message());
    }
    start = end + 1;
  }
  RP_RETURN_IF_ERROR(CheckTornTail(content.substr(layout.committed),
                                   layout.committed_lines + 1, line_checksums,
                                   path));
  result.committed_bytes = layout.committed;
  result.committed_lines = layout.committed_lines;
  result.torn_tail_bytes = content.size() - layout.committed;
  return result;
}

}  // namespace rockpoint::jsonl
