// Failure and resume: a throwing node stores __error__ while the other
// tasks of its step keep their writes; invoking again without input reruns
// only the failed task (call counters prove the finished ones did not rerun)
// and ends in the same state as a run that never failed.
#include <doctest/doctest.h>

#include <atomic>
#include <set>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> a -> {b, c} -> d -> END; c throws while *fail is set.
StateGraph Diamond(CallCounter* counter, std::atomic<bool>* fail) {
  StateGraph graph;
  graph.AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddNode("a", Append("a", counter, "a"))
      .AddNode("b", Append("b", counter, "b"))
      .AddNode("c",
               [counter, fail](const State&, NodeContext&) -> NodeUpdate {
                 counter->Hit("c");
                 if (fail->load()) throw std::runtime_error("c is broken");
                 return State{{"log", Value(Value::Array{Value("c")})}};
               })
      .AddNode("d", Append("d", counter, "d"))
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("a", "c")
      .AddEdge("b", "d")
      .AddEdge("c", "d")
      .AddEdge("d", kEnd);
  return graph;
}

}  // namespace

TEST_CASE_TEMPLATE("a failed task reruns alone on resume", H,
                   RUNTIME_HARNESSES) {
  for (Durability mode :
       {Durability::kSync, Durability::kAsync, Durability::kExit}) {
    CAPTURE(static_cast<int>(mode));
    H harness;
    CallCounter counter;
    std::atomic<bool> fail{true};
    auto graph = Must(
        Diamond(&counter, &fail)
            .Compile({.checkpointer = &harness.store(), .durability = mode}));

    Result<RunOutcome> failed = graph->Invoke(State{}, Thread("t"));
    REQUIRE(failed.status().IsAborted());
    CHECK(failed.status().message().find("node 'c' failed: c is broken") !=
          std::string::npos);

    // The checkpoint the failed step started from keeps b's writes and c's
    // error; c is what runs next.
    StateSnapshot state = Must(graph->GetState(Thread("t")));
    CHECK(state.next == std::vector<std::string>{"c"});
    REQUIRE(state.tasks.size() == 2);
    for (const TaskInfo& task : state.tasks) {
      if (task.name == "b") {
        CHECK(task.done);
        CHECK_FALSE(task.error.has_value());
      } else {
        CHECK(task.name == "c");
        CHECK_FALSE(task.done);
        CHECK(task.error == std::optional<std::string>("c is broken"));
      }
    }
    std::set<std::string> channels;
    std::vector<CheckpointTuple> stored = History(harness.store(), "t");
    for (const PendingWrite& write : stored.front().pending_writes) {
      channels.insert(write.channel);
    }
    CHECK(channels.count("__error__") == 1);
    CHECK(channels.count("log") == 1);  // b's write stayed

    fail = false;
    RunOutcome resumed = Must(graph->Continue(Thread("t")));
    CHECK(counter.Count("a") == 1);
    CHECK(counter.Count("b") == 1);  // not rerun: its stored writes count
    CHECK(counter.Count("c") == 2);
    CHECK(counter.Count("d") == 1);

    // Same final state as a run that never failed.
    H clean_harness;
    CallCounter clean_counter;
    std::atomic<bool> never{false};
    auto clean = Must(Diamond(&clean_counter, &never)
                          .Compile({.checkpointer = &clean_harness.store(),
                                    .durability = mode}));
    RunOutcome expected = Must(clean->Invoke(State{}, Thread("t")));
    CHECK(resumed.values == expected.values);
    CHECK(resumed.values.at("log") ==
          Value(Value::Array{Value("a"), Value("b"), Value("c"), Value("d")}));
    // Resuming a finished thread runs nothing.
    RunOutcome idle = Must(graph->Continue(Thread("t")));
    CHECK(idle.supersteps == 0);
    CHECK(idle.values == resumed.values);
  }
}

TEST_CASE_TEMPLATE("several failing tasks are all reported and rerun", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  std::atomic<int> failures_left{2};
  auto flaky = [&](std::string name) -> NodeFn {
    return [&, name](const State&, NodeContext&) -> NodeUpdate {
      counter.Hit(name);
      if (failures_left.fetch_sub(1) > 0) {
        throw std::runtime_error(name + " failed");
      }
      return State{{"log", Value(Value::Array{Value(name)})}};
    };
  };
  StateGraph graph;
  graph.AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddNode("x", flaky("x"))
      .AddNode("y", flaky("y"))
      .AddNode("z", Append("z", &counter, "z"))
      .AddEdge(kStart, "x")
      .AddEdge(kStart, "y")
      .AddEdge(kStart, "z")
      .AddEdge("x", kEnd)
      .AddEdge("y", kEnd)
      .AddEdge("z", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  Result<RunOutcome> failed = compiled->Invoke(State{}, Thread("m"));
  CHECK(failed.status().IsAborted());
  CHECK(failed.status().message().find("1 more failed task") !=
        std::string::npos);
  RunOutcome resumed = Must(compiled->Continue(Thread("m")));
  CHECK(resumed.values.at("log") ==
        Value(Value::Array{Value("x"), Value("y"), Value("z")}));
  CHECK(counter.Count("x") == 2);
  CHECK(counter.Count("y") == 2);
  CHECK(counter.Count("z") == 1);
}

TEST_CASE_TEMPLATE("a node writing an unknown channel fails its task", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("x", ChannelSpec::LastValue())
      .AddNode("bad",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"nope", Value(1)}};
               })
      .AddEdge(kStart, "bad")
      .AddEdge("bad", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  Result<RunOutcome> outcome = compiled->Invoke(State{}, Thread("u"));
  CHECK(outcome.status().IsAborted());
  CHECK(outcome.status().message().find("'nope'") != std::string::npos);
}

TEST_CASE_TEMPLATE("two writes to a last-value channel in one step fail", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("x", ChannelSpec::LastValue())
      .AddNode("p",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"x", Value(1)}};
               })
      .AddNode("q",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"x", Value(2)}};
               })
      .AddEdge(kStart, "p")
      .AddEdge(kStart, "q")
      .AddEdge("p", kEnd)
      .AddEdge("q", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  Result<RunOutcome> outcome = compiled->Invoke(State{}, Thread("lv"));
  CHECK(outcome.status().IsInvalidArgument());
  CHECK(outcome.status().message().find("'x'") != std::string::npos);
}
