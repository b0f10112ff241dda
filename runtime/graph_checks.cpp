#include "runtime/graph_checks.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rockpoint::runtime {

namespace {

using Successors = std::map<std::string, std::set<std::string>>;

// A target an edge may name: a node or END, not START.
bool IsTarget(const GraphSpec& spec, const std::string& to) {
  return to != kStart && (to == kEnd || spec.FindNode(to) != nullptr);
}

// Successors of each node; an open router (no declared targets) may go
// anywhere, END included.
Successors NextNodes(const GraphSpec& spec) {
  Successors next;
  for (const auto& [name, node] : spec.nodes) {
    std::set<std::string>& out = next[name];
    out.insert(node.edges.begin(), node.edges.end());
    out.insert(node.destinations.begin(), node.destinations.end());
    for (const BranchSpec& branch : node.branches) {
      if (branch.targets.empty()) {
        for (const auto& [other, unused] : spec.nodes) {
          if (other != kStart) out.insert(other);
        }
        out.insert(std::string(kEnd));
      }
      out.insert(branch.targets.begin(), branch.targets.end());
    }
  }
  return next;
}

// Nodes that reach END (fixed point over the successors).
std::set<std::string> NodesReachingEnd(const Successors& next) {
  std::set<std::string> reaches_end{std::string(kEnd)};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, successors] : next) {
      if (reaches_end.count(name) != 0) continue;
      for (const std::string& to : successors) {
        if (reaches_end.count(to) != 0) {
          reaches_end.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  return reaches_end;
}

// Nodes reachable from START that cannot reach END, in visiting order.
std::vector<std::string> StuckNodes(Successors& next,
                                    const std::set<std::string>& reaches_end) {
  std::set<std::string> seen{std::string(kStart)};
  std::deque<std::string> queue{std::string(kStart)};
  std::vector<std::string> stuck;
  while (!queue.empty()) {
    std::string name = queue.front();
    queue.pop_front();
    if (reaches_end.count(name) == 0) stuck.push_back(name);
    for (const std::string& to : next[name]) {
      if (to != kEnd && seen.insert(to).second) queue.push_back(to);
    }
  }
  return stuck;
}

}  // namespace

Status CheckTargets(const GraphSpec& spec) {
  for (const auto& [name, node] : spec.nodes) {
    for (const std::string& to : node.edges) {
      if (!IsTarget(spec, to)) {
        return Status::InvalidArgument("edge " + name + " -> " + to +
                                       ": unknown node '" + to + "'");
      }
    }
    for (const BranchSpec& branch : node.branches) {
      for (const std::string& to : branch.targets) {
        if (!IsTarget(spec, to)) {
          return Status::InvalidArgument("conditional edge from " + name +
                                         ": unknown target node '" + to + "'");
        }
      }
    }
    for (const std::string& to : node.destinations) {
      if (!IsTarget(spec, to)) {
        return Status::InvalidArgument("node " + name +
                                       ": unknown destination '" + to + "'");
      }
    }
  }
  return Status::OK();
}

Status CheckEntry(const GraphSpec& spec) {
  const NodeSpec& start = spec.nodes.at(std::string(kStart));
  if (start.edges.empty() && start.branches.empty()) {
    return Status::InvalidArgument(
        "graph has no entry: add an edge from START to a node");
  }
  return Status::OK();
}

Status CheckEveryNodeCanFinish(const GraphSpec& spec) {
  Successors next = NextNodes(spec);
  std::vector<std::string> stuck = StuckNodes(next, NodesReachingEnd(next));
  if (stuck.empty()) return Status::OK();
  // A dead end (no way out at all) is the one to fix: name it first.
  std::string culprit = stuck.front();
  for (const std::string& name : stuck) {
    if (next[name].empty()) culprit = name;
  }
  return Status::InvalidArgument(
      culprit == kStart ? std::string("START has no path to END")
                        : "node '" + culprit + "' has no path to END");
}

void AddInternalChannels(GraphSpec& spec) {
  ChannelSpec ephemeral;
  ephemeral.kind = ChannelKind::kEphemeral;
  ChannelSpec topic;
  topic.kind = ChannelKind::kTopic;
  spec.internal_channels.emplace(std::string(kStart), ephemeral);
  spec.internal_channels.emplace(std::string(kTasksChannel), topic);
  for (const auto& [name, node] : spec.nodes) {
    if (name != kStart) {
      spec.internal_channels.emplace(TriggerChannel(name), ephemeral);
    }
  }
}

}  // namespace rockpoint::runtime
