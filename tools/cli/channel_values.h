// The value of every channel of a checkpoint as `show` and `diff` present
// it: a stored value decoded and unwrapped (runtime_forms.h), or, for a
// delta channel that stores none at this checkpoint, the value rebuilt
// from its delta history (get_delta_channel_history: seed + writes, folded
// as list append). With PayloadView::kRaw nothing is decoded or rebuilt.
//
// Thread-safety: none; one command at a time.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "formats/json_text.h"
#include "rockpoint/checkpointer.h"
#include "tools/cli/value_json.h"

namespace rockpoint::cli {

struct ChannelValue {
  // The stored payload, or nullopt when the checkpoint stores none.
  std::optional<TypedValue> stored;
  // The channel's full value when known: stored and decoded (snapshot
  // unwrapped), or rebuilt.
  std::optional<Value> value;
  // How the value was obtained: "value", "delta snapshot", "rebuilt: seed
  // + N writes", "not rebuilt: ..." or "" (nothing stored, not a delta).
  std::string source;
  // The delta history's write count, when it was read.
  std::optional<size_t> delta_writes;
};

// Every channel of tuple.checkpoint.channel_versions. Delta channels (see
// DeltaChannels) without a stored value are rebuilt with one history read.
Result<std::map<std::string, ChannelValue>> ResolveChannels(
    Checkpointer& store, const CheckpointTuple& tuple, PayloadView view);

// JSON of a channel: {"type": T, "value": V} for a known value, the stored
// payload's PayloadToJson otherwise, null when there is neither.
formats::Json ChannelValueToJson(const ChannelValue& channel, PayloadView view);
// The same as a table cell: the value's DebugString, the payload's
// PayloadToText, or "-".
std::string ChannelValueToText(const ChannelValue& channel, PayloadView view);

}  // namespace rockpoint::cli
