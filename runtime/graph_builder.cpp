// StateGraph: recording the description and validating it into a GraphSpec.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rockpoint/runtime/compiled_graph.h"
#include "rockpoint/runtime/graph.h"
#include "runtime/graph_checks.h"
#include "runtime/graph_spec.h"

namespace rockpoint::runtime {

NodeUpdate::NodeUpdate(State values) {
  writes.reserve(values.size());
  for (auto& [channel, value] : values) {
    writes.emplace_back(channel, std::move(value));
  }
}

NodeUpdate& NodeUpdate::Write(std::string channel, Value value) {
  writes.emplace_back(std::move(channel), std::move(value));
  return *this;
}

NodeUpdate& NodeUpdate::Overwrite(std::string channel, Value value) {
  writes.emplace_back(std::move(channel), MakeOverwrite(value));
  return *this;
}

NodeUpdate& NodeUpdate::Goto(std::string node) {
  goto_nodes.push_back(std::move(node));
  return *this;
}

NodeUpdate& NodeUpdate::SendTo(std::string node, State arg) {
  sends.push_back(Send{std::move(node), std::move(arg)});
  return *this;
}

StateGraph::StateGraph() : spec_(std::make_unique<GraphSpec>()) {
  spec_->nodes[std::string(kStart)].name = std::string(kStart);
}
StateGraph::~StateGraph() = default;
StateGraph::StateGraph(StateGraph&&) noexcept = default;
StateGraph& StateGraph::operator=(StateGraph&&) noexcept = default;

namespace {

bool IsReservedChannel(std::string_view name) {
  return name.substr(0, 2) == "__" || name.substr(0, 7) == "branch:";
}

std::string CheckNodeName(std::string_view name) {
  if (name.empty()) return "node name is empty";
  if (name == kStart || name == kEnd) {
    return "node name '" + std::string(name) + "' is reserved";
  }
  if (name.find_first_of(":|") != std::string_view::npos) {
    return "node name '" + std::string(name) +
           "' contains ':' or '|' (namespace separators)";
  }
  return "";
}

std::string CheckChannelSpec(std::string_view name, const ChannelSpec& spec) {
  std::string prefix = "channel '" + std::string(name) + "': ";
  switch (spec.kind) {
    case ChannelKind::kLastValue:
      return "";
    case ChannelKind::kReducer:
      return spec.reducer ? "" : prefix + "a reducer channel needs a reducer";
    case ChannelKind::kDelta:
      if (!spec.reducer) return prefix + "a delta channel needs a reducer";
      if (std::string error = CheckSnapshotPolicy(spec.snapshot_policy,
                                                  spec.snapshot_frequency);
          !error.empty()) {
        return prefix + error;
      }
      return "";
    case ChannelKind::kEphemeral:
    case ChannelKind::kTopic:
      return prefix + "ephemeral and topic channels are internal";
  }
  return prefix + "unknown kind";
}

}  // namespace

StateGraph& StateGraph::AddChannel(std::string name, ChannelSpec spec) {
  if (!first_error_.empty()) return *this;
  if (IsReservedChannel(name)) {
    first_error_ = "channel name '" + name +
                   "' is reserved (names starting with '__' or 'branch:')";
  } else if (spec_->channels.count(name) != 0) {
    first_error_ = "channel '" + name + "' is declared twice";
  } else if (std::string error = CheckChannelSpec(name, spec); !error.empty()) {
    first_error_ = error;
  } else {
    spec_->channels.emplace(std::move(name), std::move(spec));
  }
  return *this;
}

StateGraph& StateGraph::AddNode(std::string name, NodeFn fn,
                                NodeOptions options) {
  if (!first_error_.empty()) return *this;
  if (std::string error = CheckNodeName(name); !error.empty()) {
    first_error_ = error;
  } else if (spec_->nodes.count(name) != 0) {
    first_error_ = "node '" + name + "' is added twice";
  } else if (!fn) {
    first_error_ = "node '" + name + "' has no function";
  } else {
    NodeSpec& node = spec_->nodes[name];
    node.name = name;
    node.fn = std::move(fn);
    node.destinations = std::move(options.destinations);
  }
  return *this;
}

StateGraph& StateGraph::AddSubgraph(std::string name,
                                    const StateGraph& subgraph) {
  if (!first_error_.empty()) return *this;
  Result<std::shared_ptr<const GraphSpec>> child = subgraph.BuildSpec();
  if (std::string error = CheckNodeName(name); !error.empty()) {
    first_error_ = error;
  } else if (spec_->nodes.count(name) != 0) {
    first_error_ = "node '" + name + "' is added twice";
  } else if (!child.ok()) {
    first_error_ = "subgraph '" + name + "': " + child.status().message();
  } else {
    NodeSpec& node = spec_->nodes[name];
    node.name = name;
    node.subgraph = std::move(child).value();
  }
  return *this;
}

StateGraph& StateGraph::AddEdge(std::string_view from, std::string_view to) {
  if (!first_error_.empty()) return *this;
  std::string edge = "edge " + std::string(from) + " -> " + std::string(to);
  if (from == kEnd) {
    first_error_ = edge + ": END has no outgoing edges";
  } else if (to == kStart) {
    first_error_ = edge + ": START has no incoming edges";
  } else {
    // Validated in BuildSpec: the nodes may be added later.
    edges_.emplace_back(from, to);
  }
  return *this;
}

StateGraph& StateGraph::AddConditionalEdges(std::string_view from,
                                            Router router,
                                            std::vector<std::string> targets) {
  if (!first_error_.empty()) return *this;
  if (from == kEnd) {
    first_error_ = "conditional edges from END: END has no outgoing edges";
  } else if (!router) {
    first_error_ =
        "conditional edges from '" + std::string(from) + "' have no router";
  } else {
    branches_.emplace_back(std::string(from), std::move(router),
                           std::move(targets));
  }
  return *this;
}

namespace {

// Attaches the recorded edges and conditional edges to their source nodes.
Status AttachEdges(
    const std::vector<std::pair<std::string, std::string>>& edges,
    const std::vector<
        std::tuple<std::string, Router, std::vector<std::string>>>& branches,
    GraphSpec& spec) {
  for (const auto& [from, to] : edges) {
    if (spec.FindNode(from) == nullptr) {
      return Status::InvalidArgument("edge " + from + " -> " + to +
                                     ": unknown node '" + from + "'");
    }
    spec.nodes.at(from).edges.push_back(to);
  }
  for (const auto& [from, router, targets] : branches) {
    if (spec.FindNode(from) == nullptr) {
      return Status::InvalidArgument("conditional edge from '" + from +
                                     "': unknown node '" + from + "'");
    }
    spec.nodes.at(from).branches.push_back(BranchSpec{router, targets});
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<const GraphSpec>> StateGraph::BuildSpec() const {
  if (!first_error_.empty()) return Status::InvalidArgument(first_error_);
  auto spec = std::make_shared<GraphSpec>(*spec_);
  RP_RETURN_IF_ERROR(AttachEdges(edges_, branches_, *spec));
  RP_RETURN_IF_ERROR(CheckTargets(*spec));
  RP_RETURN_IF_ERROR(CheckEntry(*spec));
  RP_RETURN_IF_ERROR(CheckEveryNodeCanFinish(*spec));
  AddInternalChannels(*spec);
  return std::shared_ptr<const GraphSpec>(std::move(spec));
}

}  // namespace rockpoint::runtime
