// StateGraph: how a graph is described before it runs (LangGraph's model).
//
// A graph has channels (the state keys, see channels.h), nodes (C++ callables
// that read the state and return writes), edges, conditional edges (a router
// picks the next nodes, or fans out with Send), and subgraphs (another
// StateGraph run as one node). kStart and kEnd are the virtual entry and exit.
//
//   StateGraph graph;
//   graph.AddChannel("messages", ChannelSpec::Reducer(AppendReducer()))
//       .AddNode("a", [](const State& s, NodeContext&) -> NodeUpdate {
//          return State{{"messages", Value("hi")}}; })
//       .AddEdge(kStart, "a").AddEdge("a", kEnd);
//   auto compiled = graph.Compile({.checkpointer = &store});
//
// Builder calls never fail on their own: the first mistake is remembered and
// Compile reports it as InvalidArgument naming the node, edge or channel.
//
// Thread-safety: a StateGraph is built by one thread. Node functions and
// routers are called from the runtime's thread pool, several at once (one
// per task of a superstep); they must not share unsynchronized state.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/runtime/channels.h"
#include "rockpoint/status.h"

namespace rockpoint::runtime {

inline constexpr std::string_view kStart = "__start__";
inline constexpr std::string_view kEnd = "__end__";

// Runs `node` once more in the next superstep with `arg` as its input
// (instead of the graph state): map-reduce fan-out.
struct Send {
  std::string node;
  State arg;
  friend bool operator==(const Send&, const Send&) = default;
};

// What a node returns: channel writes (applied through the channels'
// reducers after the superstep), and optionally where to go next.
struct NodeUpdate {
  NodeUpdate() = default;
  // One write per entry of `values`.
  NodeUpdate(State values);  // NOLINT: implicit so nodes can return a map.

  NodeUpdate& Write(std::string channel, Value value);
  // Replaces a reducer channel's value instead of folding the write in.
  NodeUpdate& Overwrite(std::string channel, Value value);
  // Schedules `node` for the next superstep (besides the node's edges).
  NodeUpdate& Goto(std::string node);
  NodeUpdate& SendTo(std::string node, State arg);

  std::vector<std::pair<std::string, Value>> writes;
  std::vector<std::string> goto_nodes;
  std::vector<Send> sends;
};

// Thrown by NodeContext::Interrupt to stop the node. It is deliberately not
// a std::exception: node code must let it propagate.
struct InterruptSignal {
  Value value;
};

// What a node knows about the task it runs in. Built by the runtime.
class NodeContext {
 public:
  NodeContext(std::string node, std::string task_id, int64_t step,
              std::string thread_id, std::string checkpoint_ns,
              std::vector<Value> resume_values)
      : node_(std::move(node)),
        task_id_(std::move(task_id)),
        step_(step),
        thread_id_(std::move(thread_id)),
        checkpoint_ns_(std::move(checkpoint_ns)),
        resume_values_(std::move(resume_values)) {}

  const std::string& node() const { return node_; }
  const std::string& task_id() const { return task_id_; }
  int64_t step() const { return step_; }
  const std::string& thread_id() const { return thread_id_; }
  const std::string& checkpoint_ns() const { return checkpoint_ns_; }

  // Human in the loop. The n-th call in a task returns the n-th resume value
  // given for this task (Command::resume); without one it throws
  // InterruptSignal: the task stops, the run ends with `value` reported and
  // persisted as an __interrupt__ write, and a later resume reruns the task.
  Value Interrupt(Value value) {
    if (next_resume_ < resume_values_.size()) {
      return resume_values_[next_resume_++];
    }
    throw InterruptSignal{std::move(value)};
  }
  // How many Interrupt calls this task has made so far.
  size_t interrupts_answered() const { return next_resume_; }

 private:
  std::string node_;
  std::string task_id_;
  int64_t step_;
  std::string thread_id_;
  std::string checkpoint_ns_;
  std::vector<Value> resume_values_;
  size_t next_resume_ = 0;
};

using NodeFn = std::function<NodeUpdate(const State& state, NodeContext& ctx)>;

// What a router decides: next nodes (kEnd allowed) and/or Sends.
struct Route {
  Route() = default;
  Route(const char* node) : nodes{node} {}                          // NOLINT
  Route(std::string node) : nodes{std::move(node)} {}               // NOLINT
  Route(std::string_view node) : nodes{std::string(node)} {}        // NOLINT
  Route(std::vector<std::string> next) : nodes(std::move(next)) {}  // NOLINT
  Route(std::vector<Send> fan_out) : sends(std::move(fan_out)) {}   // NOLINT
  std::vector<std::string> nodes;
  std::vector<Send> sends;
};

// Called after its source node with the state including that node's own
// writes (applied through the reducers).
using Router = std::function<Route(const State& state)>;

struct NodeOptions {
  // Nodes this node may reach by NodeUpdate::Goto / SendTo (kEnd allowed).
  // Used by Compile's reachability check. Default: none.
  std::vector<std::string> destinations;
};

enum class Durability {
  kSync,   // each checkpoint is stored before the next superstep starts.
  kAsync,  // stored by an ordered writer while the next superstep runs.
  kExit,   // stored only when the run ends (done, error or interrupt).
};

class CompiledGraph;  // runtime/compiled_graph.h
struct GraphSpec;     // runtime/graph_spec.h (internal)

struct CompileOptions {
  // Where checkpoints go. nullptr: no persistence (no resume, no history).
  // REQUIRES: outlives the compiled graph. Default: nullptr.
  Checkpointer* checkpointer = nullptr;
  // Default for runs that do not set RunConfig::durability. Default: kAsync.
  Durability durability = Durability::kAsync;
  // Threads running node functions; 0 means the hardware concurrency (at
  // least 2). Default: 0.
  size_t task_threads = 0;
  // Threads running blocking storage calls. Default: 1.
  size_t storage_threads = 1;
  // kAsync: storage operations a run may have queued before it waits
  // (backpressure; bounds memory). Default: 64.
  size_t async_queue_capacity = 64;
  // Shutdown waits this long for running graphs to stop. Default: 10 s.
  int64_t shutdown_timeout_ms = 10000;
};

class StateGraph {
 public:
  StateGraph();
  ~StateGraph();
  StateGraph(StateGraph&&) noexcept;
  StateGraph& operator=(StateGraph&&) noexcept;

  // Declares a state channel. Names starting with "__" or "branch:" are
  // reserved.
  StateGraph& AddChannel(std::string name, ChannelSpec spec);
  StateGraph& AddNode(std::string name, NodeFn fn, NodeOptions options = {});
  // Runs `subgraph` as the node `name`: its input is this graph's state
  // (keys it shares), its final values are written back to the shared keys;
  // its checkpoints live in the namespace "<name>:<task id>".
  StateGraph& AddSubgraph(std::string name, const StateGraph& subgraph);
  StateGraph& AddEdge(std::string_view from, std::string_view to);
  // `targets`: every node the router may return (kEnd allowed). Empty means
  // "any node", which also satisfies the reachability check.
  StateGraph& AddConditionalEdges(std::string_view from, Router router,
                                  std::vector<std::string> targets = {});

  // Validates (unknown node in an edge, duplicate node, reserved name, no
  // entry edge, a node or START with no path to END, bad channel spec) and
  // builds the runnable graph.
  Result<std::unique_ptr<CompiledGraph>> Compile(
      CompileOptions options = {}) const;

  // The validated description (shared by Compile and AddSubgraph).
  Result<std::shared_ptr<const GraphSpec>> BuildSpec() const;

 private:
  std::unique_ptr<GraphSpec> spec_;  // channels and nodes so far.
  std::vector<std::pair<std::string, std::string>> edges_;
  std::vector<std::tuple<std::string, Router, std::vector<std::string>>>
      branches_;
  std::string first_error_;
};

}  // namespace rockpoint::runtime
