// The superstep loop: checkpoints per step (LangGraph's input/loop sequence),
// metadata, pending writes per task with deterministic task ids, parallel
// tasks, conditional edges, Send fan-out, and runs without a checkpointer.
#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>
#include <set>

#include "runtime/ids.h"
#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

StateGraph LinearGraph(CallCounter* counter) {
  StateGraph graph;
  graph.AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddChannel("topic", ChannelSpec::LastValue())
      .AddNode("a", Append("a", counter, "a"))
      .AddNode("b", Append("b", counter, "b"))
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("b", kEnd);
  return graph;
}

}  // namespace

TEST_CASE_TEMPLATE("START -> a -> b -> END leaves input + 3 loop checkpoints",
                   H, RUNTIME_HARNESSES) {
  for (Durability durability : {Durability::kSync, Durability::kAsync}) {
    CAPTURE(static_cast<int>(durability));
    H harness;
    CallCounter counter;
    auto graph = Must(LinearGraph(&counter).Compile(
        {.checkpointer = &harness.store(), .durability = durability}));
    RunConfig config = Thread("t1");
    config.run_id = "run-1";
    RunOutcome outcome =
        Must(graph->Invoke(State{{"topic", Value("x")}}, config));
    CHECK(outcome.values.at("log") == Log({"a", "b"}));
    CHECK(outcome.values.at("topic") == Value("x"));
    CHECK(outcome.interrupts.empty());
    CHECK(outcome.supersteps == 3);  // __start__, a, b

    std::vector<CheckpointTuple> history = History(harness.store(), "t1");
    REQUIRE(history.size() == 4);
    // Newest first: steps 2, 1, 0 (loop) and -1 (input).
    const char* sources[] = {"loop", "loop", "loop", "input"};
    for (size_t i = 0; i < 4; ++i) {
      CHECK(MetaString(history[i], "source") == sources[i]);
      CHECK(MetaStep(history[i]) == 2 - static_cast<int64_t>(i));
      CHECK(MetaString(history[i], "run_id") == "run-1");
      const Value* parents = history[i].metadata.Find("parents");
      REQUIRE(parents != nullptr);
      CHECK(*parents == Value::MakeMap());
      if (i + 1 < 4) {
        REQUIRE(history[i].parent_config.has_value());
        CHECK(history[i].parent_config->checkpoint_id ==
              history[i + 1].config.checkpoint_id);
      }
    }
    CHECK_FALSE(history[3].parent_config.has_value());
    CHECK(outcome.config.checkpoint_id == history[0].config.checkpoint_id);

    // Each task's writes sit on the checkpoint its step started from, under
    // a task id derived from (checkpoint, step, node).
    const char* nodes[] = {"b", "a", "__start__"};
    for (size_t i = 1; i < 4; ++i) {
      const CheckpointTuple& tuple = history[i];
      REQUIRE_FALSE(tuple.pending_writes.empty());
      std::string node = nodes[i - 1];
      std::string expected_id =
          TaskId(*tuple.config.checkpoint_id, "", MetaStep(tuple) + 1, node,
                 PullTaskPath(node));
      for (const PendingWrite& write : tuple.pending_writes) {
        CHECK(write.task_id == expected_id);
        CHECK(write.task_path == PullTaskPath(node));
      }
    }
    CHECK(history[0].pending_writes.empty());
    // The last checkpoint saw b's trigger; its values resolve in full.
    CHECK(history[0].checkpoint.versions_seen.count("b") == 1);
    CHECK(history[0].checkpoint.channel_values.count("log") == 1);
    CHECK(counter.Count("a") == 1);
    CHECK(counter.Count("b") == 1);
  }
}

TEST_CASE_TEMPLATE("a second invoke on a thread continues its history", H,
                   RUNTIME_HARNESSES) {
  H harness;
  auto graph = Must(LinearGraph(nullptr).Compile(
      {.checkpointer = &harness.store(), .durability = Durability::kSync}));
  Must(graph->Invoke(State{}, Thread("t")));
  RunOutcome second = Must(graph->Invoke(State{}, Thread("t")));
  CHECK(second.values.at("log") == Log({"a", "b", "a", "b"}));
  std::vector<CheckpointTuple> history = History(harness.store(), "t");
  REQUIRE(history.size() == 8);
  CHECK(MetaString(history[3], "source") == "input");
  CHECK(MetaStep(history[3]) == 3);
  CHECK(MetaStep(history[0]) == 6);
}

TEST_CASE_TEMPLATE("tasks of one superstep run in parallel", H,
                   RUNTIME_HARNESSES) {
  H harness;
  // b and c meet at a rendezvous: run one after the other, neither arrives.
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  auto meet = [&](std::string name) -> NodeFn {
    return [&, name](const State&, NodeContext&) -> NodeUpdate {
      std::unique_lock<std::mutex> lock(mu);
      ++arrived;
      cv.notify_all();
      if (!cv.wait_for(lock, std::chrono::seconds(20),
                       [&] { return arrived >= 2; })) {
        throw std::runtime_error("sibling task never ran concurrently");
      }
      return State{{"log", Value(Value::Array{Value(name)})}};
    };
  };
  StateGraph graph;
  graph.AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddNode("a", Append("a", nullptr, "a"))
      .AddNode("b", meet("b"))
      .AddNode("c", meet("c"))
      .AddNode("d", Append("d", nullptr, "d"))
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("a", "c")
      .AddEdge("b", "d")
      .AddEdge("c", "d")
      .AddEdge("d", kEnd);
  auto compiled = Must(
      graph.Compile({.checkpointer = &harness.store(), .task_threads = 4}));
  RunOutcome outcome = Must(compiled->Invoke(State{}, Thread("p")));
  // Writes of one step apply in task-path order, whatever finished first.
  CHECK(outcome.values.at("log") == Log({"a", "b", "c", "d"}));
  // __start__, a, {b, c}, d: d runs once although two edges lead to it.
  CHECK(outcome.supersteps == 4);
  std::vector<CheckpointTuple> history = History(harness.store(), "p");
  REQUIRE(history.size() == 5);
  // The step with b and c stored one write set per task.
  std::set<std::string> tasks;
  for (const PendingWrite& write : history[2].pending_writes) {
    tasks.insert(write.task_id);
  }
  CHECK(tasks.size() == 2);
}

TEST_CASE_TEMPLATE("conditional edges loop until the router ends", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("count", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddNode("inc",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"count", Value(1)}};
               })
      .AddEdge(kStart, "inc")
      .AddConditionalEdges(
          "inc",
          [](const State& state) -> Route {
            return state.at("count").as_int() < 3 ? Route("inc") : Route(kEnd);
          },
          {"inc", std::string(kEnd)});
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  RunOutcome outcome = Must(compiled->Invoke(State{}, Thread("loop")));
  CHECK(outcome.values.at("count") == Value(3));
  CHECK(History(harness.store(), "loop").size() == 5);  // input + 4 steps

  // The recursion limit stops a run that never reaches END.
  RunConfig limited = Thread("limited");
  limited.recursion_limit = 2;
  Result<RunOutcome> stopped = compiled->Invoke(State{}, limited);
  CHECK(stopped.status().IsAborted());
  CHECK(stopped.status().message().find("recursion limit") !=
        std::string::npos);
}

TEST_CASE_TEMPLATE("Send fans out one task per item with its own input", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("items", ChannelSpec::LastValue())
      .AddChannel("results", ChannelSpec::Reducer(AppendReducer()))
      .AddChannel("total", ChannelSpec::LastValue())
      .AddNode("plan",
               [](const State&, NodeContext&) -> NodeUpdate { return {}; })
      .AddNode(
          "worker",
          [](const State& input, NodeContext&) -> NodeUpdate {
            // A push task sees its Send argument, not the graph state.
            if (input.count("items") != 0) {
              throw std::runtime_error("worker saw the graph state");
            }
            int64_t item = input.at("item").as_int();
            return State{{"results", Value(Value::Array{Value(item * 10)})}};
          })
      .AddNode("sum",
               [](const State& state, NodeContext&) -> NodeUpdate {
                 int64_t total = 0;
                 for (const Value& v : state.at("results").as_array()) {
                   total += v.as_int();
                 }
                 return State{{"total", Value(total)}};
               })
      .AddEdge(kStart, "plan")
      .AddConditionalEdges(
          "plan",
          [](const State& state) -> Route {
            std::vector<Send> sends;
            for (const Value& item : state.at("items").as_array()) {
              sends.push_back(Send{"worker", State{{"item", item}}});
            }
            return Route(sends);
          },
          {"worker"})
      .AddEdge("worker", "sum")
      .AddEdge("sum", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  State input{{"items", Value(Value::Array{Value(1), Value(2), Value(3)})}};
  RunOutcome outcome = Must(compiled->Invoke(input, Thread("fan")));
  CHECK(outcome.values.at("results") ==
        Value(Value::Array{Value(10), Value(20), Value(30)}));
  CHECK(outcome.values.at("total") == Value(60));
  // The worker step stored three push tasks' writes.
  std::vector<CheckpointTuple> history = History(harness.store(), "fan");
  std::set<std::string> push_paths;
  for (const CheckpointTuple& tuple : history) {
    for (const PendingWrite& write : tuple.pending_writes) {
      if (write.task_path.rfind("~__pregel_push", 0) == 0) {
        push_paths.insert(write.task_path);
      }
    }
  }
  CHECK(push_paths.size() == 3);
}

TEST_CASE("a graph without a checkpointer runs but cannot resume") {
  auto graph = Must(LinearGraph(nullptr).Compile());
  RunOutcome outcome = Must(graph->Invoke(State{}, RunConfig{}));
  CHECK(outcome.values.at("log") == Log({"a", "b"}));
  CHECK_FALSE(outcome.config.checkpoint_id.has_value());
  CHECK(graph->Continue(RunConfig{}).status().IsInvalidArgument());
  CHECK(graph->GetState(Thread("x")).status().IsInvalidArgument());
}

TEST_CASE_TEMPLATE("bad run input is InvalidArgument and writes nothing", H,
                   RUNTIME_HARNESSES) {
  H harness;
  auto graph =
      Must(LinearGraph(nullptr).Compile({.checkpointer = &harness.store()}));
  Result<RunOutcome> unknown =
      graph->Invoke(State{{"nope", Value(1)}}, Thread("bad"));
  CHECK(unknown.status().IsInvalidArgument());
  CHECK(unknown.status().message().find("nope") != std::string::npos);
  CHECK(graph->Invoke(State{}, RunConfig{}).status().IsInvalidArgument());
  CHECK(graph->Continue(Thread("bad")).status().IsInvalidArgument());
  Command command;
  command.resume = Value(1);
  CHECK(graph->Resume(command, Thread("bad")).status().IsInvalidArgument());
  CHECK(History(harness.store(), "bad").empty());
  // An unknown checkpoint id to replay from is NotFound.
  RunConfig replay = Thread("bad");
  replay.checkpoint_id = "no-such-checkpoint";
  CHECK(graph->Continue(replay).status().IsNotFound());
}
