// MemoryCheckpointer: the operations of memory_ops.h behind one mutex.
#include "rockpoint/memory_checkpointer.h"

#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/backend_rules.h"
#include "engine/memory_ops.h"

namespace rockpoint {

struct MemoryCheckpointer::State {
  base::Mutex mu;
  bool closed GUARDED_BY(mu) = false;
  memory::Threads threads GUARDED_BY(mu);

  // Aborted once the store is closed.
  Status CheckOpen() const REQUIRES(mu) {
    return closed ? StoreClosedError() : Status::OK();
  }
};

MemoryCheckpointer::MemoryCheckpointer(CheckpointerLimits limits)
    : Checkpointer(FrontChecks{
          .limits = limits, .read_only = false, .store_name = "memory:"}),
      state_(std::make_unique<State>()) {}

MemoryCheckpointer::~MemoryCheckpointer() = default;

Result<std::vector<WriteLocation>> MemoryCheckpointer::FindOrphanWrites() {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::FindOrphanWrites(state_->threads);
}

Status MemoryCheckpointer::DoClose() {
  base::MutexLock lock(&state_->mu);
  state_->closed = true;
  state_->threads.clear();
  return Status::OK();
}

Result<CheckpointConfig> MemoryCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  memory::PutRecord record =
      memory::MakePutRecord(config, checkpoint, metadata, new_versions);
  CheckpointConfig stored{record.where.thread, record.where.ns, checkpoint.id};
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  memory::ApplyPut(state_->threads, std::move(record));
  return stored;
}

Status MemoryCheckpointer::DoPutWrites(const CheckpointConfig& config,
                                       const std::vector<ChannelWrite>& writes,
                                       std::string_view task_id,
                                       std::string_view task_path) {
  memory::WritesRecord record =
      memory::MakeWritesRecord(config, writes, task_id, task_path);
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  memory::ApplyWrites(state_->threads, std::move(record));
  return Status::OK();
}

Result<std::optional<CheckpointTuple>> MemoryCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::GetTupleIn(state_->threads, config);
}

Result<std::unique_ptr<TupleCursor>> MemoryCheckpointer::DoList(
    const ListOptions& options) {
  std::vector<CheckpointTuple> tuples;
  {
    base::MutexLock lock(&state_->mu);
    RP_RETURN_IF_ERROR(state_->CheckOpen());
    tuples = memory::ListIn(state_->threads, options);
  }
  return memory::MakeSnapshotCursor(std::move(tuples));
}

Status MemoryCheckpointer::DoDeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  memory::DeleteThreadIn(state_->threads, thread_id);
  return Status::OK();
}

Status MemoryCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  memory::DeleteForRunsIn(state_->threads, run_ids);
  return Status::OK();
}

Status MemoryCheckpointer::DoCopyThread(std::string_view source,
                                        std::string_view target) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::CopyThreadIn(state_->threads, source, target);
}

Status MemoryCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::HideCheckpointIn(state_->threads, config);
}

Status MemoryCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                   PruneStrategy strategy, size_t keep_last) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  memory::PruneIn(state_->threads, thread_ids, strategy, keep_last);
  return Status::OK();
}

Result<RetentionReport> MemoryCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  std::vector<memory::Expired> plan;
  const RetentionReport report =
      memory::PlanExpiry(state_->threads, thread_ids, rule, &plan);
  if (!rule.dry_run) {
    for (const memory::Expired& expired : plan) {
      memory::ApplyExpired(state_->threads, expired);
    }
  }
  return report;
}

Result<DeltaHistory> MemoryCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::DeltaHistoryIn(state_->threads, config, channels);
}

Result<ThreadPage> MemoryCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  base::MutexLock lock(&state_->mu);
  RP_RETURN_IF_ERROR(state_->CheckOpen());
  return memory::ListThreadsIn(state_->threads, options);
}

}  // namespace rockpoint
