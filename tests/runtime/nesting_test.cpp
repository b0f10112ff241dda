// The nesting rule (rockpoint/value.h) in the runtime: a value that would
// be stored nested deeper than serde::kMaxDepth does not read back, so it
// is refused before it is stored (a node's write or interrupt fails the
// task; run input and Command values are InvalidArgument; a channel value a
// reducer nested too deep fails the checkpoint), and everything that was
// stored still reads back. Values at the limit are stored and read back.
#include <doctest/doctest.h>

#include <string>

#include "runtime/runtime_test_util.h"
#include "serde/nested_value.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;
using serde::kMaxDepth;
using serde::testing::kFarTooDeep;
using serde::testing::NestedArrays;

namespace {

// START -> write -> END; "write" writes NestedArrays(*levels) to "v", or
// interrupts with it when *interrupt is set.
StateGraph WriteGraph(const int* levels, const bool* interrupt) {
  StateGraph graph;
  graph.AddChannel("v", ChannelSpec::LastValue())
      .AddNode(
          "write",
          [levels, interrupt](const State&, NodeContext& ctx) -> NodeUpdate {
            if (*interrupt) ctx.Interrupt(NestedArrays(*levels));
            return State{{"v", NestedArrays(*levels)}};
          })
      .AddEdge(kStart, "write")
      .AddEdge("write", kEnd);
  return graph;
}

// Every stored checkpoint of "t" and its writes read back.
void CheckHistoryReads(Checkpointer& store) {
  for (const CheckpointTuple& tuple : History(store, "t")) {
    CAPTURE(tuple.checkpoint.id);
    Must(store.GetTuple(CheckpointConfig{"t", "", tuple.checkpoint.id}));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("a node's write: kMaxDepth levels stored, deeper refused", H,
                   RUNTIME_HARNESSES) {
  H harness;
  int levels = kMaxDepth;
  bool interrupt = false;
  auto graph = Must(WriteGraph(&levels, &interrupt)
                        .Compile({.checkpointer = &harness.store()}));
  RunOutcome done = Must(graph->Invoke(State{}, Thread("t")));
  CHECK(done.values.at("v") == NestedArrays(kMaxDepth));
  CHECK(Must(graph->GetState(Thread("t"))).values.at("v") ==
        NestedArrays(kMaxDepth));

  for (int deeper : {kMaxDepth + 1, kFarTooDeep}) {
    CAPTURE(deeper);
    levels = deeper;
    Result<RunOutcome> failed = graph->Invoke(State{}, Thread("t"));
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.status().message().find(
              "node 'write' wrote to 'v' a value nesting deeper than 256 "
              "maps and arrays") != std::string::npos);
    CheckHistoryReads(harness.store());
  }
  // The last good value is still the state.
  CHECK(Must(graph->GetState(Thread("t"))).values.at("v") ==
        NestedArrays(kMaxDepth));
}

TEST_CASE_TEMPLATE("an interrupt value: 254 levels stored, deeper refused", H,
                   RUNTIME_HARNESSES) {
  H harness;
  int levels = kMaxDepth - 2;  // inside its record, inside a list.
  bool interrupt = true;
  auto graph = Must(WriteGraph(&levels, &interrupt)
                        .Compile({.checkpointer = &harness.store()}));
  RunOutcome paused = Must(graph->Invoke(State{}, Thread("t")));
  REQUIRE(paused.interrupts.size() == 1);
  CHECK(paused.interrupts[0].value == NestedArrays(kMaxDepth - 2));
  StateSnapshot state = Must(graph->GetState(Thread("t")));
  REQUIRE(state.interrupts.size() == 1);
  CHECK(state.interrupts[0].value == NestedArrays(kMaxDepth - 2));

  levels = kMaxDepth - 1;
  Result<RunOutcome> failed = graph->Invoke(State{}, Thread("t2"));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().message().find(
            "node 'write' interrupted with a value nesting deeper than 254 "
            "maps and arrays") != std::string::npos);
  CheckHistoryReads(harness.store());
}

TEST_CASE_TEMPLATE("run input and Command values too deep are InvalidArgument",
                   H, RUNTIME_HARNESSES) {
  H harness;
  int levels = 1;
  bool interrupt = true;
  auto graph = Must(WriteGraph(&levels, &interrupt)
                        .Compile({.checkpointer = &harness.store()}));
  // Input: START's value wraps the input map, so 255 levels is the limit.
  Result<RunOutcome> too_deep =
      graph->Invoke(State{{"v", NestedArrays(kMaxDepth)}}, Thread("t"));
  CHECK(too_deep.status().IsInvalidArgument());
  CHECK(too_deep.status().message() ==
        "input value of 'v' nests deeper than 255 maps and arrays");
  CHECK(History(harness.store(), "t").empty());
  RunOutcome paused = Must(
      graph->Invoke(State{{"v", NestedArrays(kMaxDepth - 1)}}, Thread("t")));
  REQUIRE(paused.interrupts.size() == 1);

  Command deep_update;
  deep_update.resume = Value(1);
  deep_update.update = State{{"v", NestedArrays(kFarTooDeep)}};
  Result<RunOutcome> refused = graph->Resume(deep_update, Thread("t"));
  CHECK(refused.status().IsInvalidArgument());
  CHECK(refused.status().message() ==
        "Command.update['v'] nests deeper than 256 maps and arrays");

  Command deep_answer;
  deep_answer.resume = NestedArrays(kMaxDepth);
  refused = graph->Resume(deep_answer, Thread("t"));
  CHECK(refused.status().IsInvalidArgument());
  CHECK(refused.status().message() ==
        "Command.resume nests deeper than 255 maps and arrays");
  CheckHistoryReads(harness.store());

  Command answer;
  answer.resume = NestedArrays(kMaxDepth - 1);
  interrupt = false;
  RunOutcome done = Must(graph->Resume(answer, Thread("t")));
  CHECK(done.values.at("v") == NestedArrays(1));
  CheckHistoryReads(harness.store());
}

TEST_CASE_TEMPLATE("a reducer nesting its channel too deep fails the step", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  // Each write becomes [[write]]: a 255-level write makes a 257-level value.
  graph
      .AddChannel("w", ChannelSpec::Reducer(
                           [](const Value&, const Value& w) {
                             return NestedArrays(2, w);
                           },
                           Value(0)))
      .AddNode("write",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"w", NestedArrays(kMaxDepth - 1)}};
               })
      .AddEdge(kStart, "write")
      .AddEdge("write", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  Result<RunOutcome> failed = compiled->Invoke(State{}, Thread("t"));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().message().find(
            "value of channel 'w' nests deeper than 256 maps and arrays") !=
        std::string::npos);
  CheckHistoryReads(harness.store());
}
