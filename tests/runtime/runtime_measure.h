// Shared by the runtime measurement programs (async_memory_main,
// step_overhead_main; not tests): the tiny looping graph they time, and a
// Checkpointer that discards what it is given (optionally slowly), which
// isolates the runtime's own memory and time from a backend's.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "rockpoint/checkpointer.h"
#include "rockpoint/runtime/runtime.h"

namespace rockpoint::testing {

// START -> tick -> ... -> tick -> END: `steps` supersteps of one tiny task
// that sleeps `pause` (none by default).
inline runtime::StateGraph TinyLoop(
    int64_t steps,
    std::chrono::microseconds pause = std::chrono::microseconds(0)) {
  using runtime::State;
  runtime::StateGraph graph;
  graph
      .AddChannel(
          "n", runtime::ChannelSpec::Reducer(runtime::AddReducer(), Value(0)))
      .AddNode(
          "tick",
          [pause](const State&, runtime::NodeContext&) -> runtime::NodeUpdate {
            if (pause.count() > 0) std::this_thread::sleep_for(pause);
            return State{{"n", Value(1)}};
          })
      .AddEdge(runtime::kStart, "tick")
      .AddConditionalEdges("tick",
                           [steps](const State& state) -> runtime::Route {
                             return state.at("n").as_int() < steps
                                        ? runtime::Route("tick")
                                        : runtime::Route(runtime::kEnd);
                           },
                           {"tick", std::string(runtime::kEnd)});
  return graph;
}

// Accepts every write and keeps nothing; each write call takes `delay`.
class DiscardCheckpointer final : public Checkpointer {
 public:
  explicit DiscardCheckpointer(std::chrono::microseconds delay)
      : delay_(delay) {}
  Result<CheckpointConfig> Put(const CheckpointConfig& config,
                               const Checkpoint& checkpoint, const Metadata&,
                               const ChannelVersions&) override {
    Pause();
    return CheckpointConfig{config.thread_id, config.checkpoint_ns,
                            checkpoint.id};
  }
  Status PutWrites(const CheckpointConfig&, const std::vector<ChannelWrite>&,
                   std::string_view, std::string_view) override {
    Pause();
    return Status::OK();
  }
  Result<std::optional<CheckpointTuple>> GetTuple(
      const CheckpointConfig&) override {
    return std::optional<CheckpointTuple>();
  }
  Result<std::unique_ptr<TupleCursor>> List(const ListOptions&) override {
    return Status::InvalidArgument("discard store keeps nothing to list");
  }
  Status DeleteThread(std::string_view) override { return Status::OK(); }
  Status DeleteForRuns(const std::vector<std::string>&) override {
    return Status::OK();
  }
  Status CopyThread(std::string_view, std::string_view) override {
    return Status::OK();
  }
  Status HideCheckpoint(const CheckpointConfig&) override {
    return Status::NotFound("discard store keeps no checkpoint to hide");
  }
  Status Prune(const std::vector<std::string>&, PruneStrategy,
               size_t) override {
    return Status::OK();
  }
  Result<RetentionReport> Expire(const std::vector<std::string>&,
                                 const ExpiryRule&) override {
    return RetentionReport{};
  }
  Result<DeltaHistory> GetDeltaChannelHistory(
      const CheckpointConfig&, const std::vector<std::string>&) override {
    return DeltaHistory{};
  }
  Result<ThreadPage> ListThreads(const ListThreadsOptions&) override {
    return ThreadPage{};
  }
  Status Close() override { return Status::OK(); }

 private:
  void Pause() {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
  }
  std::chrono::microseconds delay_;
};

}  // namespace rockpoint::testing
