#include "bench/sink_checkpointer.h"

namespace rockpoint::bench {
namespace {

// Busy-waits `delay`: sleep_for rounds short delays up to the timer slack
// (~50 us or more on a loaded machine), which would make the delay unknown.
void Wait(std::chrono::microseconds delay) {
  if (delay.count() <= 0) return;
  const auto until = std::chrono::steady_clock::now() + delay;
  while (std::chrono::steady_clock::now() < until) {
  }
}

class EmptyCursor final : public TupleCursor {
 public:
  Result<std::optional<CheckpointTuple>> Next() override {
    return std::optional<CheckpointTuple>();
  }
};

}  // namespace

Result<CheckpointConfig> SinkCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  if (!config.thread_id) {
    return Status::InvalidArgument("put: thread_id is missing");
  }
  Wait(write_delay_);
  CheckpointTuple tuple;
  tuple.config = {config.thread_id, config.checkpoint_ns.value_or(""),
                  checkpoint.id};
  tuple.checkpoint = checkpoint;
  tuple.metadata = metadata;
  if (config.checkpoint_id) {
    tuple.parent_config = CheckpointConfig{
        config.thread_id, tuple.config.checkpoint_ns, config.checkpoint_id};
  }
  base::MutexLock lock(&mu_);
  if (closed_) return Status::Aborted("store is closed");
  latest_[{*config.thread_id, *tuple.config.checkpoint_ns}] = tuple;
  return tuple.config;
}

Status SinkCheckpointer::DoPutWrites(const CheckpointConfig& config,
                                     const std::vector<ChannelWrite>&,
                                     std::string_view, std::string_view) {
  if (!config.thread_id || !config.checkpoint_id) {
    return Status::InvalidArgument(
        "put_writes: thread_id and checkpoint_id are required");
  }
  Wait(write_delay_);
  return Status::OK();
}

Result<std::optional<CheckpointTuple>> SinkCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  if (!config.thread_id) return std::optional<CheckpointTuple>();
  base::MutexLock lock(&mu_);
  const auto it =
      latest_.find({*config.thread_id, config.checkpoint_ns.value_or("")});
  if (it == latest_.end() ||
      (config.checkpoint_id &&
       *config.checkpoint_id != it->second.checkpoint.id)) {
    return std::optional<CheckpointTuple>();
  }
  return std::optional<CheckpointTuple>(it->second);
}

Result<std::unique_ptr<TupleCursor>> SinkCheckpointer::DoList(
    const ListOptions&) {
  return std::unique_ptr<TupleCursor>(new EmptyCursor());
}

Status SinkCheckpointer::DoDeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&mu_);
  std::erase_if(latest_, [&](const auto& entry) {
    return entry.first.first == thread_id;
  });
  return Status::OK();
}

Status SinkCheckpointer::DoDeleteForRuns(const std::vector<std::string>&) {
  return Status::OK();
}

Status SinkCheckpointer::DoCopyThread(std::string_view, std::string_view) {
  return Status::OK();
}

Status SinkCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  if (!config.thread_id || !config.checkpoint_id) {
    return Status::InvalidArgument(
        "hide_checkpoint needs config.thread_id and config.checkpoint_id");
  }
  base::MutexLock lock(&mu_);
  const auto it =
      latest_.find({*config.thread_id, config.checkpoint_ns.value_or("")});
  if (it == latest_.end() ||
      it->second.checkpoint.id != *config.checkpoint_id) {
    return Status::NotFound("sink store keeps only the latest checkpoint");
  }
  latest_.erase(it);
  return Status::OK();
}

Status SinkCheckpointer::DoPrune(const std::vector<std::string>&, PruneStrategy,
                                 size_t) {
  return Status::OK();
}

Result<RetentionReport> SinkCheckpointer::DoExpire(
    const std::vector<std::string>&, const ExpiryRule&) {
  return RetentionReport{};
}

Result<DeltaHistory> SinkCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig&, const std::vector<std::string>& channels) {
  DeltaHistory history;
  for (const std::string& channel : channels) history[channel];
  return history;
}

Result<ThreadPage> SinkCheckpointer::DoListThreads(const ListThreadsOptions&) {
  return ThreadPage{};
}

Status SinkCheckpointer::DoClose() {
  base::MutexLock lock(&mu_);
  closed_ = true;
  latest_.clear();
  return Status::OK();
}

}  // namespace rockpoint::bench
