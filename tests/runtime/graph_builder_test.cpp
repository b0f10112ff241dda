// StateGraph validation: every malformed graph is a clear InvalidArgument
// from Compile, naming what is wrong; well-formed graphs compile.
#include <doctest/doctest.h>

#include "rockpoint/runtime/runtime.h"

using namespace rockpoint;
using namespace rockpoint::runtime;

namespace {

NodeUpdate Noop(const State&, NodeContext&) { return {}; }

// REQUIREs Compile to fail with InvalidArgument mentioning `needle`.
void ExpectInvalid(const StateGraph& graph, const std::string& needle) {
  auto compiled = graph.Compile();
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.status().IsInvalidArgument());
  CHECK_MESSAGE(compiled.status().message().find(needle) != std::string::npos,
                compiled.status().message());
}

}  // namespace

TEST_CASE("a minimal graph compiles") {
  StateGraph graph;
  graph.AddNode("a", Noop).AddEdge(kStart, "a").AddEdge("a", kEnd);
  CHECK(graph.Compile().ok());
}

TEST_CASE("edges may name nodes added later") {
  StateGraph graph;
  graph.AddEdge(kStart, "a").AddEdge("a", kEnd).AddNode("a", Noop);
  CHECK(graph.Compile().ok());
}

TEST_CASE("unknown nodes in edges") {
  StateGraph to_unknown;
  to_unknown.AddNode("a", Noop).AddEdge(kStart, "a").AddEdge("a", "ghost");
  ExpectInvalid(to_unknown, "unknown node 'ghost'");

  StateGraph from_unknown;
  from_unknown.AddNode("a", Noop)
      .AddEdge(kStart, "a")
      .AddEdge("a", kEnd)
      .AddEdge("ghost", "a");
  ExpectInvalid(from_unknown, "unknown node 'ghost'");

  StateGraph branch_target;
  branch_target.AddNode("a", Noop)
      .AddEdge(kStart, "a")
      .AddConditionalEdges("a", [](const State&) { return Route(kEnd); },
                           {"ghost"});
  ExpectInvalid(branch_target, "unknown target node 'ghost'");

  StateGraph destination;
  destination.AddNode("a", Noop, {.destinations = {"ghost"}})
      .AddEdge(kStart, "a")
      .AddEdge("a", kEnd);
  ExpectInvalid(destination, "unknown destination 'ghost'");
}

TEST_CASE("duplicate and reserved names") {
  StateGraph twice;
  twice.AddNode("a", Noop).AddNode("a", Noop);
  ExpectInvalid(twice, "node 'a' is added twice");

  StateGraph reserved;
  reserved.AddNode(std::string(kEnd), Noop);
  ExpectInvalid(reserved, "reserved");

  StateGraph separator;
  separator.AddNode("a:b", Noop);
  ExpectInvalid(separator, "namespace separators");

  StateGraph channel_twice;
  channel_twice.AddChannel("x", ChannelSpec::LastValue())
      .AddChannel("x", ChannelSpec::LastValue());
  ExpectInvalid(channel_twice, "channel 'x' is declared twice");

  StateGraph reserved_channel;
  reserved_channel.AddChannel("__error__", ChannelSpec::LastValue());
  ExpectInvalid(reserved_channel, "reserved");

  StateGraph no_function;
  no_function.AddNode("a", NodeFn());
  ExpectInvalid(no_function, "node 'a' has no function");
}

TEST_CASE("bad channel specs") {
  StateGraph no_reducer;
  no_reducer.AddChannel("log", ChannelSpec::Reducer(BinaryReducer()));
  ExpectInvalid(no_reducer, "needs a reducer");

  StateGraph frequency;
  frequency.AddChannel("msgs", ChannelSpec::Delta(AppendReducer(), 0));
  ExpectInvalid(frequency, "snapshot_frequency must be >= 1");
}

TEST_CASE("START and END rules") {
  StateGraph no_entry;
  no_entry.AddNode("a", Noop).AddEdge("a", kEnd);
  ExpectInvalid(no_entry, "no entry");

  StateGraph into_start;
  into_start.AddNode("a", Noop).AddEdge("a", kStart);
  ExpectInvalid(into_start, "START has no incoming edges");

  StateGraph out_of_end;
  out_of_end.AddEdge(kEnd, "a");
  ExpectInvalid(out_of_end, "END has no outgoing edges");
}

TEST_CASE("every reachable node needs a path to END") {
  StateGraph dead_end;
  dead_end.AddNode("a", Noop)
      .AddNode("b", Noop)
      .AddEdge(kStart, "a")
      .AddEdge("a", "b");
  ExpectInvalid(dead_end, "node 'b' has no path to END");

  StateGraph cycle;
  cycle.AddNode("a", Noop)
      .AddNode("b", Noop)
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("b", "a");
  ExpectInvalid(cycle, "no path to END");

  // A router with declared targets that include END is a way out.
  StateGraph loop;
  loop.AddNode("a", Noop)
      .AddEdge(kStart, "a")
      .AddConditionalEdges("a", [](const State&) { return Route(kEnd); },
                           {"a", std::string(kEnd)});
  CHECK(loop.Compile().ok());

  // An open router (no targets) may go anywhere, END included.
  StateGraph open;
  open.AddNode("a", Noop)
      .AddEdge(kStart, "a")
      .AddConditionalEdges("a", [](const State&) { return Route(kEnd); });
  CHECK(open.Compile().ok());

  // Goto destinations count.
  StateGraph jumps;
  jumps.AddNode("a", Noop, {.destinations = {std::string(kEnd)}})
      .AddEdge(kStart, "a");
  CHECK(jumps.Compile().ok());
}

TEST_CASE("a bad subgraph makes the parent invalid") {
  StateGraph child;
  child.AddNode("x", Noop);  // no entry
  StateGraph parent;
  parent.AddSubgraph("sub", child).AddEdge(kStart, "sub").AddEdge("sub", kEnd);
  ExpectInvalid(parent, "subgraph 'sub'");
}

TEST_CASE("compile options are checked") {
  StateGraph graph;
  graph.AddNode("a", Noop).AddEdge(kStart, "a").AddEdge("a", kEnd);
  auto compiled = graph.Compile({.async_queue_capacity = 0});
  CHECK(compiled.status().IsInvalidArgument());
}
