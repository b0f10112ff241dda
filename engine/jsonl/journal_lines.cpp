// What each call appends to the journal, and the snapshot a compaction
// writes (journal_lines.h).
#include "engine/jsonl/journal_lines.h"

#include <utility>

#include "engine/jsonl/json_forms.h"
#include "engine/jsonl/line_checksum.h"
#include "engine/jsonl/sealed_lines.h"

namespace rockpoint::jsonl {
namespace {

void AppendJson(const Json& json, std::string* out) {
  out->append(json.dump());
  out->push_back('\n');
}

Json Kind(const char* kind) {
  Json json = Json::object();
  json["kind"] = kind;
  return json;
}

ValueLine ValueLineOf(const memory::NamespaceKey& where,
                      const memory::BlobKey& key, const memory::Blob& blob) {
  ValueLine line;
  line.thread = where.thread;
  line.ns = where.ns;
  line.channel = key.first;
  line.version = key.second;
  line.empty = blob.empty;
  if (!blob.empty) line.value = blob.value;
  return line;
}

CheckpointLine CheckpointLineOf(const memory::NamespaceKey& where,
                                const memory::StoredCheckpoint& cp) {
  CheckpointLine line;
  line.thread = where.thread;
  line.ns = where.ns;
  line.hidden = cp.hidden;
  line.parent_id = cp.parent_id;
  line.checkpoint = cp.checkpoint;
  line.metadata = cp.metadata;
  line.stored = cp.stored_channels;
  return line;
}

WriteLine WriteLineOf(const memory::NamespaceKey& where,
                      const std::string& checkpoint_id,
                      const memory::WriteKey& key,
                      const memory::StoredWrite& write) {
  WriteLine line;
  line.thread = where.thread;
  line.ns = where.ns;
  line.checkpoint_id = checkpoint_id;
  line.write.task_path = std::get<0>(key);
  line.write.task_id = std::get<1>(key);
  line.write.idx = std::get<2>(key);
  line.write.channel = write.channel;
  line.write.value = write.value;
  line.write.checkpoint_id = checkpoint_id;
  return line;
}

// Appends `line`, sealed first when there is a cipher.
Status AppendRecord(Json line, const RecordCipher* cipher, std::string* out) {
  if (cipher != nullptr) {
    RP_ASSIGN_OR_RETURN(line, SealLine(std::move(line), *cipher));
  }
  AppendJson(line, out);
  return Status::OK();
}

// Calls `visit(where, ns)` for every namespace of `threads`.
template <typename Visit>
void ForEachNamespace(const memory::Threads& threads, Visit visit) {
  for (const auto& [thread_id, thread] : threads) {
    for (const auto& [ns_name, ns] : thread.namespaces) {
      visit(memory::NamespaceKey{thread_id, ns_name}, ns);
    }
  }
}

}  // namespace

std::string CommitLine(bool line_checksums) {
  return line_checksums ? WithLineChecksums(kCommitLine)
                        : std::string(kCommitLine);
}

std::string HeaderLine() { return HeaderLine(StoredEncryption{}); }

std::string HeaderLine(const StoredEncryption& stored) {
  return HeaderLineOfVersion(stored, kJournalFormatVersion);
}

std::string HeaderLineOfVersion(const StoredEncryption& stored,
                                int64_t version) {
  Json json = Kind("header");
  json["format"] = kJournalFormatName;
  json["version"] = version;
  if (stored.encrypted()) json["encryption"] = EncryptionToJson(stored);
  const std::string line = json.dump() + "\n";
  return HasLineChecksums(version) ? WithLineChecksums(line) : line;
}

void AppendPutLines(const memory::PutRecord& record, std::string* out) {
  // Without a cipher nothing is sealed, so nothing can fail.
  (void)AppendPutLines(record, nullptr, out);
}

Status AppendPutLines(const memory::PutRecord& record,
                      const RecordCipher* cipher, std::string* out) {
  std::string lines;
  for (const auto& [key, blob] : record.blobs) {
    RP_RETURN_IF_ERROR(
        AppendRecord(ValueLineToJson(ValueLineOf(record.where, key, blob),
                                     Dialect::kJournal),
                     cipher, &lines));
  }
  RP_RETURN_IF_ERROR(AppendRecord(
      CheckpointLineToJson(CheckpointLineOf(record.where, record.checkpoint)),
      cipher, &lines));
  out->append(lines);
  return Status::OK();
}

void AppendWritesLines(const memory::WritesRecord& record, std::string* out) {
  (void)AppendWritesLines(record, nullptr, out);
}

Status AppendWritesLines(const memory::WritesRecord& record,
                         const RecordCipher* cipher, std::string* out) {
  std::string lines;
  for (const auto& [key, write] : record.writes) {
    RP_RETURN_IF_ERROR(AppendRecord(
        WriteLineToJson(
            WriteLineOf(record.where, record.checkpoint_id, key, write),
            Dialect::kJournal),
        cipher, &lines));
  }
  out->append(lines);
  return Status::OK();
}

void AppendDeleteThreadLine(std::string_view thread, std::string* out) {
  Json json = Kind("delete_thread");
  json["thread"] = TextToJson(thread);
  AppendJson(json, out);
}

void AppendDeleteRunsLine(const std::vector<std::string>& runs,
                          std::string* out) {
  Json json = Kind("delete_runs");
  json["runs"] = TextsToJson(runs);
  AppendJson(json, out);
}

void AppendCopyThreadLine(std::string_view source, std::string_view target,
                          std::string* out) {
  Json json = Kind("copy_thread");
  json["source"] = TextToJson(source);
  json["target"] = TextToJson(target);
  AppendJson(json, out);
}

void AppendHideLine(const CheckpointConfig& config, std::string* out) {
  Json json = Kind("hide");
  json["thread"] = TextToJson(*config.thread_id);
  json["ns"] = TextToJson(config.checkpoint_ns.value_or(""));
  json["id"] = TextToJson(*config.checkpoint_id);
  AppendJson(json, out);
}

void AppendPruneLine(const std::vector<std::string>& threads,
                     PruneStrategy strategy, size_t keep_last,
                     std::string* out) {
  Json json = Kind("prune");
  json["threads"] = TextsToJson(threads);
  json["strategy"] =
      strategy == PruneStrategy::kDelete ? "delete" : "keep_latest";
  json["keep_last"] = keep_last;
  AppendJson(json, out);
}

void AppendExpireLine(const memory::Expired& expired, std::string* out) {
  Json json = Kind("expire");
  json["thread"] = TextToJson(expired.where.thread);
  json["ns"] = TextToJson(expired.where.ns);
  json["ids"] = TextsToJson(expired.ids);
  AppendJson(json, out);
}

std::string Snapshot(const memory::Threads& threads) {
  // Without a cipher nothing is sealed, so nothing can fail.
  return Snapshot(threads, StoredEncryption{}, nullptr).value();
}

Result<std::string> Snapshot(const memory::Threads& threads,
                             const StoredEncryption& stored,
                             const RecordCipher* cipher) {
  // The lines without their checksums first; the header's comes with it.
  std::string out;
  Status status;
  ForEachNamespace(threads, [&](const memory::NamespaceKey& where,
                                const memory::Namespace& ns) {
    const auto append = [&](Json line) {
      if (status.ok()) status = AppendRecord(std::move(line), cipher, &out);
    };
    for (const auto& [key, blob] : ns.blobs) {
      append(ValueLineToJson(ValueLineOf(where, key, blob), Dialect::kJournal));
    }
    for (const auto& [id, cp] : ns.checkpoints) {
      append(CheckpointLineToJson(CheckpointLineOf(where, cp)));
    }
    for (const auto& [checkpoint_id, writes] : ns.writes) {
      for (const auto& [key, write] : writes) {
        append(WriteLineToJson(WriteLineOf(where, checkpoint_id, key, write),
                               Dialect::kJournal));
      }
    }
  });
  RP_RETURN_IF_ERROR(status);
  out.append(kCommitLine);
  return HeaderLine(stored) + WithLineChecksums(out);
}

uint64_t SnapshotLines(const memory::Threads& threads) {
  uint64_t lines = 2;  // header and commit.
  ForEachNamespace(
      threads, [&](const memory::NamespaceKey&, const memory::Namespace& ns) {
        lines += ns.blobs.size() + ns.checkpoints.size();
        for (const auto& [checkpoint_id, writes] : ns.writes) {
          lines += writes.size();
        }
      });
  return lines;
}

}  // namespace rockpoint::jsonl
