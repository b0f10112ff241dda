// Subgraphs as nodes: the child's checkpoints live under the namespace
// "<node>:<task id>" with metadata parents {"": parent checkpoint}; its
// final values flow back to the parent's shared channels; an interrupt or a
// failure inside the child stops the parent, and resuming the parent resumes
// the child where it stopped.
#include <doctest/doctest.h>

#include <atomic>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// Child: START -> first -> second -> END over "draft" (last value) and its
// own "scratch" channel.
StateGraph Child(CallCounter* counter, std::atomic<bool>* fail_second,
                 bool ask) {
  StateGraph child;
  child.AddChannel("draft", ChannelSpec::LastValue())
      .AddChannel("scratch", ChannelSpec::LastValue())
      .AddNode("first",
               [counter](const State& state, NodeContext& ctx) -> NodeUpdate {
                 counter->Hit("first");
                 std::string draft = state.count("draft")
                                         ? state.at("draft").as_string()
                                         : std::string();
                 return State{{"draft", Value(draft + "+first")},
                              {"scratch", Value(ctx.checkpoint_ns())}};
               })
      .AddNode("second",
               [counter, fail_second, ask](const State& state,
                                           NodeContext& ctx) -> NodeUpdate {
                 counter->Hit("second");
                 if (fail_second != nullptr && fail_second->load()) {
                   throw std::runtime_error("second failed");
                 }
                 std::string suffix = "+second";
                 if (ask)
                   suffix +=
                       "(" + ctx.Interrupt(Value("ok?")).as_string() + ")";
                 return State{
                     {"draft", Value(state.at("draft").as_string() + suffix)}};
               })
      .AddEdge(kStart, "first")
      .AddEdge("first", "second")
      .AddEdge("second", kEnd);
  return child;
}

StateGraph Parent(const StateGraph& child, CallCounter* counter) {
  StateGraph parent;
  parent.AddChannel("draft", ChannelSpec::LastValue())
      .AddChannel("log", ChannelSpec::Reducer(AppendReducer()))
      .AddSubgraph("writer", child)
      .AddNode("publish", Append("published", counter, "publish"))
      .AddEdge(kStart, "writer")
      .AddEdge("writer", "publish")
      .AddEdge("publish", kEnd);
  return parent;
}

// The one namespace other than "" on the thread.
std::string ChildNamespace(Checkpointer& store, const std::string& thread) {
  ThreadPage page = Must(store.ListThreads({}));
  for (const ThreadInfo& info : page.threads) {
    if (info.thread_id != thread) continue;
    for (const NamespaceInfo& ns : info.namespaces) {
      if (!ns.checkpoint_ns.empty()) return ns.checkpoint_ns;
    }
  }
  return "";
}

}  // namespace

TEST_CASE_TEMPLATE("a subgraph checkpoints under node:task_id", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  auto graph = Must(Parent(Child(&counter, nullptr, false), &counter)
                        .Compile({.checkpointer = &harness.store()}));
  RunOutcome outcome =
      Must(graph->Invoke(State{{"draft", Value("d")}}, Thread("s")));
  CHECK(outcome.values.at("draft") == Value("d+first+second"));
  CHECK(outcome.values.count("scratch") == 0);  // the child's own channel
  CHECK(outcome.values.at("log") == Value(Value::Array{Value("published")}));

  std::string ns = ChildNamespace(harness.store(), "s");
  REQUIRE(ns.rfind("writer:", 0) == 0);
  std::vector<CheckpointTuple> parent = History(harness.store(), "s", "");
  std::vector<CheckpointTuple> child = History(harness.store(), "s", ns);
  CHECK(parent.size() == 4);  // input, __start__, writer, publish
  CHECK(child.size() == 4);   // input, __start__, first, second
  // The task id in the namespace is the writer task's id, whose writes sit
  // on the parent checkpoint it started from.
  std::string task_id = ns.substr(std::string("writer:").size());
  const CheckpointTuple& started_from = parent[2];
  bool found = false;
  for (const PendingWrite& write : started_from.pending_writes) {
    found = found || write.task_id == task_id;
  }
  CHECK(found);
  for (const CheckpointTuple& tuple : child) {
    const Value* parents = tuple.metadata.Find("parents");
    REQUIRE(parents != nullptr);
    REQUIRE(parents->Find("") != nullptr);
    CHECK(parents->Find("")->as_string() == *started_from.config.checkpoint_id);
  }
  // The child's state is inspectable through the parent graph.
  RunConfig inspect = Thread("s");
  inspect.checkpoint_ns = ns;
  StateSnapshot child_state = Must(graph->GetState(inspect));
  CHECK(child_state.values.at("scratch") == Value(ns));
  CHECK(child_state.values.at("draft") == Value("d+first+second"));
  RunConfig wrong = Thread("s");
  wrong.checkpoint_ns = "publish:xyz";
  CHECK(graph->GetState(wrong).status().IsInvalidArgument());
}

TEST_CASE_TEMPLATE("an interrupt inside a subgraph pauses the parent", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  auto graph = Must(Parent(Child(&counter, nullptr, true), &counter)
                        .Compile({.checkpointer = &harness.store()}));
  RunOutcome paused =
      Must(graph->Invoke(State{{"draft", Value("d")}}, Thread("i")));
  REQUIRE(paused.interrupts.size() == 1);
  CHECK(paused.interrupts[0].node == "second");
  CHECK(paused.interrupts[0].checkpoint_ns.rfind("writer:", 0) == 0);
  StateSnapshot parent_state = Must(graph->GetState(Thread("i")));
  CHECK(parent_state.next == std::vector<std::string>{"writer"});
  REQUIRE(parent_state.interrupts.size() == 1);

  Command command;
  command.resume = Value("yes");
  RunOutcome done = Must(graph->Resume(command, Thread("i")));
  CHECK(done.interrupts.empty());
  CHECK(done.values.at("draft") == Value("d+first+second(yes)"));
  CHECK(counter.Count("first") == 1);  // the child resumed, not restarted
  CHECK(counter.Count("second") == 2);
  CHECK(counter.Count("publish") == 1);
}

TEST_CASE_TEMPLATE("a failure inside a subgraph resumes inside it", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  std::atomic<bool> fail{true};
  auto graph = Must(Parent(Child(&counter, &fail, false), &counter)
                        .Compile({.checkpointer = &harness.store(),
                                  .durability = Durability::kSync}));
  Result<RunOutcome> failed =
      graph->Invoke(State{{"draft", Value("d")}}, Thread("e"));
  CHECK(failed.status().IsAborted());
  CHECK(failed.status().message().find("second failed") != std::string::npos);
  fail = false;
  RunOutcome done = Must(graph->Continue(Thread("e")));
  CHECK(done.values.at("draft") == Value("d+first+second"));
  CHECK(counter.Count("first") == 1);
  CHECK(counter.Count("second") == 2);
}
