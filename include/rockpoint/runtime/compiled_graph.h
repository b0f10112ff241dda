// CompiledGraph: a validated graph bound to a checkpointer, ready to run.
//
// Runs (LangGraph semantics):
//   Invoke(input)    new input on the thread: an "input" checkpoint (step -1
//                    on a fresh thread), then one "loop" checkpoint per
//                    superstep (steps 0, 1, ...). START -> a -> b -> END
//                    leaves 4 checkpoints.
//   Resume(command)  answers interrupts (Command::resume / resume_by_id),
//                    applies Command::update / goto, and continues.
//   Continue()       no input: reruns the tasks of the latest checkpoint
//                    that did not finish (after a failure, crash or stop);
//                    finished tasks are not rerun, their stored writes count.
// With RunConfig::checkpoint_id a run replays from that older checkpoint:
// the nodes after it rerun, new checkpoints are appended after it, and what
// is stored is never changed.
//
// Inspection and time travel: GetState, GetStateHistory (newest first),
// UpdateState (writes through the reducers as if `as_node` ran; source
// "update"), BulkUpdateState (one checkpoint per superstep of updates),
// ForkState (a copy of a checkpoint as the new latest; source "fork").
//
// Execution: node functions run on this graph's task thread pool, the tasks
// of a superstep in parallel; storage calls run on a dedicated storage pool
// (AsyncCheckpointer). The blocking methods (Invoke, GetState, ...) must not
// be called from a node function; Run() is the coroutine form.
//
// Errors are values: a node that throws makes the run return Aborted
// ("node 'x' failed: ...") after its __error__ write and the other tasks'
// writes are stored; bad input is InvalidArgument; a missing checkpoint
// NotFound.
//
// Thread-safety: all methods may be called from many threads, for different
// threads (thread_id) at once. Two runs of the same thread_id at the same
// time are not supported (their checkpoints would interleave).
// Shutdown: stops new runs, lets running ones stop at their next superstep,
// waits at most CompileOptions::shutdown_timeout_ms.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rockpoint/runtime/async_checkpointer.h"
#include "rockpoint/runtime/graph.h"
#include "rockpoint/runtime/run_types.h"

namespace rockpoint::runtime {

class CompiledGraph {
 public:
  // Use StateGraph::Compile.
  CompiledGraph(std::shared_ptr<const GraphSpec> spec, CompileOptions options);
  ~CompiledGraph();  // Shutdown(), then joins the pools.
  CompiledGraph(const CompiledGraph&) = delete;
  CompiledGraph& operator=(const CompiledGraph&) = delete;

  Result<RunOutcome> Invoke(const State& input, const RunConfig& config);
  Result<RunOutcome> Resume(const Command& command, const RunConfig& config);
  Result<RunOutcome> Continue(const RunConfig& config);
  // The coroutine form of the three above; may be awaited on any executor.
  Awaitable<Result<RunOutcome>> Run(RunInput input, RunConfig config);

  // The checkpoint config.checkpoint_id (latest if absent) of
  // (thread, config.checkpoint_ns). NotFound if there is none.
  Result<StateSnapshot> GetState(const RunConfig& config);
  Result<std::vector<StateSnapshot>> GetStateHistory(
      const RunConfig& config, const HistoryOptions& options = {});
  Result<CheckpointConfig> UpdateState(
      const RunConfig& config, const State& values,
      std::optional<std::string> as_node = std::nullopt);
  Result<CheckpointConfig> BulkUpdateState(
      const RunConfig& config,
      const std::vector<std::vector<StateUpdate>>& supersteps);
  Result<CheckpointConfig> ForkState(const RunConfig& config);

  Awaitable<Result<StateSnapshot>> GetStateAsync(RunConfig config);
  Awaitable<Result<std::vector<StateSnapshot>>> GetStateHistoryAsync(
      RunConfig config, HistoryOptions options);
  Awaitable<Result<CheckpointConfig>> BulkUpdateStateAsync(
      RunConfig config, std::vector<std::vector<StateUpdate>> supersteps);
  Awaitable<Result<CheckpointConfig>> ForkStateAsync(RunConfig config);

  // Stops accepting runs, asks running ones to stop at their next superstep
  // and waits for them (bounded). Aborted if some did not stop in time.
  Status Shutdown();
  // True once Shutdown has been called.
  bool shutting_down() const;

  // The task pool's executor (where Run's tasks execute).
  Executor executor();
  const GraphSpec& spec() const { return *spec_; }

  struct Impl;  // compiled_graph.cpp

 private:
  std::shared_ptr<const GraphSpec> spec_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint::runtime
