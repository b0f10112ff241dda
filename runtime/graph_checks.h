// The checks StateGraph::BuildSpec makes on a GraphSpec once its edges and
// branches are attached, and the internal channels it then adds. Internal
// to runtime/.
#pragma once

#include "rockpoint/status.h"
#include "runtime/graph_spec.h"

namespace rockpoint::runtime {

// Every edge, declared branch target and destination names a node or END
// (not START). InvalidArgument naming the first that does not.
Status CheckTargets(const GraphSpec& spec);
// START has an edge or a branch.
Status CheckEntry(const GraphSpec& spec);
// Every node reachable from START has a path to END (an open router may go
// anywhere). InvalidArgument naming a dead end (a node with no way out) if
// there is one, else the first stuck node.
Status CheckEveryNodeCanFinish(const GraphSpec& spec);
// Adds "__start__", "__pregel_tasks" and each node's trigger channel.
void AddInternalChannels(GraphSpec& spec);

}  // namespace rockpoint::runtime
