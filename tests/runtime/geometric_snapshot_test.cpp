// The geometric (size-proportional) snapshot policy end to end: a delta
// channel snapshots exactly when its write bytes since the last snapshot
// reach max(min_bytes, ratio x that snapshot's bytes); the byte counters
// are persisted (metadata "delta_snapshot_bytes") so a later run, a resume
// after a failure, or a run over checkpoints written without them continues
// the policy; and every checkpoint reads the same state as under the
// frequency policy and a plain reducer, through resume, replay and fork.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <map>
#include <set>

#include "rockpoint/msgpack_codec.h"
#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

// The n-th message: 50 characters, so its write [message] encodes to 53
// bytes and it adds 52 to the encoded list.
std::string Message(int64_t n) {
  std::string text = "m" + std::to_string(10000 + n).substr(1);
  return text + std::string(50 - text.size(), 'x');
}

Value MessageWrite(int64_t n) { return Value(Value::Array{Value(Message(n))}); }

// START -> chat, looping while count < limit; chat appends Message(count+1)
// and throws once when count == *fail_at.
StateGraph TalkGraph(ChannelSpec messages,
                     std::atomic<int64_t>* fail_at = nullptr) {
  StateGraph graph;
  graph.AddChannel("messages", std::move(messages))
      .AddChannel("count", ChannelSpec::Reducer(AddReducer(), Value(0)))
      .AddChannel("limit", ChannelSpec::LastValue())
      .AddNode("chat",
               [fail_at](const State& state, NodeContext&) -> NodeUpdate {
                 const int64_t n = state.at("count").as_int();
                 if (fail_at != nullptr && fail_at->load() == n) {
                   fail_at->store(-1);
                   throw std::runtime_error("chat failed once");
                 }
                 NodeUpdate update;
                 update.Write("messages", MessageWrite(n + 1));
                 update.Write("count", Value(1));
                 return update;
               })
      .AddEdge(kStart, "chat")
      .AddConditionalEdges("chat",
                           [](const State& state) -> Route {
                             return state.at("count").as_int() <
                                            state.at("limit").as_int()
                                        ? Route("chat")
                                        : Route(kEnd);
                           },
                           {"chat", std::string(kEnd)});
  return graph;
}

ChannelSpec Geometric(double ratio, int64_t min_bytes) {
  return ChannelSpec::Delta(AppendReducer(),
                            SnapshotPolicy::Geometric(ratio, min_bytes),
                            Value::MakeArray());
}

RunConfig Run(const std::string& thread) {
  RunConfig config = Thread(thread);
  config.recursion_limit = 1000;
  return config;
}

RunConfig RunAt(const std::string& thread, const std::string& checkpoint_id) {
  RunConfig config = Run(thread);
  config.checkpoint_id = checkpoint_id;
  return config;
}

State Limit(int64_t limit) { return State{{"limit", Value(limit)}}; }

// What the policy should do, computed from the rule in FORMAT.md: the
// message counts whose checkpoint stores a snapshot, and per count the
// persisted [write bytes, snapshot bytes] and updates since the snapshot.
struct Expected {
  std::set<int64_t> snapshots;
  std::map<int64_t, std::vector<int64_t>> bytes;
  std::map<int64_t, int64_t> updates;
};

// Messages 1..turns, the counters starting at zero after message `start`.
Expected Simulate(const SnapshotPolicy& policy, int64_t turns,
                  int64_t start = 0) {
  Expected out;
  Value::Array list;
  for (int64_t n = 1; n <= start; ++n) list.push_back(Value(Message(n)));
  int64_t write_bytes = 0, snapshot_bytes = 0, updates = 0;
  out.bytes[start] = {0, 0};
  out.updates[start] = 0;
  for (int64_t n = start + 1; n <= turns; ++n) {
    list.push_back(Value(Message(n)));
    write_bytes += serde::EncodeMsgpack(MessageWrite(n)).size();
    ++updates;
    const int64_t threshold = std::max<int64_t>(
        policy.min_bytes,
        static_cast<int64_t>(std::ceil(policy.ratio * snapshot_bytes)));
    if (write_bytes >= threshold) {
      snapshot_bytes = serde::EncodeMsgpack(
                           Value(serde::Ext{kDeltaSnapshotExtTag,
                                            serde::EncodeMsgpack(Value(list))}))
                           .size();
      write_bytes = 0;
      updates = 0;
      out.snapshots.insert(n);
    }
    out.bytes[n] = {write_bytes, snapshot_bytes};
    out.updates[n] = updates;
  }
  return out;
}

int64_t CountOf(const CheckpointTuple& tuple) {
  auto it = tuple.checkpoint.channel_values.find("count");
  if (it == tuple.checkpoint.channel_values.end()) return 0;
  return Must(serde::DecodeMsgpack(it->second.bytes)).as_int();
}

std::vector<int64_t> MetaPair(const CheckpointTuple& tuple,
                              std::string_view key) {
  const Value* all = tuple.metadata.Find(key);
  REQUIRE_MESSAGE(all != nullptr, key);
  const Value* pair = all->Find("messages");
  REQUIRE(pair != nullptr);
  REQUIRE(pair->is_array());
  REQUIRE(pair->as_array().size() == 2);
  return {pair->as_array()[0].as_int(), pair->as_array()[1].as_int()};
}

// Checks every checkpoint of `thread` against `expected`: a stored
// "messages" value (always a tagged snapshot) exactly at the expected
// counts, and the persisted counters of each.
void CheckThread(Checkpointer& store, const std::string& thread,
                 const Expected& expected) {
  std::set<int64_t> snapshots;
  std::vector<CheckpointTuple> history = History(store, thread);
  REQUIRE(!history.empty());
  for (const CheckpointTuple& tuple : history) {
    const int64_t count = CountOf(tuple);
    CAPTURE(count);
    CAPTURE(MetaStep(tuple));
    auto stored = tuple.checkpoint.channel_values.find("messages");
    if (stored != tuple.checkpoint.channel_values.end()) {
      Value value = Must(serde::DecodeMsgpack(stored->second.bytes));
      REQUIRE(value.is_ext());
      CHECK(value.as_ext().type == kDeltaSnapshotExtTag);
      snapshots.insert(count);
    }
    REQUIRE(expected.bytes.count(count) == 1);
    CHECK(MetaPair(tuple, "delta_snapshot_bytes") == expected.bytes.at(count));
    CHECK(MetaPair(tuple, "counters_since_delta_snapshot")[0] ==
          expected.updates.at(count));
  }
  CHECK(snapshots == expected.snapshots);
}

// The loop checkpoint of `thread` whose count is `count` (the newest one).
std::string LoopCheckpointAt(Checkpointer& store, const std::string& thread,
                             int64_t count) {
  for (const CheckpointTuple& tuple : History(store, thread)) {
    if (MetaString(tuple, "source") == "loop" && CountOf(tuple) == count) {
      return *tuple.config.checkpoint_id;
    }
  }
  FAIL("no loop checkpoint with count " << count);
  return "";
}

}  // namespace

TEST_CASE_TEMPLATE(
    "geometric snapshots: exactly when write bytes reach the "
    "threshold",
    H, RUNTIME_HARNESSES) {
  H harness;
  const SnapshotPolicy policy = SnapshotPolicy::Geometric(1.0, 200);
  // 53-byte writes, min 200: the 4th write snapshots 4 messages (212
  // bytes), then each snapshot waits for as many bytes as it holds: 8
  // messages (421 bytes), 16 (839), 32 (1671).
  const Expected expected = Simulate(policy, 40);
  CHECK(expected.snapshots == std::set<int64_t>{4, 8, 16, 32});
  CHECK(expected.bytes.at(32) == std::vector<int64_t>{0, 1671});
  CHECK(expected.bytes.at(40) == std::vector<int64_t>{8 * 53, 1671});

  auto geo = Must(
      TalkGraph(ChannelSpec::Delta(AppendReducer(), policy, Value::MakeArray()))
          .Compile({.checkpointer = &harness.store(),
                    .durability = Durability::kSync}));
  RunOutcome outcome = Must(geo->Invoke(Limit(40), Run("geo")));
  CHECK(outcome.values.at("messages").as_array().size() == 40);
  CheckThread(harness.store(), "geo", expected);

  // Another ratio and minimum follow the same rule.
  const SnapshotPolicy half = SnapshotPolicy::Geometric(0.5, 100);
  auto geo_half = Must(TalkGraph(Geometric(half.ratio, half.min_bytes))
                           .Compile({.checkpointer = &harness.store()}));
  Must(geo_half->Invoke(Limit(40), Run("half")));
  const Expected expected_half = Simulate(half, 40);
  CHECK(expected_half.snapshots.size() > expected.snapshots.size());
  CheckThread(harness.store(), "half", expected_half);

  // The frequency policy writes no byte counters (its metadata is as
  // before).
  auto frequency =
      Must(TalkGraph(ChannelSpec::Delta(AppendReducer(), 3, Value::MakeArray()))
               .Compile({.checkpointer = &harness.store()}));
  Must(frequency->Invoke(Limit(5), Run("freq")));
  for (const CheckpointTuple& tuple : History(harness.store(), "freq")) {
    CHECK(tuple.metadata.Find("delta_snapshot_bytes") == nullptr);
    CHECK(tuple.metadata.Find("counters_since_delta_snapshot") != nullptr);
  }
}

TEST_CASE_TEMPLATE("geometric snapshots: a resumed run continues the counters",
                   H, RUNTIME_HARNESSES) {
  const SnapshotPolicy policy = SnapshotPolicy::Geometric(1.0, 200);
  const Expected expected = Simulate(policy, 40);
  for (Durability mode : {Durability::kSync, Durability::kAsync}) {
    CAPTURE(static_cast<int>(mode));
    H harness;
    std::atomic<int64_t> fail_at{10};
    auto graph = Must(
        TalkGraph(Geometric(1.0, 200), &fail_at)
            .Compile({.checkpointer = &harness.store(), .durability = mode}));

    // A later run on the thread: 6 messages, then on to 40. Without the
    // stored byte counters the second run would snapshot at 10, not 8.
    Must(graph->Invoke(Limit(6), Run("later")));
    CheckThread(harness.store(), "later", Simulate(policy, 6));
    fail_at.store(-1);
    RunOutcome later = Must(graph->Invoke(Limit(40), Run("later")));
    CHECK(later.values.at("messages").as_array().size() == 40);
    CheckThread(harness.store(), "later", expected);

    // A failure after 10 messages, then Continue.
    fail_at.store(10);
    CHECK(graph->Invoke(Limit(40), Run("failed")).status().IsAborted());
    CHECK(fail_at.load() == -1);
    RunOutcome resumed = Must(graph->Continue(Run("failed")));
    CHECK(resumed.values.at("messages").as_array().size() == 40);
    CheckThread(harness.store(), "failed", expected);
  }
}

TEST_CASE_TEMPLATE(
    "geometric snapshots: checkpoints without byte counters "
    "restart them at zero",
    H, RUNTIME_HARNESSES) {
  H harness;
  // Six messages under the frequency policy (no snapshot yet, no byte
  // counters), then the same thread under the geometric policy.
  auto frequency = Must(
      TalkGraph(ChannelSpec::Delta(AppendReducer(), 100, Value::MakeArray()))
          .Compile({.checkpointer = &harness.store()}));
  Must(frequency->Invoke(Limit(6), Run("t")));
  auto geo = Must(TalkGraph(Geometric(1.0, 200))
                      .Compile({.checkpointer = &harness.store()}));
  RunOutcome outcome = Must(geo->Invoke(Limit(40), Run("t")));
  CHECK(outcome.values.at("messages").as_array().size() == 40);

  const Expected expected =
      Simulate(SnapshotPolicy::Geometric(1.0, 200), 40, /*start=*/6);
  CHECK(expected.snapshots == std::set<int64_t>{10, 20, 40});
  std::set<int64_t> snapshots;
  for (const CheckpointTuple& tuple : History(harness.store(), "t")) {
    const int64_t count = CountOf(tuple);
    if (tuple.metadata.Find("delta_snapshot_bytes") == nullptr) {
      CHECK(count <= 6);  // written by the frequency graph.
      continue;
    }
    CAPTURE(count);
    CHECK(MetaPair(tuple, "delta_snapshot_bytes") == expected.bytes.at(count));
    if (tuple.checkpoint.channel_values.count("messages") != 0) {
      snapshots.insert(count);
    }
  }
  CHECK(snapshots == expected.snapshots);
}

TEST_CASE_TEMPLATE(
    "geometric snapshots: the same state as the frequency "
    "policy through resume, replay and fork",
    H, RUNTIME_HARNESSES) {
  H harness;
  const std::vector<std::pair<std::string, ChannelSpec>> kinds = {
      {"geo", Geometric(1.0, 200)},
      {"freq", ChannelSpec::Delta(AppendReducer(), 3, Value::MakeArray())},
      {"plain", ChannelSpec::Reducer(AppendReducer(), Value::MakeArray())},
  };
  std::vector<std::unique_ptr<CompiledGraph>> graphs;
  for (const auto& [thread, spec] : kinds) {
    graphs.push_back(Must(TalkGraph(spec).Compile(
        {.checkpointer = &harness.store(), .durability = Durability::kSync})));
  }
  for (size_t k = 0; k < kinds.size(); ++k) {
    const std::string& thread = kinds[k].first;
    CompiledGraph& graph = *graphs[k];
    Must(graph.Invoke(Limit(12), Run(thread)));  // first run
    Must(graph.Invoke(Limit(30), Run(thread)));  // a later run resumes
    // Replay from the checkpoint after 9 messages (its limit is 12).
    RunOutcome replayed = Must(graph.Continue(
        RunAt(thread, LoopCheckpointAt(harness.store(), thread, 9))));
    CHECK(replayed.values.at("messages").as_array().size() == 12);
    // Fork the checkpoint after 20 messages, update it as chat, continue.
    Must(graph.ForkState(
        RunAt(thread, LoopCheckpointAt(harness.store(), thread, 20))));
    Must(graph.UpdateState(
        Run(thread), State{{"messages", Value(Value::Array{Value("edit")})}},
        "chat"));
    RunOutcome forked = Must(graph.Continue(Run(thread)));
    CHECK(forked.values.at("messages").as_array().size() == 31);
  }

  std::vector<std::vector<CheckpointTuple>> histories;
  for (const auto& [thread, unused] : kinds) {
    histories.push_back(History(harness.store(), thread));
  }
  REQUIRE(histories[0].size() == histories[1].size());
  REQUIRE(histories[0].size() == histories[2].size());
  int geo_snapshots = 0;
  for (size_t i = 0; i < histories[0].size(); ++i) {
    CAPTURE(i);
    std::vector<State> states;
    for (size_t k = 0; k < kinds.size(); ++k) {
      states.push_back(
          Must(graphs[k]->GetState(RunAt(
                   kinds[k].first, *histories[k][i].config.checkpoint_id)))
              .values);
    }
    CHECK(states[0] == states[2]);
    CHECK(states[1] == states[2]);
    if (histories[0][i].checkpoint.channel_values.count("messages") != 0) {
      ++geo_snapshots;
    }
  }
  // Fewer snapshots than every third update, more than none.
  CHECK(geo_snapshots > 0);
  int freq_snapshots = 0;
  for (const CheckpointTuple& tuple : histories[1]) {
    freq_snapshots += tuple.checkpoint.channel_values.count("messages");
  }
  CHECK(geo_snapshots < freq_snapshots);
}
