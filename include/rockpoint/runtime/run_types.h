// The values a compiled graph takes and returns: run configuration, resume
// commands, run outcomes and state snapshots.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rockpoint/runtime/channels.h"
#include "rockpoint/runtime/graph.h"
#include "rockpoint/types.h"

namespace rockpoint::runtime {

struct RunConfig {
  // The conversation / job the checkpoints belong to. Required when the
  // graph has a checkpointer; any bytes, "" included.
  std::optional<std::string> thread_id;
  // Namespace to inspect ("" is the root graph; "node:task_id" a subgraph).
  // Runs always start at the root. Default: "".
  std::string checkpoint_ns;
  // Runs: replay from this checkpoint instead of the latest (the nodes after
  // it rerun, new checkpoints are appended, nothing stored is changed).
  // Inspection: the checkpoint to read. Default: none (latest).
  std::optional<std::string> checkpoint_id;
  // Recorded in checkpoint metadata ("run_id"). Default: a fresh random id.
  std::string run_id;
  // Maximum supersteps of one run. Default: 25 (LangGraph's).
  int64_t recursion_limit = 25;
  // Overrides CompileOptions::durability for this run.
  std::optional<Durability> durability;
};

// Resumes an interrupted (or continues a stopped) run.
struct Command {
  // The answer to the one pending interrupt. InvalidArgument if several
  // are pending (use resume_by_id) or none is.
  std::optional<Value> resume;
  // Answers by Interrupt::id.
  std::map<std::string, Value> resume_by_id;
  // Channel writes applied (through the reducers) before the run continues.
  State update;
  // Nodes (and Sends) scheduled besides the pending ones.
  std::vector<std::string> goto_nodes;
  std::vector<Send> goto_sends;
};

// How a run is started.
struct RunInput {
  enum class Kind {
    kValues,    // new input: written to the state, START's edges follow.
    kCommand,   // resume with a Command.
    kContinue,  // no input: rerun what did not finish at the checkpoint.
  };
  Kind kind = Kind::kContinue;
  State values;
  Command command;

  static RunInput Values(State values) {
    return RunInput{Kind::kValues, std::move(values), {}};
  }
  static RunInput Resume(Command command) {
    return RunInput{Kind::kCommand, {}, std::move(command)};
  }
  static RunInput Continue() { return RunInput{}; }
};

struct Interrupt {
  std::string id;  // answer with Command::resume_by_id[id].
  Value value;     // what the node passed to NodeContext::Interrupt.
  std::string node;
  std::string checkpoint_ns;  // of the node's graph.
  friend bool operator==(const Interrupt&, const Interrupt&) = default;
};

struct RunOutcome {
  State values;  // the state when the run stopped.
  // Non-empty: the run stopped at an interrupt; resume with a Command.
  std::vector<Interrupt> interrupts;
  // The run's last checkpoint (thread, ns, id); no checkpoint_id without a
  // checkpointer.
  CheckpointConfig config;
  std::string run_id;
  int64_t supersteps = 0;  // supersteps this run executed.
};

// A task scheduled at a checkpoint.
struct TaskInfo {
  std::string id;
  std::string name;   // node
  std::string path;   // e.g. "~__pregel_pull, a"
  bool done = false;  // its writes are stored; a resume will not rerun it.
  std::optional<std::string> error;  // the node's failure, if it failed.
  std::vector<Interrupt> interrupts;
};

struct StateSnapshot {
  State values;
  // Nodes of the tasks scheduled at this checkpoint. For the current state
  // (GetState without checkpoint_id) only those that have not finished.
  std::vector<std::string> next;
  CheckpointConfig config;
  Metadata metadata;
  std::string created_at;
  std::optional<CheckpointConfig> parent_config;
  std::vector<TaskInfo> tasks;
  std::vector<Interrupt> interrupts;  // pending, of tasks not done.
};

struct HistoryOptions {
  // AND of equalities on top-level metadata keys (a map).
  Value filter = Value::MakeMap();
  // Only checkpoints older than this id.
  std::optional<std::string> before;
  std::optional<size_t> limit;
};

// One update of bulk_update_state.
struct StateUpdate {
  State values;
  // The node the update acts as: its edges decide what runs next. Default:
  // the node that ran last (START on a fresh thread).
  std::optional<std::string> as_node;
};

}  // namespace rockpoint::runtime
