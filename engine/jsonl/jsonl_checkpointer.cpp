// JsonlCheckpointer: the memory backend's structures (memory_ops.h) behind
// one mutex, with every change appended to the journal before the call
// returns (see jsonl_checkpointer.h; the format is engine/jsonl/FORMAT.md).
#include "engine/jsonl/jsonl_checkpointer.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/backend_rules.h"
#include "engine/jsonl/journal_file.h"
#include "engine/jsonl/journal_lines.h"
#include "engine/jsonl/journal_open.h"
#include "engine/jsonl/line_checksum.h"
#include "engine/memory_ops.h"
#include "engine/record_cipher.h"
#include "engine/retention_rule.h"

namespace rockpoint {

JsonlCheckpointer::JsonlCheckpointer(JsonlOptions options,
                                     jsonl::OpenedJournal journal)
    : Checkpointer(FrontChecks{.limits = options.limits,
                               .read_only = options.read_only,
                               .store_name = options.path}),
      options_(std::move(options)),
      encryption_(std::move(journal.encryption)),
      cipher_(std::move(journal.cipher)),
      file_(std::move(journal.file)),
      threads_(std::move(journal.threads)),
      lines_(journal.lines),
      live_lines_(memory_live_lines()),
      version_(journal.version),
      torn_tail_bytes_(journal.torn_tail_bytes),
      torn_tail_bytes_cut_(journal.torn_tail_bytes_cut) {}

JsonlCheckpointer::~JsonlCheckpointer() { (void)Close(); }

Status JsonlCheckpointer::Change(
    std::string lines,
    const std::function<Result<LiveChange>(memory::Threads&)>& apply) {
  return ChangeWriting(
      [&](memory::Threads& threads, std::string& out) -> Result<LiveChange> {
        out = std::move(lines);
        return apply(threads);
      });
}

Status JsonlCheckpointer::ChangeWriting(
    const std::function<Result<LiveChange>(memory::Threads&, std::string&)>&
        apply) {
  base::MutexLock lock(&mu_);
  RP_RETURN_IF_ERROR(CheckWritable());
  std::string lines;
  RP_ASSIGN_OR_RETURN(const LiveChange live, apply(threads_, lines));
  if (lines.empty()) return Status::OK();
  const uint64_t added = std::count(lines.begin(), lines.end(), '\n');
  lines.append(jsonl::kCommitLine);
  if (jsonl::HasLineChecksums(version_)) {
    lines = jsonl::WithLineChecksums(lines);
  }
  Status status = file_->Append(lines);
  if (status.ok() && options_.sync_writes) status = file_->Sync();
  if (!status.ok()) {
    stopped_ =
        Status::IOError("the journal could not be written, reopen the store: " +
                        status.message());
    return status;
  }
  lines_ += added + 1;
  live_lines_ = live ? live_lines_ + *live : memory_live_lines();
  MaybeCompact();
  return Status::OK();
}

Status JsonlCheckpointer::Compact() {
  base::MutexLock lock(&mu_);
  RP_RETURN_IF_ERROR(CheckWritable());
  return CompactLocked();
}

Result<JsonlStats> JsonlCheckpointer::Stats() {
  base::MutexLock lock(&mu_);
  RP_RETURN_IF_ERROR(CheckReadable());
  JsonlStats stats;
  stats.file_bytes = file_->size();
  stats.lines = lines_;
  stats.live_lines = jsonl::SnapshotLines(threads_);
  stats.torn_tail_bytes = torn_tail_bytes_;
  stats.torn_tail_bytes_cut = torn_tail_bytes_cut_;
  stats.format_version = version_;
  stats.compactions = compactions_;
  stats.encrypted = cipher_ != nullptr;
  return stats;
}

Status JsonlCheckpointer::DoClose() {
  base::MutexLock lock(&mu_);
  if (!file_) return Status::OK();
  // A stopped store reports why it stopped: what the failed call did is
  // not in the journal.
  Status status = stopped_;
  if (status.ok() && !options_.read_only && !options_.sync_writes) {
    status = file_->Sync();
  }
  file_.reset();
  threads_.clear();
  return status;
}

uint64_t JsonlCheckpointer::memory_live_lines() const
    NO_THREAD_SAFETY_ANALYSIS {
  return jsonl::SnapshotLines(threads_);
}

Status JsonlCheckpointer::CheckReadable() const {
  if (!file_) return StoreClosedError();
  return stopped_;
}

Status JsonlCheckpointer::CheckWritable() const {
  RP_RETURN_IF_ERROR(CheckReadable());
  if (options_.read_only) {
    return Status::InvalidArgument("store opened read-only: " + options_.path);
  }
  return Status::OK();
}

void JsonlCheckpointer::MaybeCompact() {
  const uint64_t minimum = options_.auto_compact_min_lines;
  if (minimum == 0 || lines_ < minimum) return;
  if (lines_ - std::min(lines_, live_lines_) <= live_lines_) return;
  (void)CompactLocked();
}

Status JsonlCheckpointer::CompactLocked() {
  RP_ASSIGN_OR_RETURN(const std::string snapshot,
                      jsonl::Snapshot(threads_, encryption_, cipher_.get()));
  RP_RETURN_IF_ERROR(file_->Replace(snapshot));
  lines_ = std::count(snapshot.begin(), snapshot.end(), '\n');
  live_lines_ = lines_;
  version_ = jsonl::kJournalFormatVersion;
  ++compactions_;
  return Status::OK();
}

Result<std::unique_ptr<JsonlCheckpointer>> JsonlCheckpointer::Open(
    const JsonlOptions& options) {
  if (options.path.empty()) {
    return Status::InvalidArgument("JsonlOptions.path is empty");
  }
  RP_ASSIGN_OR_RETURN(jsonl::OpenedJournal journal,
                      jsonl::OpenJournal(options, jsonl::Repair::kRepair));
  return std::unique_ptr<JsonlCheckpointer>(
      new JsonlCheckpointer(options, std::move(journal)));
}

Status JsonlCheckpointer::Rekey(
    const JsonlOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  if (options.path.empty()) {
    return Status::InvalidArgument("JsonlOptions.path is empty");
  }
  if (options.read_only) {
    return Status::InvalidArgument(
        "Rekey rewrites the journal: " + options.path + " is opened read-only");
  }
  // The new key's store: a new store id and key check.
  StoredEncryption encryption;
  RP_ASSIGN_OR_RETURN(
      const std::unique_ptr<RecordCipher> cipher,
      OpenStoreCipher(new_encryption, StoredEncryption{},
                      /*store_has_records=*/false, &encryption));
  JsonlOptions existing = options;
  existing.create_if_missing = false;
  RP_ASSIGN_OR_RETURN(jsonl::OpenedJournal journal,
                      jsonl::OpenJournal(existing, jsonl::Repair::kNone));
  RP_ASSIGN_OR_RETURN(
      const std::string snapshot,
      jsonl::Snapshot(journal.threads, encryption, cipher.get()));
  // PATH.compact, synced, renamed over the journal, directory synced: a
  // crash leaves the old journal or the new one.
  return journal.file->Replace(snapshot);
}

Result<StoreFigures> JsonlCheckpointer::Figures() {
  StoreFigures figures;
  figures.backend = BackendKind::kJsonl;
  RP_ASSIGN_OR_RETURN(figures.jsonl, Stats());
  return figures;
}

Result<std::vector<WriteLocation>> JsonlCheckpointer::FindOrphanWrites() {
  return WithThreads(
      [](const memory::Threads& threads) -> Result<std::vector<WriteLocation>> {
        return memory::FindOrphanWrites(threads);
      });
}

Result<CheckpointConfig> JsonlCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  memory::PutRecord record =
      memory::MakePutRecord(config, checkpoint, metadata, new_versions);
  CheckpointConfig stored{record.where.thread, record.where.ns, checkpoint.id};
  std::string lines;
  RP_RETURN_IF_ERROR(jsonl::AppendPutLines(record, cipher_.get(), &lines));
  RP_RETURN_IF_ERROR(Change(
      std::move(lines), [&](memory::Threads& threads) -> Result<LiveChange> {
        return LiveChange(memory::ApplyPut(threads, std::move(record)));
      }));
  return stored;
}

Status JsonlCheckpointer::DoPutWrites(const CheckpointConfig& config,
                                      const std::vector<ChannelWrite>& writes,
                                      std::string_view task_id,
                                      std::string_view task_path) {
  memory::WritesRecord record =
      memory::MakeWritesRecord(config, writes, task_id, task_path);
  std::string lines;
  RP_RETURN_IF_ERROR(jsonl::AppendWritesLines(record, cipher_.get(), &lines));
  return Change(
      std::move(lines), [&](memory::Threads& threads) -> Result<LiveChange> {
        return LiveChange(memory::ApplyWrites(threads, std::move(record)));
      });
}

Result<std::optional<CheckpointTuple>> JsonlCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  return WithThreads([&](const memory::Threads& threads)
                         -> Result<std::optional<CheckpointTuple>> {
    return memory::GetTupleIn(threads, config);
  });
}

Result<std::unique_ptr<TupleCursor>> JsonlCheckpointer::DoList(
    const ListOptions& options) {
  RP_ASSIGN_OR_RETURN(std::vector<CheckpointTuple> tuples,
                      WithThreads([&](const memory::Threads& threads)
                                      -> Result<std::vector<CheckpointTuple>> {
                        return memory::ListIn(threads, options);
                      }));
  return memory::MakeSnapshotCursor(std::move(tuples));
}

Status JsonlCheckpointer::DoDeleteThread(std::string_view thread_id) {
  std::string lines;
  jsonl::AppendDeleteThreadLine(thread_id, &lines);
  return Change(std::move(lines),
                [&](memory::Threads& threads) -> Result<LiveChange> {
                  memory::DeleteThreadIn(threads, thread_id);
                  return LiveChange();
                });
}

Status JsonlCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  std::string lines;
  jsonl::AppendDeleteRunsLine(run_ids, &lines);
  return Change(std::move(lines),
                [&](memory::Threads& threads) -> Result<LiveChange> {
                  memory::DeleteForRunsIn(threads, run_ids);
                  return LiveChange();
                });
}

Status JsonlCheckpointer::DoCopyThread(std::string_view source,
                                       std::string_view target) {
  std::string lines;
  jsonl::AppendCopyThreadLine(source, target, &lines);
  return Change(
      std::move(lines), [&](memory::Threads& threads) -> Result<LiveChange> {
        RP_RETURN_IF_ERROR(memory::CopyThreadIn(threads, source, target));
        return LiveChange();
      });
}

Status JsonlCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  std::string lines;
  jsonl::AppendHideLine(config, &lines);
  return Change(std::move(lines),
                [&](memory::Threads& threads) -> Result<LiveChange> {
                  // The hide line itself is dead: the checkpoint line carries
                  // it.
                  RP_RETURN_IF_ERROR(memory::HideCheckpointIn(threads, config));
                  return LiveChange(0);
                });
}

Status JsonlCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                  PruneStrategy strategy, size_t keep_last) {
  std::string lines;
  jsonl::AppendPruneLine(thread_ids, strategy, keep_last, &lines);
  return Change(std::move(lines),
                [&](memory::Threads& threads) -> Result<LiveChange> {
                  memory::PruneIn(threads, thread_ids, strategy, keep_last);
                  return LiveChange();
                });
}

Result<RetentionReport> JsonlCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  RetentionReport report;
  std::vector<memory::Expired> plan;
  const auto plan_expiry = [&](const memory::Threads& threads) {
    report = memory::PlanExpiry(threads, thread_ids, rule, &plan);
    return Status::OK();
  };
  if (rule.dry_run) {
    RP_RETURN_IF_ERROR(WithThreads(plan_expiry));
    return report;
  }
  RP_RETURN_IF_ERROR(ChangeWriting(
      [&](memory::Threads& threads, std::string& lines) -> Result<LiveChange> {
        RP_RETURN_IF_ERROR(plan_expiry(threads));
        for (const memory::Expired& expired : plan) {
          jsonl::AppendExpireLine(expired, &lines);
          memory::ApplyExpired(threads, expired);
        }
        return LiveChange();
      }));
  return report;
}

Result<DeltaHistory> JsonlCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  return WithThreads(
      [&](const memory::Threads& threads) -> Result<DeltaHistory> {
        return memory::DeltaHistoryIn(threads, config, channels);
      });
}

Result<ThreadPage> JsonlCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  return WithThreads([&](const memory::Threads& threads) -> Result<ThreadPage> {
    return memory::ListThreadsIn(threads, options);
  });
}

}  // namespace rockpoint
