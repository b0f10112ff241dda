// Lifecycle: the coroutine form of a run on the caller's own io_context;
// Shutdown asks a running graph to stop at its next superstep (what it
// stored stays resumable) and refuses new runs; many threads at once.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <doctest/doctest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <future>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> tick (loops until n == steps) -> END. `entered` is set when the
// first tick runs; ticks wait for `release` (if given).
StateGraph Ticks(int64_t steps, std::promise<void>* entered,
                 std::shared_future<void> release) {
  StateGraph graph;
  graph.AddChannel("n", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddNode(
          "tick",
          [entered, release](const State& state, NodeContext&) -> NodeUpdate {
            if (state.at("n").as_int() == 0 && entered != nullptr) {
              entered->set_value();
            }
            if (release.valid()) release.wait();
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

}  // namespace

TEST_CASE_TEMPLATE("Run is awaitable on the caller's io_context", H,
                   RUNTIME_HARNESSES) {
  H harness;
  auto graph =
      Must(Ticks(4, nullptr, {}).Compile({.checkpointer = &harness.store()}));
  boost::asio::io_context io;
  std::optional<Result<RunOutcome>> result;
  auto run = graph->Run(RunInput::Values(State{}), Thread("io"));
  boost::asio::co_spawn(
      io,
      [&result, run = std::move(run)]() mutable -> Awaitable<void> {
        Result<RunOutcome> outcome = co_await std::move(run);
        result.emplace(std::move(outcome));
      },
      [](std::exception_ptr error) { REQUIRE_FALSE(error); });
  io.run();
  REQUIRE(result.has_value());
  REQUIRE(result->ok());
  CHECK((*result)->values.at("n") == Value(4));
  CHECK(History(harness.store(), "io").size() == 6);
}

TEST_CASE_TEMPLATE("Shutdown stops a run at its next superstep", H,
                   RUNTIME_HARNESSES) {
  H harness;
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto graph = Must(Ticks(1000, &entered, released)
                        .Compile({.checkpointer = &harness.store(),
                                  .durability = Durability::kSync}));
  RunConfig config = Thread("stop");
  config.recursion_limit = 2000;
  std::future<Result<RunOutcome>> running = std::async(
      std::launch::async, [&] { return graph->Invoke(State{}, config); });
  entered.get_future().wait();
  std::future<Status> stopping =
      std::async(std::launch::async, [&] { return graph->Shutdown(); });
  while (!graph->shutting_down()) std::this_thread::yield();
  release.set_value();
  Result<RunOutcome> stopped = running.get();
  CHECK(stopped.status().IsAborted());
  CHECK(stopping.get().ok());
  CHECK(graph->Invoke(State{}, Thread("late")).status().IsAborted());
  CHECK(graph->GetState(Thread("stop")).status().IsAborted());

  // What the stopped run stored is resumable by another graph.
  auto next = Must(
      Ticks(1000, nullptr, {}).Compile({.checkpointer = &harness.store()}));
  RunOutcome finished = Must(next->Continue(config));
  CHECK(finished.values.at("n") == Value(1000));
}

TEST_CASE_TEMPLATE("many threads run on one graph at once", H,
                   RUNTIME_HARNESSES) {
  H harness;
  auto graph =
      Must(Ticks(5, nullptr, {})
               .Compile({.checkpointer = &harness.store(), .task_threads = 3}));
  std::vector<std::future<Result<RunOutcome>>> runs;
  for (int i = 0; i < 8; ++i) {
    runs.push_back(std::async(std::launch::async, [&graph, i] {
      return graph->Invoke(State{}, Thread("many-" + std::to_string(i)));
    }));
  }
  for (int i = 0; i < 8; ++i) {
    RunOutcome outcome = Must(runs[i].get());
    CHECK(outcome.values.at("n") == Value(5));
    CHECK(History(harness.store(), "many-" + std::to_string(i)).size() == 7);
  }
}
