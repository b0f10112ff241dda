// The superstep loop (LangGraph's Pregel loop) of one graph in one
// (thread, namespace). Internal to runtime/; CompiledGraph drives it, and a
// subgraph task drives a nested one.
//
// A run: restore the latest (or the requested) checkpoint; take the input
// (new values -> an "input" checkpoint; a Command or nothing -> resume at the
// checkpoint); then repeat: prepare the tasks, run them in parallel on the
// task executor, store each finished task's writes at once, apply all writes
// through the channels and make a "loop" checkpoint. What is stored, and
// when, follows the durability mode: see persistence.h.
//
// Thread-safety: one loop is one coroutine; its tasks run in parallel and
// only read the loop's state while it waits for them.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "rockpoint/runtime/async_checkpointer.h"
#include "rockpoint/runtime/run_types.h"
#include "runtime/graph_spec.h"
#include "runtime/ordered_writer.h"

namespace rockpoint::runtime {

// What every loop of one run shares.
struct RunEnv {
  AsyncCheckpointer* storage = nullptr;   // nullptr: nothing is persisted.
  std::shared_ptr<OrderedWriter> writer;  // set iff storage is.
  Executor tasks;                         // runs node functions.
  Durability durability = Durability::kAsync;
  const std::atomic<bool>* stopping = nullptr;  // shutdown requested.
};

struct LoopRequest {
  std::string thread_id;
  std::string ns;
  std::optional<std::string> checkpoint_id;  // replay from here.
  std::string run_id;
  int64_t recursion_limit = 25;
  Value::Map parents;  // metadata "parents": {ns: checkpoint_id}.
  RunInput input;
  // A subgraph task: continue the namespace's latest checkpoint if there is
  // one (a rerun of the task), else start from input.values.
  bool subgraph = false;
  // Ignore what is stored in the namespace (subgraph of a replayed step).
  bool fresh = false;
};

// Runs the loop to the end: no tasks left (done), an interrupt (returned in
// RunOutcome::interrupts), or an error (a failed node is Aborted naming it).
// Operations are queued on env.writer; the caller flushes it.
Awaitable<Result<RunOutcome>> RunLoop(const GraphSpec& spec, const RunEnv& env,
                                      LoopRequest request);

}  // namespace rockpoint::runtime
