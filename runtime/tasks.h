// Tasks of a superstep: which nodes run (LangGraph's prepare_next_tasks),
// running a node function, and the writes a task stores.
//
// A node runs as a "pull" task when its trigger channel "branch:to:<node>"
// has a value with a version the node has not seen; a Send in
// "__pregel_tasks" runs its node as a "push" task with the Send's argument as
// input. Task ids are deterministic (ids.h TaskId), so a resumed superstep
// recognises the tasks that already stored their writes.
//
// Thread-safety: RunNodeTask may run concurrently for the tasks of one
// superstep; it only reads the LoopState.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rockpoint/runtime/run_types.h"
#include "runtime/loop_state.h"

namespace rockpoint::runtime {

struct Task {
  std::string id;
  std::string node;
  std::string path;
  bool pull = true;
  std::vector<std::string> triggers;  // pull: {its trigger channel}.
  State arg;                          // push: the Send's argument.
};

// The tasks of the superstep that starts at `state`'s current checkpoint,
// ordered by (path, id). Corruption for a malformed stored Send,
// InvalidArgument for a Send to a node this graph does not have.
Result<std::vector<Task>> PrepareTasks(const LoopState& state);

// How a task ended.
struct TaskOutcome {
  enum class Kind { kPending, kDone, kError, kInterrupted };
  Kind kind = Kind::kPending;
  std::vector<std::pair<std::string, Value>> writes;  // kDone.
  std::string error;                                  // kError.
  Value::Array interrupts;  // kInterrupted: interrupt records (see below).
  // Answers known for this task's NodeContext::Interrupt calls.
  std::vector<Value> resume;
  // Subgraph task: answers to forward, by interrupt id.
  std::map<std::string, Value> child_resume;
  // kDone read back from storage: nothing to store again.
  bool restored = false;
  // Storing the task's writes failed.
  Status storage;
};

// Runs the node of `task` (not a subgraph) with `input` and fills `outcome`
// (kDone with its writes, kError, or kInterrupted). Never throws.
void RunNodeTask(const LoopState& state, const Task& task, const State& input,
                 TaskOutcome& outcome);

// Appends to `out` the writes of `update` made by `node`: its channel
// writes, Goto/Send targets, then its edges and the routes its routers pick
// (routers see `state` plus these writes). InvalidArgument for an unknown
// channel or node; a throwing router propagates.
Status AppendNodeWrites(const LoopState& state, const NodeSpec& node,
                        NodeUpdate update,
                        std::vector<std::pair<std::string, Value>>& out);

// What a task stores with put_writes: its writes (or a "__no_writes__"
// marker), an __error__ {"message"}, or an __interrupt__ list of records.
std::vector<ChannelWrite> StoredWrites(const TaskOutcome& outcome);

// Interrupt records as stored in __interrupt__ writes:
// {"id", "value", "node", "ns"}.
Value InterruptRecord(const Interrupt& interrupt);
Interrupt InterruptFromRecord(const Value& record);

// A Send as stored in "__pregel_tasks": {"node", "arg"}.
Value SendValue(const Send& send);

}  // namespace rockpoint::runtime
