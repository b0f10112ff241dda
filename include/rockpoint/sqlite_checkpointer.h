// SqliteCheckpointer: LangGraph's three-table SQL layout (checkpoints, blobs
// per channel version, writes with task_path) on SQLite in WAL mode. A
// portable option and the peer the benchmark compares against.
//
// Thread-safety: safe to call from many threads (calls are serialized on one
// connection). A second process may open the same file (SQLite locking).
#pragma once

#include <memory>
#include <string>

#include "rockpoint/checkpointer.h"

namespace rockpoint {

struct SqliteOptions {
  // Database file; ":memory:" for an in-memory database. Required.
  std::string path;
  // Create the file if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only (SQLITE_OPEN_READONLY): every write call returns
  // InvalidArgument "store opened read-only", and the file must already
  // hold a rockpoint schema. Other connections may keep writing; reads see
  // their committed changes. Default: false.
  bool read_only = false;
  // PRAGMA synchronous=FULL (true) or NORMAL (false) under WAL. Default: true.
  bool sync_writes = true;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
};

class SqliteCheckpointer final : public Checkpointer {
 public:
  static Result<std::unique_ptr<SqliteCheckpointer>> Open(
      const SqliteOptions& options);
  ~SqliteCheckpointer() override;

  using Checkpointer::Prune;
  using Checkpointer::PutWrites;

  Result<CheckpointConfig> Put(const CheckpointConfig& config,
                               const Checkpoint& checkpoint,
                               const Metadata& metadata,
                               const ChannelVersions& new_versions) override;
  Status PutWrites(const CheckpointConfig& config,
                   const std::vector<ChannelWrite>& writes,
                   std::string_view task_id,
                   std::string_view task_path) override;
  Result<std::optional<CheckpointTuple>> GetTuple(
      const CheckpointConfig& config) override;
  Result<std::unique_ptr<TupleCursor>> List(
      const ListOptions& options) override;
  Status DeleteThread(std::string_view thread_id) override;
  Status DeleteForRuns(const std::vector<std::string>& run_ids) override;
  Status CopyThread(std::string_view source, std::string_view target) override;
  Status HideCheckpoint(const CheckpointConfig& config) override;
  Status Prune(const std::vector<std::string>& thread_ids,
               PruneStrategy strategy, size_t keep_last) override;
  Result<RetentionReport> Expire(const std::vector<std::string>& thread_ids,
                                 const ExpiryRule& rule) override;
  Result<DeltaHistory> GetDeltaChannelHistory(
      const CheckpointConfig& config,
      const std::vector<std::string>& channels) override;
  Result<ThreadPage> ListThreads(const ListThreadsOptions& options) override;
  // Finalizes the cached statements and closes the connection (the last
  // connection checkpoints the WAL into the database file). Busy, leaving
  // it open, while a statement is still open. Safe to call from any thread.
  Status Close() override;

  class Impl;  // sqlite/*.cpp only.

 private:
  explicit SqliteCheckpointer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint
