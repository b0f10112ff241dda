// Delta channels end to end: checkpoints store only each step's writes
// ("empty" under a new version) except every snapshot_frequency updates or
// after an overwrite (a tagged snapshot); counters_since_delta_snapshot
// tracks when; every checkpoint reads back (seed + replayed writes) exactly
// what a plain reducer channel holds; and children that do not follow from
// their parent's writes snapshot instead.
#include <doctest/doctest.h>

#include "rockpoint/msgpack_codec.h"
#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// START -> chat (appends "m<count>") looping until `turns` messages.
StateGraph ChatGraph(ChannelSpec messages, int64_t turns) {
  StateGraph graph;
  graph.AddChannel("messages", std::move(messages))
      .AddChannel("count", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddNode("chat",
               [](const State& state, NodeContext&) -> NodeUpdate {
                 int64_t n = state.at("count").as_int();
                 NodeUpdate update;
                 update.Write(
                     "messages",
                     Value(Value::Array{Value("m" + std::to_string(n))}));
                 update.Write("count", Value(1));
                 return update;
               })
      .AddEdge(kStart, "chat")
      .AddConditionalEdges("chat",
                           [turns](const State& state) -> Route {
                             return state.at("count").as_int() < turns
                                        ? Route("chat")
                                        : Route(kEnd);
                           },
                           {"chat", std::string(kEnd)});
  return graph;
}

// The raw stored form of "messages" in a checkpoint: nullopt when the
// checkpoint's own read has no value for it.
std::optional<Value> StoredMessages(const CheckpointTuple& tuple) {
  auto it = tuple.checkpoint.channel_values.find("messages");
  if (it == tuple.checkpoint.channel_values.end()) return std::nullopt;
  return Must(serde::DecodeMsgpack(it->second.bytes));
}

std::vector<int64_t> Counters(const CheckpointTuple& tuple) {
  const Value* all = tuple.metadata.Find("counters_since_delta_snapshot");
  REQUIRE(all != nullptr);
  const Value* pair = all->Find("messages");
  REQUIRE(pair != nullptr);
  REQUIRE(pair->is_array());
  return {pair->as_array()[0].as_int(), pair->as_array()[1].as_int()};
}

}  // namespace

TEST_CASE_TEMPLATE("delta channel: writes only, snapshots every N updates", H,
                   RUNTIME_HARNESSES) {
  H harness;
  constexpr int64_t kTurns = 7;
  auto delta =
      Must(ChatGraph(ChannelSpec::Delta(AppendReducer(), 3, Value::MakeArray()),
                     kTurns)
               .Compile({.checkpointer = &harness.store(),
                         .durability = Durability::kSync}));
  auto plain =
      Must(ChatGraph(ChannelSpec::Reducer(AppendReducer(), Value::MakeArray()),
                     kTurns)
               .Compile({.checkpointer = &harness.store(),
                         .durability = Durability::kSync}));
  RunOutcome d = Must(delta->Invoke(State{}, Thread("delta")));
  RunOutcome p = Must(plain->Invoke(State{}, Thread("plain")));
  CHECK(d.values == p.values);
  CHECK(d.values.at("messages").as_array().size() == kTurns);

  std::vector<CheckpointTuple> delta_history =
      History(harness.store(), "delta");
  std::vector<CheckpointTuple> plain_history =
      History(harness.store(), "plain");
  REQUIRE(delta_history.size() == plain_history.size());
  int snapshots = 0;
  int deltas = 0;
  for (size_t i = 0; i < delta_history.size(); ++i) {
    const CheckpointTuple& tuple = delta_history[i];
    CAPTURE(MetaStep(tuple));
    std::optional<Value> stored = StoredMessages(tuple);
    std::vector<int64_t> counters = Counters(tuple);
    bool has_version = tuple.checkpoint.channel_versions.count("messages") != 0;
    if (stored) {
      // A snapshot is wrapped, never a plain list, and resets the counters.
      REQUIRE(stored->is_ext());
      CHECK(stored->as_ext().type == kDeltaSnapshotExtTag);
      CHECK(counters == std::vector<int64_t>{0, 0});
      ++snapshots;
    } else if (has_version) {
      CHECK(counters[0] < 3);
      ++deltas;
    }
    // Every checkpoint reads back what the plain reducer holds.
    StateSnapshot rebuilt =
        Must(delta->GetState(At("delta", *tuple.config.checkpoint_id)));
    StateSnapshot expected = Must(
        plain->GetState(At("plain", *plain_history[i].config.checkpoint_id)));
    CHECK(rebuilt.values == expected.values);
  }
  // 7 updates with frequency 3: snapshots after updates 3 and 6.
  CHECK(snapshots == 2);
  CHECK(deltas > snapshots);

  // A later run resumes from a delta checkpoint and keeps appending.
  RunOutcome again =
      Must(delta->Invoke(State{{"count", Value(-3)}}, Thread("delta")));
  CHECK(again.values.at("messages").as_array().size() == kTurns + 3);
}

TEST_CASE_TEMPLATE("delta channel: an overwrite stores a snapshot", H,
                   RUNTIME_HARNESSES) {
  H harness;
  StateGraph graph;
  graph.AddChannel("messages", ChannelSpec::Delta(AppendReducer(), 100))
      .AddNode("add",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"messages", Value(Value::Array{Value("x")})}};
               })
      .AddNode("reset",
               [](const State&, NodeContext&) -> NodeUpdate {
                 NodeUpdate update;
                 update.Overwrite("messages", Value(Value::Array{Value("r")}));
                 return update;
               })
      .AddEdge(kStart, "add")
      .AddEdge("add", "reset")
      .AddEdge("reset", kEnd);
  auto compiled = Must(graph.Compile({.checkpointer = &harness.store()}));
  RunOutcome outcome = Must(compiled->Invoke(
      State{{"messages", Value(Value::Array{Value("in")})}}, Thread("o")));
  CHECK(outcome.values.at("messages") == Value(Value::Array{Value("r")}));
  std::vector<CheckpointTuple> history = History(harness.store(), "o");
  REQUIRE(history.size() == 4);
  std::optional<Value> last = StoredMessages(history[0]);
  REQUIRE(last.has_value());
  CHECK(last->as_ext().type == kDeltaSnapshotExtTag);
  // The two steps before it stored no value (frequency 100).
  CHECK_FALSE(StoredMessages(history[1]).has_value());
  CHECK_FALSE(StoredMessages(history[2]).has_value());
  StateSnapshot middle =
      Must(compiled->GetState(At("o", *history[1].config.checkpoint_id)));
  CHECK(middle.values.at("messages") ==
        Value(Value::Array{Value("in"), Value("x")}));
}

TEST_CASE_TEMPLATE("delta channel: new input over discarded writes snapshots",
                   H, RUNTIME_HARNESSES) {
  H harness;
  // writer and boom run in one step; boom fails, so writer's message is
  // stored on the checkpoint but never applied.
  StateGraph graph;
  graph.AddChannel("messages", ChannelSpec::Delta(AppendReducer(), 100))
      .AddChannel("go", ChannelSpec::LastValue())
      .AddNode("writer",
               [](const State&, NodeContext&) -> NodeUpdate {
                 return State{{"messages", Value(Value::Array{Value("lost")})}};
               })
      .AddNode("boom",
               [](const State& state, NodeContext&) -> NodeUpdate {
                 if (state.at("go") == Value(true)) {
                   throw std::runtime_error("boom");
                 }
                 return {};
               })
      .AddEdge(kStart, "writer")
      .AddEdge(kStart, "boom")
      .AddEdge("writer", kEnd)
      .AddEdge("boom", kEnd);
  auto compiled = Must(graph.Compile(
      {.checkpointer = &harness.store(), .durability = Durability::kSync}));
  State first{{"messages", Value(Value::Array{Value("hello")})},
              {"go", Value(true)}};
  CHECK(compiled->Invoke(first, Thread("d")).status().IsAborted());
  // New input: the failed step's tasks are discarded, writer's write too.
  State second{{"go", Value(false)}};
  RunOutcome outcome = Must(compiled->Invoke(second, Thread("d")));
  CHECK(outcome.values.at("messages") ==
        Value(Value::Array{Value("hello"), Value("lost")}));
  // The input checkpoint itself reads without the discarded write.
  std::vector<CheckpointTuple> history = History(harness.store(), "d");
  const CheckpointTuple* input = nullptr;
  for (const CheckpointTuple& tuple : history) {
    if (MetaString(tuple, "source") == "input" && MetaStep(tuple) > -1) {
      input = &tuple;
    }
  }
  REQUIRE(input != nullptr);
  StateSnapshot at_input =
      Must(compiled->GetState(At("d", *input->config.checkpoint_id)));
  CHECK(at_input.values.at("messages") == Value(Value::Array{Value("hello")}));
}
