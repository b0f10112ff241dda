// The front of Checkpointer (rockpoint/checkpointer.h): the state and input
// checks every backend shares, then the backend's hook.
#include <utility>

#include "engine/backend_rules.h"
#include "engine/retention_rule.h"
#include "engine/validation.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint {

Checkpointer::Checkpointer(FrontChecks checks) : checks_(std::move(checks)) {}

Checkpointer::Checkpointer() = default;

Status Checkpointer::CheckState(bool writes) const {
  if (closed_.load(std::memory_order_acquire)) return StoreClosedError();
  if (writes && checks_ && checks_->read_only) {
    return Status::InvalidArgument("store opened read-only: " +
                                   checks_->store_name);
  }
  return Status::OK();
}

Result<CheckpointConfig> Checkpointer::Put(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  if (checks_) {
    RP_RETURN_IF_ERROR(ValidatePut(config, checkpoint, metadata, new_versions,
                                   checks_->limits));
  }
  return DoPut(config, checkpoint, metadata, new_versions);
}

Status Checkpointer::PutWrites(const CheckpointConfig& config,
                               const std::vector<ChannelWrite>& writes,
                               std::string_view task_id,
                               std::string_view task_path) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  if (checks_) {
    RP_RETURN_IF_ERROR(
        ValidatePutWrites(config, writes, task_id, task_path, checks_->limits));
  }
  return DoPutWrites(config, writes, task_id, task_path);
}

Result<std::optional<CheckpointTuple>> Checkpointer::GetTuple(
    const CheckpointConfig& config) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/false));
  if (checks_ && !config.thread_id) {
    return std::optional<CheckpointTuple>();
  }
  return DoGetTuple(config);
}

Result<std::unique_ptr<TupleCursor>> Checkpointer::List(
    const ListOptions& options) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/false));
  if (checks_) RP_RETURN_IF_ERROR(ValidateListOptions(options));
  return DoList(options);
}

Status Checkpointer::DeleteThread(std::string_view thread_id) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  return DoDeleteThread(thread_id);
}

Status Checkpointer::DeleteForRuns(const std::vector<std::string>& run_ids) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  return DoDeleteForRuns(run_ids);
}

Status Checkpointer::CopyThread(std::string_view source,
                                std::string_view target) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  return DoCopyThread(source, target);
}

Status Checkpointer::HideCheckpoint(const CheckpointConfig& config) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  if (checks_) {
    RP_RETURN_IF_ERROR(ValidateHideCheckpoint(config, checks_->limits));
  }
  return DoHideCheckpoint(config);
}

Status Checkpointer::Prune(const std::vector<std::string>& thread_ids,
                           PruneStrategy strategy, size_t keep_last) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/true));
  if (checks_) RP_RETURN_IF_ERROR(ValidatePrune(strategy, keep_last));
  return DoPrune(thread_ids, strategy, keep_last);
}

Result<RetentionReport> Checkpointer::Expire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/!rule.dry_run));
  if (checks_) RP_RETURN_IF_ERROR(ValidateExpiryRule(rule));
  return DoExpire(thread_ids, rule);
}

Result<DeltaHistory> Checkpointer::GetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/false));
  if (checks_) RP_RETURN_IF_ERROR(ValidateDeltaHistory(config));
  return DoGetDeltaChannelHistory(config, channels);
}

Result<ThreadPage> Checkpointer::ListThreads(
    const ListThreadsOptions& options) {
  RP_RETURN_IF_ERROR(CheckState(/*writes=*/false));
  if (checks_) RP_RETURN_IF_ERROR(ValidateListThreads(options));
  return DoListThreads(options);
}

Status Checkpointer::Close() {
  if (closed_.load(std::memory_order_acquire)) return Status::OK();
  Status status = DoClose();
  if (!status.IsBusy()) closed_.store(true, std::memory_order_release);
  return status;
}

}  // namespace rockpoint
