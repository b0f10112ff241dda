// GraphSpec: the validated, immutable description of a graph that the
// superstep loop runs. Built by StateGraph::BuildSpec; internal to runtime/.
//
// Besides the user channels the spec holds the internal channels:
//   "__start__"          the run input (ephemeral), trigger of node __start__;
//   "branch:to:<node>"   trigger of <node> (ephemeral), written by edges;
//   "__pregel_tasks"     the Sends of one step (topic).
// Node "__start__" is a built-in node: it writes the input into the state
// and follows START's edges.
//
// Thread-safety: immutable after BuildSpec; shared freely.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/runtime/channels.h"
#include "rockpoint/runtime/graph.h"

namespace rockpoint::runtime {

inline constexpr std::string_view kBranchPrefix = "branch:to:";

struct BranchSpec {
  Router router;
  std::vector<std::string> targets;  // empty: any node.
};

struct NodeSpec {
  std::string name;
  NodeFn fn;                                  // null for __start__ / subgraph.
  std::shared_ptr<const GraphSpec> subgraph;  // set for a subgraph node.
  std::vector<std::string> edges;             // static successors (kEnd ok).
  std::vector<BranchSpec> branches;
  std::vector<std::string> destinations;  // declared Goto/Send targets.
};

struct GraphSpec {
  std::map<std::string, ChannelSpec, std::less<>> channels;  // user state.
  std::map<std::string, ChannelSpec, std::less<>> internal_channels;
  std::map<std::string, NodeSpec, std::less<>> nodes;  // incl. __start__.

  bool IsUserChannel(std::string_view name) const {
    return channels.find(name) != channels.end();
  }
  // The spec of a user or internal channel, or nullptr.
  const ChannelSpec* FindChannel(std::string_view name) const {
    if (auto it = channels.find(name); it != channels.end()) return &it->second;
    if (auto it = internal_channels.find(name); it != internal_channels.end())
      return &it->second;
    return nullptr;
  }
  const NodeSpec* FindNode(std::string_view name) const {
    auto it = nodes.find(name);
    return it == nodes.end() ? nullptr : &it->second;
  }
};

// The channel whose update triggers `node`.
inline std::string TriggerChannel(std::string_view node) {
  if (node == kStart) return std::string(kStart);
  return std::string(kBranchPrefix) + std::string(node);
}

}  // namespace rockpoint::runtime
