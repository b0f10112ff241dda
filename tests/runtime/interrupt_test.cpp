// Interrupts: NodeContext::Interrupt stops the run with __interrupt__
// persisted; Command{resume, update, goto} continues it; several interrupts
// in one step are answered by id; a node may interrupt more than once.
#include <doctest/doctest.h>

#include <map>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> ask (interrupts for an answer) -> after -> END.
StateGraph AskGraph(CallCounter* counter) {
  StateGraph graph;
  graph.AddChannel("answer", ChannelSpec::LastValue())
      .AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddNode("ask",
               [counter](const State&, NodeContext& ctx) -> NodeUpdate {
                 counter->Hit("ask");
                 Value answer = ctx.Interrupt(Value("proceed?"));
                 return State{{"answer", answer}};
               })
      .AddNode("after", Append("after", counter, "after"))
      .AddNode("other", Append("other", counter, "other"))
      .AddEdge(kStart, "ask")
      .AddEdge("ask", "after")
      .AddEdge("after", kEnd)
      .AddEdge("other", kEnd);
  return graph;
}

}  // namespace

TEST_CASE_TEMPLATE("interrupt stops the run and resume answers it", H,
                   RUNTIME_HARNESSES) {
  for (Durability mode :
       {Durability::kSync, Durability::kAsync, Durability::kExit}) {
    CAPTURE(static_cast<int>(mode));
    H harness;
    CallCounter counter;
    auto graph = Must(AskGraph(&counter).Compile(
        {.checkpointer = &harness.store(), .durability = mode}));
    RunOutcome paused = Must(graph->Invoke(State{}, Thread("t")));
    REQUIRE(paused.interrupts.size() == 1);
    const Interrupt& interrupt = paused.interrupts[0];
    CHECK(interrupt.value == Value("proceed?"));
    CHECK(interrupt.node == "ask");
    CHECK(interrupt.checkpoint_ns.empty());
    CHECK(counter.Count("after") == 0);

    // Persisted: the state shows the pending interrupt.
    StateSnapshot state = Must(graph->GetState(Thread("t")));
    CHECK(state.next == std::vector<std::string>{"ask"});
    REQUIRE(state.interrupts.size() == 1);
    CHECK(state.interrupts[0] == interrupt);

    Command command;
    command.resume = Value("yes");
    RunOutcome done = Must(graph->Resume(command, Thread("t")));
    CHECK(done.interrupts.empty());
    CHECK(done.values.at("answer") == Value("yes"));
    CHECK(done.values.at("log") == Value(Value::Array{Value("after")}));
    CHECK(counter.Count("ask") == 2);  // the interrupted node reruns
    CHECK(counter.Count("after") == 1);

    // Nothing is pending any more: a resume value has nowhere to go.
    CHECK(graph->Resume(command, Thread("t")).status().IsInvalidArgument());
  }
}

TEST_CASE_TEMPLATE("Command update and goto act before the pending tasks", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  auto graph = Must(AskGraph(&counter).Compile(
      {.checkpointer = &harness.store(), .durability = Durability::kSync}));
  Must(graph->Invoke(State{}, Thread("g")));
  Command command;
  command.resume = Value("ok");
  command.update = State{{"log", Value(Value::Array{Value("note")})}};
  command.goto_nodes = {"other"};
  RunOutcome done = Must(graph->Resume(command, Thread("g")));
  // "other" ran beside "ask" in the resumed step, then "after".
  CHECK(counter.Count("other") == 1);
  CHECK(done.values.at("log") ==
        Value(Value::Array{Value("note"), Value("other"), Value("after")}));
  CHECK(done.values.at("answer") == Value("ok"));

  Command bad;
  bad.goto_nodes = {"nowhere"};
  Must(graph->Invoke(State{}, Thread("g2")));
  CHECK(graph->Resume(bad, Thread("g2")).status().IsInvalidArgument());
  Command bad_update;
  bad_update.update = State{{"nope", Value(1)}};
  CHECK(graph->Resume(bad_update, Thread("g2")).status().IsInvalidArgument());
}

TEST_CASE_TEMPLATE("several interrupts in one step are answered by id", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  auto asker = [&counter](std::string name) -> NodeFn {
    return [&counter, name](const State&, NodeContext& ctx) -> NodeUpdate {
      counter.Hit(name);
      Value answer = ctx.Interrupt(Value("question for " + name));
      return State{{name, answer}};
    };
  };
  StateGraph graph;
  graph.AddChannel("left", ChannelSpec::LastValue())
      .AddChannel("right", ChannelSpec::LastValue())
      .AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddNode("left", asker("left"))
      .AddNode("right", asker("right"))
      .AddNode("quiet", Append("quiet", &counter, "quiet"))
      .AddEdge(kStart, "left")
      .AddEdge(kStart, "right")
      .AddEdge(kStart, "quiet")
      .AddEdge("left", kEnd)
      .AddEdge("right", kEnd)
      .AddEdge("quiet", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  RunOutcome paused = Must(compiled->Invoke(State{}, Thread("two")));
  REQUIRE(paused.interrupts.size() == 2);
  std::map<std::string, std::string> ids;  // node -> interrupt id
  for (const Interrupt& interrupt : paused.interrupts) {
    ids[interrupt.node] = interrupt.id;
  }
  REQUIRE(ids.size() == 2);
  CHECK(ids["left"] != ids["right"]);

  // One bare resume value is ambiguous.
  Command ambiguous;
  ambiguous.resume = Value(1);
  Result<RunOutcome> refused = compiled->Resume(ambiguous, Thread("two"));
  CHECK(refused.status().IsInvalidArgument());
  CHECK(refused.status().message().find("2 interrupts") != std::string::npos);
  Command unknown;
  unknown.resume_by_id["no-such-id"] = Value(1);
  CHECK(compiled->Resume(unknown, Thread("two")).status().IsInvalidArgument());

  // Answer only one: the other interrupts again, "quiet" never reruns.
  Command first;
  first.resume_by_id[ids["left"]] = Value("L");
  RunOutcome half = Must(compiled->Resume(first, Thread("two")));
  REQUIRE(half.interrupts.size() == 1);
  CHECK(half.interrupts[0].node == "right");
  Command second;
  second.resume_by_id[ids["right"]] = Value("R");
  RunOutcome done = Must(compiled->Resume(second, Thread("two")));
  CHECK(done.values.at("left") == Value("L"));
  CHECK(done.values.at("right") == Value("R"));
  CHECK(counter.Count("quiet") == 1);
  CHECK(counter.Count("left") == 2);   // interrupted, then answered
  CHECK(counter.Count("right") == 3);  // interrupted twice, then answered
}

TEST_CASE_TEMPLATE("a node may interrupt several times in sequence", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("form", ChannelSpec::LastValue())
      .AddNode("form",
               [](const State&, NodeContext& ctx) -> NodeUpdate {
                 Value name = ctx.Interrupt(Value("name?"));
                 Value age = ctx.Interrupt(Value("age?"));
                 return State{{"form", Value(Value::Array{name, age})}};
               })
      .AddEdge(kStart, "form")
      .AddEdge("form", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  RunOutcome first = Must(compiled->Invoke(State{}, Thread("seq")));
  REQUIRE(first.interrupts.size() == 1);
  CHECK(first.interrupts[0].value == Value("name?"));
  Command name;
  name.resume = Value("Ada");
  RunOutcome second = Must(compiled->Resume(name, Thread("seq")));
  REQUIRE(second.interrupts.size() == 1);
  CHECK(second.interrupts[0].value == Value("age?"));
  Command age;
  age.resume = Value(36);
  RunOutcome done = Must(compiled->Resume(age, Thread("seq")));
  CHECK(done.values.at("form") == Value(Value::Array{Value("Ada"), Value(36)}));
}

TEST_CASE("interrupts without a checkpointer stop the run") {
  CallCounter counter;
  auto graph = Must(AskGraph(&counter).Compile());
  RunOutcome paused = Must(graph->Invoke(State{}, RunConfig{}));
  CHECK(paused.interrupts.size() == 1);
  Command command;
  command.resume = Value("yes");
  CHECK(graph->Resume(command, RunConfig{}).status().IsInvalidArgument());
}
