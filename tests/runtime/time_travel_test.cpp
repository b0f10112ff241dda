// Inspection and time travel: get_state, get_state_history (newest first,
// filter, before, limit), update_state through the reducers (source
// "update", next nodes from as_node's edges), bulk_update_state, fork_state,
// and replay from an older checkpoint (later nodes rerun, new checkpoints
// are appended, stored history is never changed).
#include <doctest/doctest.h>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> a -> b -> c -> END, each appending its name to "log".
StateGraph Chain(CallCounter* counter, ChannelSpec log) {
  StateGraph graph;
  graph.AddChannel("log", std::move(log))
      .AddChannel("note", ChannelSpec::LastValue())
      .AddNode("a", Append("a", counter, "a"))
      .AddNode("b", Append("b", counter, "b"))
      .AddNode("c", Append("c", counter, "c"))
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("b", "c")
      .AddEdge("c", kEnd);
  return graph;
}

// Both channel kinds: time travel must read delta channels right too.
const ChannelSpec kLogKinds[] = {
    ChannelSpec::Reducer(AppendReducer()),
    ChannelSpec::Delta(AppendReducer(), 50),
};

}  // namespace

TEST_CASE_TEMPLATE("state history: newest first, filter, before, limit", H,
                   RUNTIME_HARNESSES) {
  for (const ChannelSpec& log : kLogKinds) {
    H harness;
    auto graph =
        Must(Chain(nullptr, log).Compile({.checkpointer = &harness.store()}));
    Must(graph->Invoke(State{}, Thread("h")));
    std::vector<StateSnapshot> history =
        Must(graph->GetStateHistory(Thread("h")));
    REQUIRE(history.size() == 5);  // input, __start__, a, b, c
    CHECK(history[0].values.at("log") == Log({"a", "b", "c"}));
    CHECK(history[1].values.at("log") == Log({"a", "b"}));
    CHECK(history[1].next == std::vector<std::string>{"c"});
    CHECK(history[3].values.count("log") == 0);
    CHECK(history[3].next == std::vector<std::string>{"a"});
    CHECK(history[4].next == std::vector<std::string>{"__start__"});
    for (size_t i = 0; i + 1 < history.size(); ++i) {
      CHECK(*history[i].config.checkpoint_id >
            *history[i + 1].config.checkpoint_id);
      REQUIRE(history[i].parent_config.has_value());
      CHECK(history[i].parent_config->checkpoint_id ==
            history[i + 1].config.checkpoint_id);
    }

    HistoryOptions inputs;
    inputs.filter = Value(Value::Map{{"source", Value("input")}});
    std::vector<StateSnapshot> only_input =
        Must(graph->GetStateHistory(Thread("h"), inputs));
    REQUIRE(only_input.size() == 1);
    CHECK(only_input[0].config == history[4].config);

    HistoryOptions page;
    page.before = *history[1].config.checkpoint_id;
    page.limit = 2;
    std::vector<StateSnapshot> older =
        Must(graph->GetStateHistory(Thread("h"), page));
    REQUIRE(older.size() == 2);
    CHECK(older[0].config == history[2].config);
    CHECK(older[1].config == history[3].config);

    StateSnapshot latest = Must(graph->GetState(Thread("h")));
    CHECK(latest.config == history[0].config);
    CHECK(latest.created_at == history[0].created_at);
    CHECK(graph->GetState(Thread("nobody")).status().IsNotFound());
    CHECK(graph->GetState(At("h", "missing")).status().IsNotFound());
  }
}

TEST_CASE_TEMPLATE("update_state writes through reducers as a node", H,
                   RUNTIME_HARNESSES) {
  for (const ChannelSpec& log : kLogKinds) {
    H harness;
    CallCounter counter;
    auto graph =
        Must(Chain(&counter, log).Compile({.checkpointer = &harness.store()}));
    Must(graph->Invoke(State{}, Thread("u")));
    std::vector<StateSnapshot> before =
        Must(graph->GetStateHistory(Thread("u")));
    const StateSnapshot& after_a = before[2];  // a ran, b is next
    REQUIRE(after_a.next == std::vector<std::string>{"b"});

    // Acting as "b" on the checkpoint after a: c runs next, not b.
    CheckpointConfig updated = Must(graph->UpdateState(
        At("u", *after_a.config.checkpoint_id),
        State{{"log", Log({"B!"})}, {"note", Value("edited")}}, "b"));
    StateSnapshot state = Must(graph->GetState(Thread("u")));
    CHECK(state.config == updated);
    CHECK(state.values.at("log") == Log({"a", "B!"}));
    CHECK(state.values.at("note") == Value("edited"));
    CHECK(state.next == std::vector<std::string>{"c"});
    CHECK(state.metadata.Find("source")->as_string() == "update");
    CHECK(state.parent_config->checkpoint_id == after_a.config.checkpoint_id);

    RunOutcome finished = Must(graph->Continue(Thread("u")));
    CHECK(finished.values.at("log") == Log({"a", "B!", "c"}));
    CHECK(counter.Count("b") == 1);  // the update acted as b
    CHECK(counter.Count("c") == 2);

    // Without as_node the update acts as the node that ran last (c).
    Must(graph->UpdateState(Thread("u"), State{{"note", Value("last")}}));
    StateSnapshot last = Must(graph->GetState(Thread("u")));
    CHECK(last.next.empty());
    CHECK(last.values.at("note") == Value("last"));

    CHECK(graph->UpdateState(Thread("u"), State{{"nope", Value(1)}})
              .status()
              .IsInvalidArgument());
    CHECK(graph->UpdateState(Thread("u"), State{}, "ghost")
              .status()
              .IsInvalidArgument());
  }
}

TEST_CASE_TEMPLATE("bulk_update_state makes one checkpoint per superstep", H,
                   RUNTIME_HARNESSES) {
  H harness;
  CallCounter counter;
  auto graph = Must(Chain(&counter, ChannelSpec::Reducer(AppendReducer()))
                        .Compile({.checkpointer = &harness.store()}));
  // On a fresh thread: seed the input as START, then act as a.
  std::vector<std::vector<StateUpdate>> steps{
      {StateUpdate{State{{"note", Value("seeded")}}, std::string(kStart)}},
      {StateUpdate{State{{"log", Log({"A"})}}, "a"}},
  };
  Must(graph->BulkUpdateState(Thread("bulk"), steps));
  std::vector<StateSnapshot> history =
      Must(graph->GetStateHistory(Thread("bulk")));
  REQUIRE(history.size() == 2);
  CHECK(history[0].next == std::vector<std::string>{"b"});
  CHECK(history[1].next == std::vector<std::string>{"a"});
  RunOutcome done = Must(graph->Continue(Thread("bulk")));
  CHECK(done.values.at("log") == Log({"A", "b", "c"}));
  CHECK(counter.Count("a") == 0);

  std::vector<std::vector<StateUpdate>> clash{
      {StateUpdate{State{}, "a"}, StateUpdate{State{}, "a"}}};
  CHECK(graph->BulkUpdateState(Thread("bulk"), clash)
            .status()
            .IsInvalidArgument());
  CHECK(
      graph->BulkUpdateState(Thread("bulk"), {}).status().IsInvalidArgument());
}

TEST_CASE_TEMPLATE("replay from an older checkpoint appends a new branch", H,
                   RUNTIME_HARNESSES) {
  for (const ChannelSpec& log : kLogKinds) {
    H harness;
    CallCounter counter;
    auto graph = Must(Chain(&counter, log)
                          .Compile({.checkpointer = &harness.store(),
                                    .durability = Durability::kSync}));
    Must(graph->Invoke(State{}, Thread("r")));
    std::vector<CheckpointTuple> original = History(harness.store(), "r");
    REQUIRE(original.size() == 5);
    const CheckpointTuple& after_a = original[2];

    RunOutcome replayed =
        Must(graph->Continue(At("r", *after_a.config.checkpoint_id)));
    CHECK(replayed.values.at("log") == Log({"a", "b", "c"}));
    CHECK(counter.Count("a") == 1);
    CHECK(counter.Count("b") == 2);  // nodes after the checkpoint rerun
    CHECK(counter.Count("c") == 2);

    std::vector<CheckpointTuple> now = History(harness.store(), "r");
    REQUIRE(now.size() == 7);  // two new checkpoints
    // The old checkpoints are untouched, pending writes included.
    for (const CheckpointTuple& old : original) {
      auto same = std::find_if(now.begin(), now.end(), [&](const auto& t) {
        return t.config == old.config;
      });
      REQUIRE(same != now.end());
      CHECK(*same == old);
    }
    // The new branch hangs off the replayed checkpoint and is the latest.
    CHECK(now[1].parent_config->checkpoint_id == after_a.config.checkpoint_id);
    CHECK(now[0].parent_config->checkpoint_id == now[1].config.checkpoint_id);
    StateSnapshot latest = Must(graph->GetState(Thread("r")));
    CHECK(latest.config == now[0].config);
  }
}

TEST_CASE_TEMPLATE("fork_state copies a checkpoint as the new latest", H,
                   RUNTIME_HARNESSES) {
  for (const ChannelSpec& log : kLogKinds) {
    H harness;
    CallCounter counter;
    auto graph =
        Must(Chain(&counter, log).Compile({.checkpointer = &harness.store()}));
    Must(graph->Invoke(State{}, Thread("f")));
    std::vector<StateSnapshot> history =
        Must(graph->GetStateHistory(Thread("f")));
    const StateSnapshot& after_a = history[2];
    CheckpointConfig forked =
        Must(graph->ForkState(At("f", *after_a.config.checkpoint_id)));
    StateSnapshot fork = Must(graph->GetState(Thread("f")));
    CHECK(fork.config == forked);
    CHECK(fork.values == after_a.values);
    CHECK(fork.next == after_a.next);
    CHECK(fork.metadata.Find("source")->as_string() == "fork");
    RunOutcome continued = Must(graph->Continue(Thread("f")));
    CHECK(continued.values.at("log") == Log({"a", "b", "c"}));
    CHECK(counter.Count("b") == 2);
  }
}
