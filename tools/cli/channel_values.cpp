// ResolveChannels: stored values unwrapped, delta channels rebuilt.
#include "tools/cli/channel_values.h"

#include <vector>

#include "formats/json_text.h"
#include "rockpoint/msgpack_codec.h"
#include "tools/cli/readable_values.h"
#include "tools/cli/runtime_forms.h"

namespace rockpoint::cli {
namespace {

std::string Writes(size_t n) {
  return std::to_string(n) + (n == 1 ? " write" : " writes");
}

// Fills `channel` from one channel's delta history.
void Rebuild(const DeltaChannelHistory& history, ChannelValue& channel) {
  channel.delta_writes = history.writes.size();
  std::optional<Value> seed;
  if (history.seed) {
    auto decoded = DecodePayload(*history.seed);
    if (!decoded) {
      channel.source = "not rebuilt: the seed does not decode";
      return;
    }
    seed = UnwrapRuntimeForm(std::move(*decoded)).value;
  }
  std::vector<Value> writes;
  for (const PendingWrite& write : history.writes) {
    auto decoded = DecodePayload(write.value);
    if (!decoded) {
      channel.source = "not rebuilt: a write does not decode";
      return;
    }
    writes.push_back(std::move(*decoded));
  }
  const std::string parts =
      (seed ? "seed + " : "no seed, ") + Writes(writes.size());
  channel.value = FoldAppend(seed, writes);
  channel.source = channel.value
                       ? "rebuilt: " + parts + " (list append)"
                       : "not rebuilt: unknown reducer (" + parts + ")";
}

}  // namespace

Result<std::map<std::string, ChannelValue>> ResolveChannels(
    Checkpointer& store, const CheckpointTuple& tuple, PayloadView view) {
  const Checkpoint& checkpoint = tuple.checkpoint;
  const std::set<std::string> deltas = DeltaChannels(tuple.metadata);
  std::map<std::string, ChannelValue> channels;
  std::vector<std::string> rebuild;
  for (const auto& [name, version] : checkpoint.channel_versions) {
    ChannelValue& channel = channels[name];
    auto stored = checkpoint.channel_values.find(name);
    if (stored != checkpoint.channel_values.end()) {
      channel.stored = stored->second;
      channel.source = "value";
      if (view == PayloadView::kRaw) continue;
      if (auto decoded = DecodePayload(stored->second)) {
        Unwrapped unwrapped = UnwrapRuntimeForm(std::move(*decoded));
        if (unwrapped.form != formats::StoredForm::kPlain) {
          channel.source = formats::StoredFormName(unwrapped.form);
        }
        channel.value = std::move(unwrapped.value);
      }
    } else if (view == PayloadView::kDecoded && deltas.contains(name)) {
      rebuild.push_back(name);
    }
  }
  if (rebuild.empty()) return channels;
  RP_ASSIGN_OR_RETURN(DeltaHistory histories,
                      store.GetDeltaChannelHistory(tuple.config, rebuild));
  for (const std::string& name : rebuild) {
    auto history = histories.find(name);
    Rebuild(
        history == histories.end() ? DeltaChannelHistory{} : history->second,
        channels[name]);
  }
  return channels;
}

formats::Json ChannelValueToJson(const ChannelValue& channel,
                                 PayloadView view) {
  if (channel.value && view == PayloadView::kDecoded) {
    formats::Json out = formats::Json::object();
    out["type"] =
        formats::TextToJson(channel.stored ? channel.stored->type
                                           : std::string(serde::kMsgpackType));
    out["value"] = ReadableJson(*channel.value);
    return out;
  }
  if (channel.stored) return PayloadToJson(*channel.stored, view);
  return formats::Json();
}

std::string ChannelValueToText(const ChannelValue& channel, PayloadView view) {
  if (channel.value && view == PayloadView::kDecoded) {
    return ReadableText(*channel.value);
  }
  if (channel.stored) return PayloadToText(*channel.stored, view);
  return "-";
}

}  // namespace rockpoint::cli
