#include "bench/conversation.h"

#include "bench/workload.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::bench {
namespace {

constexpr const char* kMessages = "messages";

// msgpack array header for `count` elements (the smallest form, as the
// canonical codec writes it), so that header + concatenated encodings ==
// EncodeMsgpack(array) without re-encoding the whole list every turn.
std::string ArrayHeader(size_t count) {
  if (count < 16) return std::string(1, static_cast<char>(0x90 | count));
  if (count <= 0xFFFF) {
    return {static_cast<char>(0xdc), static_cast<char>(count >> 8),
            static_cast<char>(count & 0xFF)};
  }
  return {static_cast<char>(0xdd), static_cast<char>(count >> 24),
          static_cast<char>((count >> 16) & 0xFF),
          static_cast<char>((count >> 8) & 0xFF),
          static_cast<char>(count & 0xFF)};
}

TypedValue Typed(std::string bytes) {
  return TypedValue{std::string(serde::kMsgpackType), std::move(bytes)};
}

Result<serde::Value> DecodeTyped(const TypedValue& typed,
                                 std::string_view what) {
  if (typed.type != serde::kMsgpackType) {
    return Status::InvalidArgument(std::string(what) + ": type " + typed.type);
  }
  return serde::DecodeMsgpack(typed.bytes);
}

// A stored value of the channel: a snapshot unwrapped, a plain list as is.
Result<serde::Value::Array> StoredList(const TypedValue& typed) {
  Result<serde::Value> stored = DecodeTyped(typed, kMessages);
  if (!stored.ok()) return stored.status();
  const serde::Value& outer = *stored;
  Result<serde::Value> inner =
      outer.is_ext() && outer.as_ext().type == kDeltaSnapshotExtTag
          ? serde::DecodeMsgpack(outer.as_ext().data)
          : stored;
  if (!inner.ok()) return inner.status();
  if (!inner->is_array()) {
    return Status::Corruption("bench: messages value is not a list");
  }
  return inner->as_array();
}

serde::Value Message(size_t turn, TextGenerator& text, size_t bytes) {
  serde::Value::Map message;
  message["role"] = serde::Value(turn % 2 == 1 ? "user" : "assistant");
  message["content"] = serde::Value(text.Text(bytes));
  return serde::Value(std::move(message));
}

serde::Value Pair(int64_t first, int64_t second) {
  return serde::Value(
      serde::Value::Array{serde::Value(first), serde::Value(second)});
}

// `geometric`: the byte counters of a kDeltaGeometric channel.
serde::Value Metadata(size_t turn, size_t since_snapshot,
                      const runtime::DeltaSnapshotCounters* geometric) {
  const auto since = static_cast<int64_t>(since_snapshot);
  serde::Value::Map counters;
  counters[kMessages] = Pair(since, since);
  serde::Value::Map metadata;
  metadata["source"] = serde::Value(turn == 0 ? "input" : "loop");
  metadata["step"] = serde::Value(static_cast<int64_t>(turn) - 1);
  metadata["parents"] = serde::Value::MakeMap();
  metadata["counters_since_delta_snapshot"] = serde::Value(std::move(counters));
  if (geometric != nullptr) {
    serde::Value::Map bytes;
    bytes[kMessages] = Pair(geometric->write_bytes, geometric->snapshot_bytes);
    metadata["delta_snapshot_bytes"] = serde::Value(std::move(bytes));
  }
  return serde::Value(std::move(metadata));
}

// Whether turn `turn` of a delta mode stores a snapshot. `counters` holds
// this turn's update.
bool SnapshotTurn(const ConversationSpec& spec, size_t turn,
                  const runtime::DeltaSnapshotCounters& counters) {
  if (turn == 0) return true;  // the root's empty list.
  if (spec.mode == Persistence::kDeltaGeometric) {
    return runtime::SnapshotDue(spec.geometric, 0, counters);
  }
  return spec.snapshot_every > 0 && turn % spec.snapshot_every == 0;
}

}  // namespace

Status WriteConversation(Checkpointer& store, const ConversationSpec& spec,
                         uint64_t* message_bytes_total,
                         ConversationStats* stats) {
  TextGenerator text(42);
  std::string body;  // the encoded messages so far, concatenated.
  ConversationStats counted;
  size_t since_snapshot = 0;
  runtime::DeltaSnapshotCounters counters;  // kDeltaGeometric.
  const bool geometric = spec.mode == Persistence::kDeltaGeometric;
  for (size_t turn = 0; turn <= spec.turns; ++turn) {
    CheckpointConfig config{spec.thread, "", {}};
    if (turn > 0) {
      config.checkpoint_id = CheckpointId(turn - 1);
      const std::string message =
          serde::EncodeMsgpack(Message(turn, text, spec.message_bytes));
      counted.message_bytes += message.size();
      body += message;
      ++counters.updates;
      ++counters.supersteps;
      counters.write_bytes += static_cast<int64_t>(message.size());
      RP_RETURN_IF_ERROR(
          store.PutWrites(config, {ChannelWrite{kMessages, Typed(message)}},
                          "turn-" + std::to_string(turn)));
    }
    Checkpoint checkpoint;
    checkpoint.id = CheckpointId(turn);
    checkpoint.ts = "2024-01-01T00:00:00.000000+00:00";
    checkpoint.channel_versions[kMessages] = static_cast<int64_t>(turn + 1);
    const std::string list = ArrayHeader(turn) + body;
    if (spec.mode == Persistence::kFullSnapshots) {
      checkpoint.channel_values[kMessages] = Typed(list);
      ++counted.snapshots;
    } else if (SnapshotTurn(spec, turn, counters)) {
      TypedValue snapshot = Typed(serde::EncodeMsgpack(
          serde::Value(serde::Ext{kDeltaSnapshotExtTag, list})));
      counters = runtime::DeltaSnapshotCounters{};
      counters.snapshot_bytes = static_cast<int64_t>(snapshot.bytes.size());
      checkpoint.channel_values[kMessages] = std::move(snapshot);
      ++counted.snapshots;
      since_snapshot = 0;
    } else {
      ++since_snapshot;
    }
    checkpoint.versions_seen["agent"][kMessages] = static_cast<int64_t>(turn);
    RP_RETURN_IF_ERROR(store
                           .Put(config, checkpoint,
                                Metadata(turn, since_snapshot,
                                         geometric ? &counters : nullptr),
                                {{kMessages, static_cast<int64_t>(turn + 1)}})
                           .status());
  }
  counted.replay_writes = since_snapshot;
  if (message_bytes_total != nullptr) {
    *message_bytes_total = counted.message_bytes;
  }
  if (stats != nullptr) *stats = counted;
  return Status::OK();
}

Result<serde::Value::Array> LoadConversation(Checkpointer& store,
                                             const std::string& thread) {
  const CheckpointConfig latest{thread, "", {}};
  RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple,
                      store.GetTuple(latest));
  if (!tuple) return Status::NotFound("bench: no checkpoint in " + thread);
  const auto stored = tuple->checkpoint.channel_values.find(kMessages);
  if (stored != tuple->checkpoint.channel_values.end()) {
    return StoredList(stored->second);
  }
  RP_ASSIGN_OR_RETURN(DeltaHistory history,
                      store.GetDeltaChannelHistory(tuple->config, {kMessages}));
  const DeltaChannelHistory& channel = history[kMessages];
  serde::Value::Array messages;
  if (channel.seed) {
    RP_ASSIGN_OR_RETURN(messages, StoredList(*channel.seed));
  }
  for (const PendingWrite& write : channel.writes) {
    RP_ASSIGN_OR_RETURN(serde::Value message,
                        DecodeTyped(write.value, "messages write"));
    messages.push_back(std::move(message));  // the append reducer.
  }
  return messages;
}

}  // namespace rockpoint::bench
