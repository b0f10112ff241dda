// SqliteCheckpointer: opens the connection and forwards every call to Impl
// under its mutex (see sqlite_impl.h for why one guarded connection).
#include "rockpoint/sqlite_checkpointer.h"

#include "engine/sqlite/sqlite_impl.h"
#include "engine/validation.h"

namespace rockpoint {

Result<std::unique_ptr<SqliteCheckpointer>> SqliteCheckpointer::Open(
    const SqliteOptions& options) {
  if (options.path.empty()) {
    return Status::InvalidArgument("options.path is empty");
  }
  RP_ASSIGN_OR_RETURN(
      std::unique_ptr<sqlite_internal::Database> db,
      sqlite_internal::Database::Open(options.path, options.create_if_missing,
                                      options.read_only));
  auto impl = std::make_unique<Impl>(options, std::move(db));
  RP_RETURN_IF_ERROR(impl->Initialize());
  return std::unique_ptr<SqliteCheckpointer>(
      new SqliteCheckpointer(std::move(impl)));
}

SqliteCheckpointer::SqliteCheckpointer(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

SqliteCheckpointer::~SqliteCheckpointer() {
  Status ignored = Close();
  (void)ignored;
}

Status SqliteCheckpointer::Close() {
  base::MutexLock lock(&impl_->mu());
  return impl_->Close();
}

Result<CheckpointConfig> SqliteCheckpointer::Put(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->Put(config, checkpoint, metadata, new_versions);
}

Status SqliteCheckpointer::PutWrites(const CheckpointConfig& config,
                                     const std::vector<ChannelWrite>& writes,
                                     std::string_view task_id,
                                     std::string_view task_path) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->PutWrites(config, writes, task_id, task_path);
}

Result<std::optional<CheckpointTuple>> SqliteCheckpointer::GetTuple(
    const CheckpointConfig& config) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  return impl_->GetTuple(config);
}

Result<std::unique_ptr<TupleCursor>> SqliteCheckpointer::List(
    const ListOptions& options) {
  RP_RETURN_IF_ERROR(ValidateListOptions(options));
  {
    base::MutexLock lock(&impl_->mu());
    RP_RETURN_IF_ERROR(impl_->CheckOpen());
  }
  // The cursor locks the mutex itself, once per page.
  return MakeSqliteListCursor(impl_.get(), options);
}

Status SqliteCheckpointer::DeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->DeleteThread(thread_id);
}

Status SqliteCheckpointer::DeleteForRuns(
    const std::vector<std::string>& run_ids) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->DeleteForRuns(run_ids);
}

Status SqliteCheckpointer::CopyThread(std::string_view source,
                                      std::string_view target) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->CopyThread(source, target);
}

Status SqliteCheckpointer::HideCheckpoint(const CheckpointConfig& config) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->HideCheckpoint(config);
}

Status SqliteCheckpointer::Prune(const std::vector<std::string>& thread_ids,
                                 PruneStrategy strategy, size_t keep_last) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  RP_RETURN_IF_ERROR(impl_->CheckWritable());
  return impl_->Prune(thread_ids, strategy, keep_last);
}

Result<DeltaHistory> SqliteCheckpointer::GetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  return impl_->GetDeltaChannelHistory(config, channels);
}

Result<ThreadPage> SqliteCheckpointer::ListThreads(
    const ListThreadsOptions& options) {
  base::MutexLock lock(&impl_->mu());
  RP_RETURN_IF_ERROR(impl_->CheckOpen());
  return impl_->ListThreads(options);
}

}  // namespace rockpoint
