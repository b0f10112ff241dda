// Durability modes: in every mode a thread's put_writes and puts reach
// storage in order (writes of a checkpoint after its put, before its
// child's); sync and async store every checkpoint, exit only the last one;
// async applies backpressure (a bounded queue) and surfaces storage errors;
// after a storage failure nothing more is written.
#include <doctest/doctest.h>

#include <map>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> tick (loops `steps` times) -> END.
StateGraph TickGraph(int64_t steps, std::function<void(int64_t)> on_tick = {}) {
  StateGraph graph;
  graph.AddChannel("n", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddNode("tick",
               [on_tick](const State& state, NodeContext&) -> NodeUpdate {
                 if (on_tick) on_tick(state.at("n").as_int() + 1);
                 return State{{"n", Value(1)}};
               })
      .AddEdge(kStart, "tick")
      .AddConditionalEdges(
          "tick",
          [steps](const State& state) -> Route {
            return state.at("n").as_int() < steps ? Route("tick") : Route(kEnd);
          },
          {"tick", std::string(kEnd)});
  return graph;
}

// Checks the recorded call order: a checkpoint's writes come after its put,
// and no write targets a checkpoint after a later put has started.
void CheckOrdered(const std::vector<std::string>& calls) {
  std::map<std::string, size_t> put_at;
  std::string last_put;
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string& call = calls[i];
    if (call.rfind("put ", 0) == 0) {
      last_put = call.substr(4);
      put_at[last_put] = i;
      continue;
    }
    // "writes <checkpoint> <task>"
    std::string checkpoint = call.substr(7, call.find(' ', 7) - 7);
    CAPTURE(call);
    REQUIRE(put_at.count(checkpoint) == 1);
    CHECK(checkpoint == last_put);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("every mode stores a thread's writes and puts in order", H,
                   RUNTIME_HARNESSES) {
  for (Durability mode :
       {Durability::kSync, Durability::kAsync, Durability::kExit}) {
    CAPTURE(static_cast<int>(mode));
    H harness;
    RecordingCheckpointer recorder(&harness.store());
    auto graph = Must(
        TickGraph(5).Compile({.checkpointer = &recorder, .durability = mode}));
    RunOutcome outcome = Must(graph->Invoke(State{}, Thread("t")));
    CHECK(outcome.values.at("n") == Value(5));
    std::vector<std::string> calls = recorder.calls();
    CheckOrdered(calls);
    CHECK(recorder.in_flight_max() == 1);  // one storage call at a time
    std::vector<CheckpointTuple> history = History(harness.store(), "t");
    if (mode == Durability::kExit) {
      // Only the last checkpoint, with full values, and no writes.
      REQUIRE(history.size() == 1);
      CHECK(calls.size() == 1);
      CHECK(MetaStep(history[0]) == 5);
      CHECK(history[0].checkpoint.channel_values.count("n") == 1);
    } else {
      CHECK(history.size() == 7);  // input + __start__ + 5 ticks
      CHECK(calls.size() == 7 + 6);
    }
    StateSnapshot state = Must(graph->GetState(Thread("t")));
    CHECK(state.values.at("n") == Value(5));
    CHECK(state.next.empty());
  }
}

TEST_CASE_TEMPLATE("run-time durability overrides the compiled default", H,
                   RUNTIME_HARNESSES) {
  H harness;
  auto graph = Must(TickGraph(3).Compile(
      {.checkpointer = &harness.store(), .durability = Durability::kSync}));
  RunConfig config = Thread("exit");
  config.durability = Durability::kExit;
  Must(graph->Invoke(State{}, config));
  CHECK(History(harness.store(), "exit").size() == 1);
}

TEST_CASE_TEMPLATE("async mode: bounded queue gives backpressure", H,
                   RUNTIME_HARNESSES) {
  H harness;
  RecordingCheckpointer recorder(&harness.store());
  recorder.set_delay(std::chrono::microseconds(500));
  constexpr int64_t kCapacity = 2;
  std::atomic<int> violations{0};
  std::atomic<int> ticks{0};
  // Before tick k runs, 3 + 2(k-1) operations were submitted (input put,
  // __start__ writes, step-0 put, then writes + put per tick). With at most
  // kCapacity pending, storage has started all but kCapacity of them.
  auto graph = Must(TickGraph(30,
                              [&](int64_t k) {
                                ++ticks;
                                int64_t submitted = 3 + 2 * (k - 1);
                                int64_t started = static_cast<int64_t>(
                                    recorder.calls().size());
                                if (started < submitted - kCapacity)
                                  ++violations;
                              })
                        .Compile({.checkpointer = &recorder,
                                  .durability = Durability::kAsync,
                                  .async_queue_capacity = kCapacity}));
  RunConfig config = Thread("bp");
  config.recursion_limit = 100;
  RunOutcome outcome = Must(graph->Invoke(State{}, config));
  CHECK(outcome.values.at("n") == Value(30));
  CHECK(ticks.load() == 30);
  CHECK(violations.load() == 0);
  // Flushed at exit: everything is stored when Invoke returns.
  CHECK(recorder.calls().size() == 3 + 2 * 30);
  CheckOrdered(recorder.calls());
}

TEST_CASE_TEMPLATE("a storage error surfaces and stops all later writes", H,
                   RUNTIME_HARNESSES) {
  for (Durability mode : {Durability::kSync, Durability::kAsync}) {
    CAPTURE(static_cast<int>(mode));
    H harness;
    RecordingCheckpointer recorder(&harness.store());
    recorder.fail_write_call(4);  // the first tick's put_writes
    auto graph = Must(
        TickGraph(10).Compile({.checkpointer = &recorder, .durability = mode}));
    Result<RunOutcome> outcome = graph->Invoke(State{}, Thread("f"));
    CHECK(outcome.status().IsIOError());
    CHECK(outcome.status().message().find("injected") != std::string::npos);
    // Nothing after the failed call reached storage.
    CHECK(recorder.calls().size() == 4);
    CHECK(History(harness.store(), "f").size() == 2);
  }
  // In exit mode the single put fails and is reported.
  H harness;
  RecordingCheckpointer recorder(&harness.store());
  recorder.fail_write_call(1);
  auto graph = Must(TickGraph(3).Compile(
      {.checkpointer = &recorder, .durability = Durability::kExit}));
  CHECK(graph->Invoke(State{}, Thread("x")).status().IsIOError());
  CHECK(History(harness.store(), "x").empty());
}

TEST_CASE_TEMPLATE("exit mode stores the last checkpoint on error too", H,
                   RUNTIME_HARNESSES) {
  H harness;
  bool fail = true;
  StateGraph graph;
  graph.AddChannel("n", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddNode("a",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"n", Value(1)}};
               })
      .AddNode("b",
               [&fail](const State&, NodeContext&) -> NodeUpdate {
                 if (fail) throw std::runtime_error("b broke");
                 return State{{"n", Value(10)}};
               })
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("b", kEnd);
  auto compiled = Must(graph.Compile(
      {.checkpointer = &harness.store(), .durability = Durability::kExit}));
  Result<RunOutcome> failed = compiled->Invoke(State{}, Thread("e"));
  CHECK(failed.status().IsAborted());
  CHECK(failed.status().message().find("b broke") != std::string::npos);
  std::vector<CheckpointTuple> history = History(harness.store(), "e");
  REQUIRE(history.size() == 1);
  CHECK(MetaStep(history[0]) == 1);  // the checkpoint b started from
  REQUIRE(history[0].pending_writes.size() == 1);
  CHECK(history[0].pending_writes[0].channel == "__error__");
  fail = false;
  RunOutcome resumed = Must(compiled->Continue(Thread("e")));
  CHECK(resumed.values.at("n") == Value(11));
  CHECK(History(harness.store(), "e").size() == 2);
}
