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
#include "rockpoint/forwarding_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"
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
// Every other call reaches an empty memory store.
class DiscardCheckpointer final : public ForwardingCheckpointer {
 public:
  explicit DiscardCheckpointer(std::chrono::microseconds delay)
      : ForwardingCheckpointer(std::make_unique<MemoryCheckpointer>()),
        delay_(delay) {}

 private:
  Result<CheckpointConfig> DoPut(const CheckpointConfig& config,
                                 const Checkpoint& checkpoint, const Metadata&,
                                 const ChannelVersions&) override {
    Pause();
    return CheckpointConfig{config.thread_id, config.checkpoint_ns,
                            checkpoint.id};
  }
  Status DoPutWrites(const CheckpointConfig&, const std::vector<ChannelWrite>&,
                     std::string_view, std::string_view) override {
    Pause();
    return Status::OK();
  }
  void Pause() {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
  }
  std::chrono::microseconds delay_;
};

}  // namespace rockpoint::testing
