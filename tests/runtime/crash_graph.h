// The graph of the crash test, shared by the child program
// (crash_run_main.cpp) and the test (crash_test.cpp) so both run exactly
// the same nodes.
//
// Each round: "work" bumps the round counter, "left" and "right" run in
// parallel and append to a delta channel, "join" appends and loops back
// until `rounds` rounds are done. Nodes are deterministic; left and right
// pause briefly so that a kill lands inside a superstep. `on_round` (may be
// empty) sees the round number.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "rockpoint/runtime/runtime.h"

namespace rockpoint::testing {

inline runtime::StateGraph CrashGraph(int64_t rounds,
                                      std::function<void(int64_t)> on_round,
                                      std::chrono::microseconds pause) {
  using runtime::NodeContext;
  using runtime::NodeUpdate;
  using runtime::State;
  auto append = [pause](std::string side) {
    return [side, pause](const State& state, NodeContext&) -> NodeUpdate {
      if (pause.count() > 0) std::this_thread::sleep_for(pause);
      std::string item = side + std::to_string(state.at("round").as_int());
      return State{{"log", Value(Value::Array{Value(item)})}};
    };
  };
  runtime::StateGraph graph;
  graph
      .AddChannel("round", runtime::ChannelSpec::Reducer(runtime::AddReducer(),
                                                         Value(0)))
      .AddChannel("log", runtime::ChannelSpec::Delta(runtime::AppendReducer(),
                                                     4, Value::MakeArray()))
      .AddNode("work",
               [on_round](const State& state, NodeContext&) -> NodeUpdate {
                 int64_t round = state.at("round").as_int() + 1;
                 if (on_round) on_round(round);
                 return State{{"round", Value(1)}};
               })
      .AddNode("left", append("L"))
      .AddNode("right", append("R"))
      .AddNode("join", append("J"))
      .AddEdge(runtime::kStart, "work")
      .AddEdge("work", "left")
      .AddEdge("work", "right")
      .AddEdge("left", "join")
      .AddEdge("right", "join")
      .AddConditionalEdges("join",
                           [rounds](const State& state) -> runtime::Route {
                             return state.at("round").as_int() < rounds
                                        ? runtime::Route("work")
                                        : runtime::Route(runtime::kEnd);
                           },
                           {"work", std::string(runtime::kEnd)});
  return graph;
}

}  // namespace rockpoint::testing
