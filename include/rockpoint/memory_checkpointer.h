// MemoryCheckpointer: the reference backend. Keeps everything in process
// memory behind one mutex; nothing survives the process. It is the executable
// reading of docs/CONTRACT.md that the other backends are compared with, so it
// favours plainness over speed (the delta walk follows parent links one
// lookup at a time).
//
// Thread-safety: safe to call from many threads, Close included.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

class MemoryCheckpointer final : public Checkpointer, public Maintenance {
 public:
  explicit MemoryCheckpointer(CheckpointerLimits limits = {});
  ~MemoryCheckpointer() override;

  // Maintenance (rockpoint/maintenance.h).
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kMemory; }

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  Result<CheckpointConfig> DoPut(const CheckpointConfig& config,
                                 const Checkpoint& checkpoint,
                                 const Metadata& metadata,
                                 const ChannelVersions& new_versions) override;
  Status DoPutWrites(const CheckpointConfig& config,
                     const std::vector<ChannelWrite>& writes,
                     std::string_view task_id,
                     std::string_view task_path) override;
  Result<std::optional<CheckpointTuple>> DoGetTuple(
      const CheckpointConfig& config) override;
  Result<std::unique_ptr<TupleCursor>> DoList(
      const ListOptions& options) override;
  Status DoDeleteThread(std::string_view thread_id) override;
  Status DoDeleteForRuns(const std::vector<std::string>& run_ids) override;
  Status DoCopyThread(std::string_view source,
                      std::string_view target) override;
  Status DoHideCheckpoint(const CheckpointConfig& config) override;
  Status DoPrune(const std::vector<std::string>& thread_ids,
                 PruneStrategy strategy, size_t keep_last) override;
  Result<RetentionReport> DoExpire(const std::vector<std::string>& thread_ids,
                                   const ExpiryRule& rule) override;
  Result<DeltaHistory> DoGetDeltaChannelHistory(
      const CheckpointConfig& config,
      const std::vector<std::string>& channels) override;
  Result<ThreadPage> DoListThreads(const ListThreadsOptions& options) override;
  Status DoClose() override;
  Maintenance* DoMaintenance() override { return this; }
  // The mutex and the data it guards (engine/memory_checkpointer.cpp).
  struct State;
  const std::unique_ptr<State> state_;
};

}  // namespace rockpoint
