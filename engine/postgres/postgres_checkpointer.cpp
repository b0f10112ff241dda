// PostgresCheckpointer: opens the pool and forwards every call to Impl.
#include "rockpoint/postgres_checkpointer.h"

#include "engine/postgres/postgres_impl.h"

namespace rockpoint {

Result<std::unique_ptr<PostgresCheckpointer>> PostgresCheckpointer::Open(
    const PostgresOptions& options) {
  if (options.url.empty()) {
    return Status::InvalidArgument("options.url is empty");
  }
  auto impl = std::make_unique<Impl>(options);
  RP_RETURN_IF_ERROR(impl->Initialize());
  return std::unique_ptr<PostgresCheckpointer>(
      new PostgresCheckpointer(std::move(impl)));
}

PostgresCheckpointer::PostgresCheckpointer(std::unique_ptr<Impl> impl)
    : Checkpointer(
          FrontChecks{.limits = impl->options().limits,
                      .read_only = impl->options().read_only,
                      .store_name = pg::DescribeUrl(impl->options().url)}),
      impl_(std::move(impl)) {}

PostgresCheckpointer::~PostgresCheckpointer() { (void)Close(); }

Result<CheckpointConfig> PostgresCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  return impl_->Put(config, checkpoint, metadata, new_versions);
}

Status PostgresCheckpointer::DoPutWrites(
    const CheckpointConfig& config, const std::vector<ChannelWrite>& writes,
    std::string_view task_id, std::string_view task_path) {
  return impl_->PutWrites(config, writes, task_id, task_path);
}

Result<std::optional<CheckpointTuple>> PostgresCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  return impl_->GetTuple(config);
}

Result<std::unique_ptr<TupleCursor>> PostgresCheckpointer::DoList(
    const ListOptions& options) {
  return impl_->List(options);
}

Status PostgresCheckpointer::DoDeleteThread(std::string_view thread_id) {
  return impl_->DeleteThread(thread_id);
}

Status PostgresCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  return impl_->DeleteForRuns(run_ids);
}

Status PostgresCheckpointer::DoCopyThread(std::string_view source,
                                          std::string_view target) {
  return impl_->CopyThread(source, target);
}

Status PostgresCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  return impl_->HideCheckpoint(config);
}

Status PostgresCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                     PruneStrategy strategy, size_t keep_last) {
  return impl_->Prune(thread_ids, strategy, keep_last);
}

Result<DeltaHistory> PostgresCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  return impl_->GetDeltaChannelHistory(config, channels);
}

Result<ThreadPage> PostgresCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  return impl_->ListThreads(options);
}

Status PostgresCheckpointer::DoClose() { return impl_->Close(); }

}  // namespace rockpoint
