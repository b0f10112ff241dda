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

namespace rockpoint {

class MemoryCheckpointer final : public Checkpointer {
 public:
  explicit MemoryCheckpointer(CheckpointerLimits limits = {});
  ~MemoryCheckpointer() override;

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
  Status Close() override;

 private:
  // The mutex and the data it guards (engine/memory_checkpointer.cpp).
  struct State;
  const CheckpointerLimits limits_;
  const std::unique_ptr<State> state_;
};

}  // namespace rockpoint
