// SnapshotPolicy: when a delta channel (runtime/channels.h) stores its full
// value as a snapshot, besides the snapshots the persistence rules force (an
// Overwrite, or a checkpoint that does not follow from its parent's stored
// writes; see runtime/loop_state.h).
//
//   kFrequency  every ChannelSpec::snapshot_frequency updates since the last
//               snapshot: LangGraph's rule and the default. For a value
//               that grows with every update (a message list) the snapshots
//               of N updates total O(N^2 / K) bytes.
//   kGeometric  size-proportional: when the encoded bytes of the writes
//               applied since the last snapshot reach
//               max(min_bytes, ratio * encoded bytes of that snapshot).
//               For a value that grows by its writes, each snapshot is then
//               at least (1 + ratio) times the previous one, so all
//               snapshots together total at most about (1 + 1 / ratio)
//               times the latest one: O(N) bytes. A read replays at most
//               about max(min_bytes, ratio * state size) bytes of writes.
//
// Byte counts are of the stored encodings: a write's
// EncodeMsgpack(write) (what put_writes stores), a snapshot's stored value
// EncodeMsgpack(Ext{kDeltaSnapshotExtTag, EncodeMsgpack(value)}).
//
// Header-only, without runtime dependencies, so that the bench's storage
// study applies exactly this rule (bench/conversation.cpp).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace rockpoint::runtime {

// Default SnapshotPolicy::min_bytes: one 4 KiB page of writes.
inline constexpr int64_t kDefaultGeometricMinBytes = 4096;

struct SnapshotPolicy {
  enum class Kind : uint8_t {
    kFrequency = 0,  // every snapshot_frequency updates (LangGraph's).
    kGeometric = 1,  // when write bytes reach ratio x the last snapshot.
  };
  // Default: kFrequency.
  Kind kind = Kind::kFrequency;
  // kGeometric: write bytes since the last snapshot, as a multiple of that
  // snapshot's bytes, that trigger the next one. Smaller: more snapshots,
  // shorter replays. Must be finite and > 0. Default: 1.0.
  double ratio = 1.0;
  // kGeometric: the threshold never goes below this many write bytes, so a
  // small value (or none stored yet) does not snapshot at every update.
  // Must be >= 0. Default: kDefaultGeometricMinBytes (4096).
  int64_t min_bytes = kDefaultGeometricMinBytes;

  // LangGraph's rule; the frequency is ChannelSpec::snapshot_frequency.
  static SnapshotPolicy Frequency() { return SnapshotPolicy{}; }
  static SnapshotPolicy Geometric(
      double ratio = 1.0, int64_t min_bytes = kDefaultGeometricMinBytes) {
    return SnapshotPolicy{Kind::kGeometric, ratio, min_bytes};
  }
};

// What a delta channel counted since its last snapshot. Persisted in
// checkpoint metadata (runtime/FORMAT.md): updates and supersteps in
// "counters_since_delta_snapshot", the byte counts (kGeometric channels) in
// "delta_snapshot_bytes".
struct DeltaSnapshotCounters {
  int64_t updates = 0;         // supersteps (or updates) that changed it.
  int64_t supersteps = 0;      // supersteps of its graph.
  int64_t write_bytes = 0;     // encoded bytes of the writes applied.
  int64_t snapshot_bytes = 0;  // encoded bytes of the last snapshot; 0: none.
};

// kGeometric: the write bytes that trigger the next snapshot.
inline int64_t GeometricThresholdBytes(const SnapshotPolicy& policy,
                                       int64_t snapshot_bytes) {
  const double scaled = policy.ratio * static_cast<double>(snapshot_bytes);
  // Not (scaled < max) also catches NaN: such a policy never snapshots.
  if (!(scaled < static_cast<double>(std::numeric_limits<int64_t>::max()))) {
    return std::numeric_limits<int64_t>::max();
  }
  const auto proportional = static_cast<int64_t>(std::ceil(scaled));
  return proportional > policy.min_bytes ? proportional : policy.min_bytes;
}

// Whether the policy asks for a snapshot now. `snapshot_frequency` is
// ChannelSpec::snapshot_frequency (kFrequency only). kGeometric asks only
// after at least one update.
inline bool SnapshotDue(const SnapshotPolicy& policy,
                        int64_t snapshot_frequency,
                        const DeltaSnapshotCounters& counters) {
  switch (policy.kind) {
    case SnapshotPolicy::Kind::kFrequency:
      return counters.updates >= snapshot_frequency;
    case SnapshotPolicy::Kind::kGeometric:
      return counters.updates > 0 &&
             counters.write_bytes >=
                 GeometricThresholdBytes(policy, counters.snapshot_bytes);
  }
  return false;
}

// "" if the policy (with the channel's snapshot_frequency) is valid, else
// what is wrong, naming the field.
inline std::string CheckSnapshotPolicy(const SnapshotPolicy& policy,
                                       int64_t snapshot_frequency) {
  switch (policy.kind) {
    case SnapshotPolicy::Kind::kFrequency:
      if (snapshot_frequency < 1) {
        return "snapshot_frequency must be >= 1, got " +
               std::to_string(snapshot_frequency);
      }
      return "";
    case SnapshotPolicy::Kind::kGeometric: {
      if (!std::isfinite(policy.ratio) || policy.ratio <= 0) {
        char text[64];
        std::snprintf(text, sizeof(text), "%g", policy.ratio);
        return std::string(
                   "geometric snapshot ratio must be a finite "
                   "number > 0, got ") +
               text;
      }
      if (policy.min_bytes < 0) {
        return "geometric snapshot min_bytes must be >= 0, got " +
               std::to_string(policy.min_bytes);
      }
      if (snapshot_frequency != 0) {
        return "snapshot_frequency (" + std::to_string(snapshot_frequency) +
               ") belongs to the frequency policy; leave it 0 with a "
               "geometric snapshot policy";
      }
      return "";
    }
  }
  return "unknown snapshot policy kind " +
         std::to_string(static_cast<int>(policy.kind));
}

}  // namespace rockpoint::runtime
