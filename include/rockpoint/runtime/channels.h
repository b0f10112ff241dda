// Channels: how the runtime stores a graph's state between supersteps.
//
// Every state key is a channel. A channel receives the writes of one
// superstep together (in task order) and decides its new value:
//   - last value: exactly one write per step replaces the value;
//   - reducer:    each write is folded in with a binary reducer
//                 (value = reducer(value, write)), e.g. AppendReducer();
//   - delta:      a reducer channel whose checkpoints store only each step's
//                 writes; the runtime stores the full value as a snapshot
//                 when its SnapshotPolicy says so (every
//                 `snapshot_frequency` updates by default, or
//                 size-proportionally: runtime/snapshot_policy.h) and after
//                 an Overwrite.
// The runtime also keeps internal channels (the graph input, the per-node
// triggers "branch:to:<node>", the Send list "__pregel_tasks"); those are
// ephemeral: a value lives for one step.
//
// Stored forms (persisted; see runtime/FORMAT.md; the tags are
// rockpoint/stored_forms.h's):
//   - a channel value or write is TypedValue{"msgpack", EncodeMsgpack(v)};
//   - a delta snapshot is the Ext {kDeltaSnapshotExtTag, EncodeMsgpack(v)};
//   - an overwrite write is the Ext {kOverwriteExtTag, EncodeMsgpack(v)}.
//
// Thread-safety: ChannelSpec is immutable once built and may be shared;
// a ChannelState is a plain value owned by one superstep loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/runtime/snapshot_policy.h"
#include "rockpoint/status.h"
#include "rockpoint/stored_forms.h"
#include "rockpoint/types.h"
#include "rockpoint/value.h"

namespace rockpoint::runtime {

using serde::Value;
// The state handed to a node: channel name -> current value. Channels
// without a value are absent.
using State = Value::Map;

// The persisted Ext tags of the stored forms (rockpoint/stored_forms.h).
using rockpoint::kDeltaSnapshotExtTag;
using rockpoint::kOverwriteExtTag;

// Folds one write into the current value. Must be deterministic: replaying
// the stored writes through it rebuilds a delta channel.
using BinaryReducer =
    std::function<Value(const Value& current, const Value& write)>;

enum class ChannelKind {
  kLastValue,
  kReducer,
  kDelta,
  kEphemeral,  // internal: a value lives for one step.
  kTopic,      // internal: the writes of one step, as an array.
};

struct ChannelSpec {
  ChannelKind kind = ChannelKind::kLastValue;
  // kReducer, kDelta: the fold. Required for those kinds.
  BinaryReducer reducer;
  // The value before the first write. Default: none (the first write of a
  // reducer channel becomes its value without calling the reducer).
  std::optional<Value> initial;
  // kDelta with SnapshotPolicy::Kind::kFrequency: store a full snapshot
  // after this many updates (steps that wrote the channel) since the last
  // snapshot. Must be >= 1 then, and 0 with any other policy. Default: 0.
  int64_t snapshot_frequency = 0;
  // kDelta: when to store a snapshot (runtime/snapshot_policy.h). Checked
  // by StateGraph::Compile (InvalidArgument naming the channel). Default:
  // kFrequency (LangGraph's rule, with snapshot_frequency).
  SnapshotPolicy snapshot_policy;

  static ChannelSpec LastValue(std::optional<Value> initial = std::nullopt);
  static ChannelSpec Reducer(BinaryReducer reducer,
                             std::optional<Value> initial = std::nullopt);
  // A delta channel snapshotting every `snapshot_frequency` updates.
  static ChannelSpec Delta(BinaryReducer reducer, int64_t snapshot_frequency,
                           std::optional<Value> initial = std::nullopt);
  // A delta channel snapshotting by `policy`, e.g.
  // Delta(AppendReducer(), SnapshotPolicy::Geometric()).
  static ChannelSpec Delta(BinaryReducer reducer, SnapshotPolicy policy,
                           std::optional<Value> initial = std::nullopt);
};

// Arrays concatenate; a non-array write is appended; null current is [].
// A channel with this reducer appends in place: a write (live or replayed)
// costs its own size, not the value's.
BinaryReducer AppendReducer();
// Integer (or double) sum; null current counts as 0.
BinaryReducer AddReducer();

// A write that replaces a reducer channel's value instead of folding.
Value MakeOverwrite(const Value& value);
bool IsOverwrite(const Value& value);

// The full value of a delta channel, wrapped so a reader can tell a snapshot
// from a plain value.
Value WrapSnapshot(const Value& value);
// A stored channel value: a snapshot unwrapped, anything else as is.
// Corruption if a snapshot's payload does not decode.
Result<Value> UnwrapStoredValue(const Value& stored);

// Value <-> TypedValue{"msgpack", ...}.
TypedValue EncodeTyped(const Value& value);
// InvalidArgument for another serializer type, Corruption for bad bytes;
// `what` names the value in the message.
Result<Value> DecodeTyped(const TypedValue& typed, std::string_view what);

// The value of one channel during a run.
class ChannelState {
 public:
  explicit ChannelState(const ChannelSpec* spec);

  const ChannelSpec& spec() const { return *spec_; }
  bool has_value() const { return value_.has_value(); }
  // REQUIRES: has_value().
  const Value& value() const { return *value_; }

  // Applies one step's writes in order. Returns whether the channel changed
  // (its version must advance). InvalidArgument when a last-value channel
  // gets more than one write, or a reducer throws.
  Result<bool> Update(std::string_view name, const std::vector<Value>& writes);
  // End of step for ephemeral and topic channels not written in it: drops
  // the value. Returns whether there was one.
  bool ClearIfEphemeral();
  // Replaces the value (restoring from storage).
  void Restore(Value value) { value_ = std::move(value); }
  // Updates since the last snapshot included an Overwrite.
  bool overwritten() const { return overwritten_; }
  void clear_overwritten() { overwritten_ = false; }

 private:
  const ChannelSpec* spec_;
  std::optional<Value> value_;
  bool overwritten_ = false;
};

}  // namespace rockpoint::runtime
