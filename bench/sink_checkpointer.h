// SinkCheckpointer: a Checkpointer that keeps only the latest checkpoint of
// each (thread, namespace) and discards everything else, after waiting a
// fixed delay (busy wait) per write call (a stand-in for storage latency, so
// that the runtime's async queue fills and its backpressure works). Its memory
// does not grow with the number of checkpoints: a long run on it measures the
// runtime's own memory. Not a conforming backend: reads see only the latest
// checkpoint (no pending writes, no delta history, no listing).
//
// Thread-safety: safe to call from many threads.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::bench {

class SinkCheckpointer final : public Checkpointer {
 public:
  explicit SinkCheckpointer(std::chrono::microseconds write_delay)
      : write_delay_(write_delay) {}

 private:
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
  // Forgets the checkpoint if it is the latest of its namespace (the only
  // one kept); NotFound otherwise.
  Status DoHideCheckpoint(const CheckpointConfig& config) override;
  Status DoPrune(const std::vector<std::string>& thread_ids,
                 PruneStrategy strategy, size_t keep_last) override;
  // Expires nothing (it keeps only the latest checkpoints).
  Result<RetentionReport> DoExpire(const std::vector<std::string>& thread_ids,
                                   const ExpiryRule& rule) override;
  Result<DeltaHistory> DoGetDeltaChannelHistory(
      const CheckpointConfig& config,
      const std::vector<std::string>& channels) override;
  Result<ThreadPage> DoListThreads(const ListThreadsOptions& options) override;
  // Forgets everything; later reads see nothing, later writes fail.
  Status DoClose() override;
  const std::chrono::microseconds write_delay_;
  base::Mutex mu_;
  bool closed_ GUARDED_BY(mu_) = false;
  // (thread, ns) -> latest tuple.
  std::map<std::pair<std::string, std::string>, CheckpointTuple> latest_
      GUARDED_BY(mu_);
};

}  // namespace rockpoint::bench
