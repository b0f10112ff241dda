// SqliteCheckpointer: opens the connection and forwards every call to Impl
// under its mutex (see sqlite_impl.h for why one guarded connection).
#include "rockpoint/sqlite_checkpointer.h"

#include <sys/stat.h>

#include <cerrno>

#include "base/durable_file.h"
#include "engine/sqlite/sqlite_impl.h"
#include "engine/validation.h"

namespace rockpoint {
namespace {

// Whether opening `options` creates the database file (a read-write open
// of a file path that does not exist yet; not ":memory:" or a temporary
// database).
bool IsNewDatabaseFile(const SqliteOptions& options) {
  if (options.read_only || !options.create_if_missing) return false;
  if (options.path == ":memory:" || options.path.starts_with("file:")) {
    return false;
  }
  struct stat info;
  return ::stat(options.path.c_str(), &info) != 0 && errno == ENOENT;
}

}  // namespace

Result<std::unique_ptr<SqliteCheckpointer>> SqliteCheckpointer::Open(
    const SqliteOptions& options) {
  if (options.path.empty()) {
    return Status::InvalidArgument("options.path is empty");
  }
  const bool creates = IsNewDatabaseFile(options);
  RP_ASSIGN_OR_RETURN(
      std::unique_ptr<sqlite_internal::Database> db,
      sqlite_internal::Database::Open(options.path, options.create_if_missing,
                                      options.read_only));
  auto impl = std::make_unique<Impl>(options, std::move(db));
  RP_RETURN_IF_ERROR(impl->Initialize());
  if (creates) {
    // SQLite fsyncs the directory for its journal and WAL files, not for the
    // main database file it creates: without this, a power loss could take
    // the new file's entry, and every synced commit with it.
    RP_RETURN_IF_ERROR(SyncPath(options.path));
    RP_RETURN_IF_ERROR(SyncParentDirectory(options.path));
  }
  return std::unique_ptr<SqliteCheckpointer>(
      new SqliteCheckpointer(std::move(impl)));
}

Status SqliteCheckpointer::Rekey(
    const SqliteOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  if (options.read_only) {
    return Status::InvalidArgument(
        "rekey re-writes the store: options.read_only must be false");
  }
  SqliteOptions existing = options;
  existing.create_if_missing = false;
  // A committed Rekey must survive a power loss: the caller may discard the
  // old key once it returns.
  existing.sync_writes = true;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<SqliteCheckpointer> store,
                      Open(existing));
  {
    base::MutexLock lock(&store->impl_->mu());
    RP_RETURN_IF_ERROR(store->impl_->CheckOpen());
    RP_RETURN_IF_ERROR(store->impl_->Rekey(new_encryption));
  }
  return store->Close();
}

SqliteCheckpointer::SqliteCheckpointer(std::unique_ptr<Impl> impl)
    : Checkpointer(FrontChecks{
          .limits = impl->options().limits,
          .read_only = impl->options().read_only,
          .store_name = sqlite_internal::PrintableBytes(impl->options().path)}),
      impl_(std::move(impl)) {}

SqliteCheckpointer::~SqliteCheckpointer() {
  Status ignored = Close();
  (void)ignored;
}

Status SqliteCheckpointer::DoClose() {
  base::MutexLock lock(&impl_->mu());
  return impl_->Close();
}

Result<CheckpointConfig> SqliteCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  base::MutexLock lock(&impl_->mu());
  return impl_->Put(config, checkpoint, metadata, new_versions);
}

Status SqliteCheckpointer::DoPutWrites(const CheckpointConfig& config,
                                       const std::vector<ChannelWrite>& writes,
                                       std::string_view task_id,
                                       std::string_view task_path) {
  base::MutexLock lock(&impl_->mu());
  return impl_->PutWrites(config, writes, task_id, task_path);
}

Result<std::optional<CheckpointTuple>> SqliteCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  base::MutexLock lock(&impl_->mu());
  return impl_->GetTuple(config);
}

Result<std::unique_ptr<TupleCursor>> SqliteCheckpointer::DoList(
    const ListOptions& options) {
  // The cursor locks the mutex itself, once per page.
  return MakeSqliteListCursor(impl_.get(), options);
}

Status SqliteCheckpointer::DoDeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&impl_->mu());
  return impl_->DeleteThread(thread_id);
}

Status SqliteCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  base::MutexLock lock(&impl_->mu());
  return impl_->DeleteForRuns(run_ids);
}

Status SqliteCheckpointer::DoCopyThread(std::string_view source,
                                        std::string_view target) {
  base::MutexLock lock(&impl_->mu());
  return impl_->CopyThread(source, target);
}

Status SqliteCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  base::MutexLock lock(&impl_->mu());
  return impl_->HideCheckpoint(config);
}

Status SqliteCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                   PruneStrategy strategy, size_t keep_last) {
  base::MutexLock lock(&impl_->mu());
  return impl_->Prune(thread_ids, strategy, keep_last);
}

Result<RetentionReport> SqliteCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  base::MutexLock lock(&impl_->mu());
  return impl_->Expire(thread_ids, rule);
}

Result<DeltaHistory> SqliteCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  base::MutexLock lock(&impl_->mu());
  return impl_->GetDeltaChannelHistory(config, channels);
}

Result<ThreadPage> SqliteCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  base::MutexLock lock(&impl_->mu());
  return impl_->ListThreads(options);
}

}  // namespace rockpoint
