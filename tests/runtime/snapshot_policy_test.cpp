// The delta snapshot rule (runtime/snapshot_policy.h): the frequency policy
// is unchanged, the geometric threshold is max(min_bytes, ceil(ratio *
// snapshot bytes)), and StateGraph::Compile rejects a bad policy naming the
// channel.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

DeltaSnapshotCounters Counters(int64_t updates, int64_t write_bytes,
                               int64_t snapshot_bytes) {
  DeltaSnapshotCounters counters;
  counters.updates = updates;
  counters.supersteps = updates;
  counters.write_bytes = write_bytes;
  counters.snapshot_bytes = snapshot_bytes;
  return counters;
}

void ExpectRejected(ChannelSpec spec, const std::string& needle) {
  StateGraph graph;
  graph.AddChannel("msgs", std::move(spec))
      .AddNode("a", [](const State&, NodeContext&) { return NodeUpdate{}; })
      .AddEdge(kStart, "a")
      .AddEdge("a", kEnd);
  auto compiled = graph.Compile();
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.status().IsInvalidArgument());
  const std::string message = compiled.status().message();
  CHECK_MESSAGE(message.find("channel 'msgs'") != std::string::npos, message);
  CHECK_MESSAGE(message.find(needle) != std::string::npos, message);
}

}  // namespace

TEST_CASE("snapshot policy: the frequency rule counts updates only") {
  const SnapshotPolicy frequency = SnapshotPolicy::Frequency();
  CHECK(frequency.kind == SnapshotPolicy::Kind::kFrequency);
  CHECK_FALSE(SnapshotDue(frequency, 3, Counters(2, 1 << 30, 1)));
  CHECK(SnapshotDue(frequency, 3, Counters(3, 0, 0)));
  CHECK(SnapshotDue(frequency, 1, Counters(1, 0, 0)));
  // The default spec of a delta channel is the frequency policy.
  ChannelSpec delta = ChannelSpec::Delta(AppendReducer(), 7);
  CHECK(delta.snapshot_policy.kind == SnapshotPolicy::Kind::kFrequency);
  CHECK(delta.snapshot_frequency == 7);
}

TEST_CASE("snapshot policy: the geometric threshold") {
  const SnapshotPolicy geo = SnapshotPolicy::Geometric(1.0, 200);
  CHECK(geo.kind == SnapshotPolicy::Kind::kGeometric);
  // No snapshot yet (or a small one): min_bytes.
  CHECK(GeometricThresholdBytes(geo, 0) == 200);
  CHECK(GeometricThresholdBytes(geo, 150) == 200);
  // Then ratio x the last snapshot, rounded up.
  CHECK(GeometricThresholdBytes(geo, 212) == 212);
  CHECK(GeometricThresholdBytes(SnapshotPolicy::Geometric(0.5, 0), 421) == 211);
  CHECK(GeometricThresholdBytes(SnapshotPolicy::Geometric(2.5, 10), 1000) ==
        2500);
  // Saturates instead of overflowing.
  CHECK(GeometricThresholdBytes(SnapshotPolicy::Geometric(1e300, 0), 2) ==
        std::numeric_limits<int64_t>::max());

  CHECK_FALSE(SnapshotDue(geo, 0, Counters(3, 199, 0)));
  CHECK(SnapshotDue(geo, 0, Counters(4, 200, 0)));
  CHECK_FALSE(SnapshotDue(geo, 0, Counters(4, 211, 212)));
  CHECK(SnapshotDue(geo, 0, Counters(4, 212, 212)));
  // Updates are what a snapshot would capture: none, no snapshot, even
  // with a zero threshold.
  CHECK_FALSE(
      SnapshotDue(SnapshotPolicy::Geometric(1.0, 0), 0, Counters(0, 0, 0)));
  // The update count plays no part.
  CHECK_FALSE(SnapshotDue(geo, 0, Counters(1000, 100, 0)));

  ChannelSpec spec = ChannelSpec::Delta(
      AppendReducer(), SnapshotPolicy::Geometric(0.5), Value::MakeArray());
  CHECK(spec.kind == ChannelKind::kDelta);
  CHECK(spec.snapshot_frequency == 0);
  CHECK(spec.snapshot_policy.ratio == 0.5);
  CHECK(spec.snapshot_policy.min_bytes == kDefaultGeometricMinBytes);
  CHECK(spec.initial == Value::MakeArray());
}

TEST_CASE("snapshot policy: Compile rejects a bad policy naming the channel") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double ratio : {0.0, -1.0, nan, inf, -inf}) {
    CAPTURE(ratio);
    ExpectRejected(
        ChannelSpec::Delta(AppendReducer(), SnapshotPolicy::Geometric(ratio)),
        "geometric snapshot ratio must be a finite number > 0");
  }
  ExpectRejected(
      ChannelSpec::Delta(AppendReducer(), SnapshotPolicy::Geometric(1.0, -1)),
      "min_bytes must be >= 0, got -1");
  ChannelSpec both =
      ChannelSpec::Delta(AppendReducer(), SnapshotPolicy::Geometric());
  both.snapshot_frequency = 10;
  ExpectRejected(both, "snapshot_frequency (10) belongs to the frequency");
  // The frequency policy still needs its frequency.
  ExpectRejected(
      ChannelSpec::Delta(AppendReducer(), SnapshotPolicy::Frequency()),
      "snapshot_frequency must be >= 1, got 0");
  ChannelSpec unknown = ChannelSpec::Delta(AppendReducer(), 5);
  unknown.snapshot_policy.kind = static_cast<SnapshotPolicy::Kind>(9);
  ExpectRejected(unknown, "unknown snapshot policy kind 9");

  // Valid ones compile: a tiny ratio, min_bytes 0.
  for (const SnapshotPolicy& policy :
       {SnapshotPolicy::Geometric(1e-6, 0), SnapshotPolicy::Geometric(4.0)}) {
    StateGraph graph;
    graph.AddChannel("msgs", ChannelSpec::Delta(AppendReducer(), policy))
        .AddNode("a", [](const State&, NodeContext&) { return NodeUpdate{}; })
        .AddEdge(kStart, "a")
        .AddEdge("a", kEnd);
    CHECK(graph.Compile().ok());
  }
}
