// JsonlCheckpointer: the memory backend's structures (memory_ops.h) behind
// one mutex, with every change appended to the journal before the call
// returns (see jsonl_checkpointer.h; the format is engine/jsonl/FORMAT.md).
#include "rockpoint/jsonl_checkpointer.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/jsonl/journal_file.h"
#include "engine/jsonl/journal_lines.h"
#include "engine/jsonl/journal_open.h"
#include "engine/jsonl/line_checksum.h"
#include "engine/memory_ops.h"
#include "engine/record_cipher.h"
#include "engine/retention_rule.h"
#include "engine/validation.h"

namespace rockpoint {

using jsonl::JournalFile;

class JsonlCheckpointer::Impl {
 public:
  Impl(JsonlOptions options, jsonl::OpenedJournal journal)
      : options_(std::move(options)),
        encryption_(std::move(journal.encryption)),
        cipher_(std::move(journal.cipher)),
        file_(std::move(journal.file)),
        threads_(std::move(journal.threads)),
        lines_(journal.lines),
        live_lines_(memory_live_lines()),
        version_(journal.version),
        torn_tail_bytes_(journal.torn_tail_bytes),
        torn_tail_bytes_cut_(journal.torn_tail_bytes_cut) {}

  const JsonlOptions& options() const { return options_; }
  // Seals the record lines of an encrypted store; null for a plaintext one.
  const RecordCipher* cipher() const { return cipher_.get(); }

  // Runs `read` on the structures if the store is readable.
  template <typename Read>
  auto WithThreads(Read read) -> decltype(read(memory::Threads())) {
    base::MutexLock lock(&mu_);
    RP_RETURN_IF_ERROR(CheckReadable());
    return read(threads_);
  }

  // What a change did to the live lines: added this many records, or
  // (nullopt) removed some, so they are counted again.
  using LiveChange = std::optional<uint64_t>;

  // Applies a change to the structures, then appends its journal `lines`
  // and a commit line (synced with sync_writes). A change that `apply`
  // refuses is returned as is, with nothing written. If the append fails
  // after the change was applied, the store stops: every later call returns
  // that error until it is reopened from the journal.
  Status Change(
      std::string lines,
      const std::function<Result<LiveChange>(memory::Threads&)>& apply) {
    return ChangeWriting(
        [&](memory::Threads& threads, std::string& out) -> Result<LiveChange> {
          out = std::move(lines);
          return apply(threads);
        });
  }

  // Change, for a change whose journal lines depend on what is stored:
  // `apply` sets them (its second argument). Nothing is written when it
  // refuses the change or sets no line.
  Status ChangeWriting(
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
      stopped_ = Status::IOError(
          "the journal could not be written, reopen the store: " +
          status.message());
      return status;
    }
    lines_ += added + 1;
    live_lines_ = live ? live_lines_ + *live : memory_live_lines();
    MaybeCompact();
    return Status::OK();
  }

  Status Compact() {
    base::MutexLock lock(&mu_);
    RP_RETURN_IF_ERROR(CheckWritable());
    return CompactLocked();
  }

  Result<JsonlStats> Stats() {
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

  Status Close() {
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

 private:
  uint64_t memory_live_lines() const NO_THREAD_SAFETY_ANALYSIS {
    return jsonl::SnapshotLines(threads_);
  }

  Status CheckReadable() const REQUIRES(mu_) {
    if (!file_) return StoreClosedError();
    return stopped_;
  }

  Status CheckWritable() const REQUIRES(mu_) {
    RP_RETURN_IF_ERROR(CheckReadable());
    if (options_.read_only) {
      return Status::InvalidArgument("store opened read-only: " +
                                     options_.path);
    }
    return Status::OK();
  }

  // Compacts once dead lines outweigh live ones. A failed compaction leaves
  // the journal as it was (the call it follows is already durable); the
  // next call that meets the condition tries again.
  void MaybeCompact() REQUIRES(mu_) {
    const uint64_t minimum = options_.auto_compact_min_lines;
    if (minimum == 0 || lines_ < minimum) return;
    if (lines_ - std::min(lines_, live_lines_) <= live_lines_) return;
    (void)CompactLocked();
  }

  Status CompactLocked() REQUIRES(mu_) {
    RP_ASSIGN_OR_RETURN(const std::string snapshot,
                        jsonl::Snapshot(threads_, encryption_, cipher_.get()));
    RP_RETURN_IF_ERROR(file_->Replace(snapshot));
    lines_ = std::count(snapshot.begin(), snapshot.end(), '\n');
    live_lines_ = lines_;
    version_ = jsonl::kJournalFormatVersion;
    ++compactions_;
    return Status::OK();
  }

  const JsonlOptions options_;
  const StoredEncryption encryption_;  // what the journal's header holds.
  const std::unique_ptr<RecordCipher> cipher_;
  base::Mutex mu_;
  std::unique_ptr<JournalFile> file_ GUARDED_BY(mu_);  // null once closed.
  memory::Threads threads_ GUARDED_BY(mu_);
  uint64_t lines_ GUARDED_BY(mu_);
  uint64_t live_lines_ GUARDED_BY(mu_);
  int64_t version_ GUARDED_BY(mu_);  // header.version of the journal.
  const uint64_t torn_tail_bytes_;
  const uint64_t torn_tail_bytes_cut_;
  uint64_t compactions_ GUARDED_BY(mu_) = 0;
  Status stopped_ GUARDED_BY(mu_);  // set when an append failed.
};

Result<std::unique_ptr<JsonlCheckpointer>> JsonlCheckpointer::Open(
    const JsonlOptions& options) {
  if (options.path.empty()) {
    return Status::InvalidArgument("JsonlOptions.path is empty");
  }
  RP_ASSIGN_OR_RETURN(jsonl::OpenedJournal journal,
                      jsonl::OpenJournal(options, jsonl::Repair::kRepair));
  return std::unique_ptr<JsonlCheckpointer>(new JsonlCheckpointer(
      std::make_unique<Impl>(options, std::move(journal))));
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

JsonlCheckpointer::JsonlCheckpointer(std::unique_ptr<Impl> impl)
    : Checkpointer(FrontChecks{.limits = impl->options().limits,
                               .read_only = impl->options().read_only,
                               .store_name = impl->options().path}),
      impl_(std::move(impl)) {}

JsonlCheckpointer::~JsonlCheckpointer() { (void)Close(); }

Status JsonlCheckpointer::DoClose() { return impl_->Close(); }

Status JsonlCheckpointer::Compact() { return impl_->Compact(); }

Result<JsonlStats> JsonlCheckpointer::Stats() { return impl_->Stats(); }

Result<StoreFigures> JsonlCheckpointer::Figures() {
  StoreFigures figures;
  figures.backend = BackendKind::kJsonl;
  RP_ASSIGN_OR_RETURN(figures.jsonl, Stats());
  return figures;
}

Result<std::vector<WriteLocation>> JsonlCheckpointer::FindOrphanWrites() {
  return impl_->WithThreads(
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
  RP_RETURN_IF_ERROR(jsonl::AppendPutLines(record, impl_->cipher(), &lines));
  RP_RETURN_IF_ERROR(impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        return Impl::LiveChange(memory::ApplyPut(threads, std::move(record)));
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
  RP_RETURN_IF_ERROR(jsonl::AppendWritesLines(record, impl_->cipher(), &lines));
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        return Impl::LiveChange(
            memory::ApplyWrites(threads, std::move(record)));
      });
}

Result<std::optional<CheckpointTuple>> JsonlCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  return impl_->WithThreads([&](const memory::Threads& threads)
                                -> Result<std::optional<CheckpointTuple>> {
    return memory::GetTupleIn(threads, config);
  });
}

Result<std::unique_ptr<TupleCursor>> JsonlCheckpointer::DoList(
    const ListOptions& options) {
  RP_ASSIGN_OR_RETURN(
      std::vector<CheckpointTuple> tuples,
      impl_->WithThreads([&](const memory::Threads& threads)
                             -> Result<std::vector<CheckpointTuple>> {
        return memory::ListIn(threads, options);
      }));
  return memory::MakeSnapshotCursor(std::move(tuples));
}

Status JsonlCheckpointer::DoDeleteThread(std::string_view thread_id) {
  std::string lines;
  jsonl::AppendDeleteThreadLine(thread_id, &lines);
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        memory::DeleteThreadIn(threads, thread_id);
        return Impl::LiveChange();
      });
}

Status JsonlCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  std::string lines;
  jsonl::AppendDeleteRunsLine(run_ids, &lines);
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        memory::DeleteForRunsIn(threads, run_ids);
        return Impl::LiveChange();
      });
}

Status JsonlCheckpointer::DoCopyThread(std::string_view source,
                                       std::string_view target) {
  std::string lines;
  jsonl::AppendCopyThreadLine(source, target, &lines);
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        RP_RETURN_IF_ERROR(memory::CopyThreadIn(threads, source, target));
        return Impl::LiveChange();
      });
}

Status JsonlCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  std::string lines;
  jsonl::AppendHideLine(config, &lines);
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        // The hide line itself is dead: the checkpoint line carries it.
        RP_RETURN_IF_ERROR(memory::HideCheckpointIn(threads, config));
        return Impl::LiveChange(0);
      });
}

Status JsonlCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                  PruneStrategy strategy, size_t keep_last) {
  std::string lines;
  jsonl::AppendPruneLine(thread_ids, strategy, keep_last, &lines);
  return impl_->Change(
      std::move(lines),
      [&](memory::Threads& threads) -> Result<Impl::LiveChange> {
        memory::PruneIn(threads, thread_ids, strategy, keep_last);
        return Impl::LiveChange();
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
    RP_RETURN_IF_ERROR(impl_->WithThreads(plan_expiry));
    return report;
  }
  RP_RETURN_IF_ERROR(
      impl_->ChangeWriting([&](memory::Threads& threads,
                               std::string& lines) -> Result<Impl::LiveChange> {
        RP_RETURN_IF_ERROR(plan_expiry(threads));
        for (const memory::Expired& expired : plan) {
          jsonl::AppendExpireLine(expired, &lines);
          memory::ApplyExpired(threads, expired);
        }
        return Impl::LiveChange();
      }));
  return report;
}

Result<DeltaHistory> JsonlCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  return impl_->WithThreads(
      [&](const memory::Threads& threads) -> Result<DeltaHistory> {
        return memory::DeltaHistoryIn(threads, config, channels);
      });
}

Result<ThreadPage> JsonlCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  return impl_->WithThreads(
      [&](const memory::Threads& threads) -> Result<ThreadPage> {
        return memory::ListThreadsIn(threads, options);
      });
}

}  // namespace rockpoint
