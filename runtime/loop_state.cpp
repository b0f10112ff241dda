#include "runtime/loop_state.h"

#include <algorithm>
#include <tuple>

#include "rockpoint/msgpack_codec.h"
#include "runtime/ids.h"

namespace rockpoint::runtime {

bool IsMarkerChannel(std::string_view channel) {
  return SpecialWriteIndex(channel).has_value() || channel == kNoWritesChannel;
}

LoopState::LoopState(const GraphSpec* spec, std::string thread_id,
                     std::string ns)
    : spec_(spec), thread_id_(std::move(thread_id)), ns_(std::move(ns)) {
  ResetChannels();
}

void LoopState::ResetChannels() {
  channels_.clear();
  for (const auto& [name, channel] : spec_->channels) {
    channels_.emplace(name, ChannelState(&channel));
  }
  for (const auto& [name, channel] : spec_->internal_channels) {
    channels_.emplace(name, ChannelState(&channel));
  }
}

Awaitable<Result<bool>> LoopState::Load(
    AsyncCheckpointer& storage,
    const std::optional<std::string>& checkpoint_id) {
  CheckpointConfig config{thread_id_, ns_, checkpoint_id};
  Result<std::optional<CheckpointTuple>> tuple =
      co_await storage.GetTuple(config);
  if (!tuple.ok()) co_return tuple.status();
  if (!tuple->has_value()) co_return false;
  Status restored = co_await Restore(storage, **tuple);
  if (!restored.ok()) co_return restored;
  co_return true;
}

Awaitable<Status> LoopState::Restore(AsyncCheckpointer& storage,
                                     const CheckpointTuple& tuple) {
  ResetChannels();
  const Checkpoint& checkpoint = tuple.checkpoint;
  id_ = checkpoint.id;
  ts_ = checkpoint.ts;
  versions_ = checkpoint.channel_versions;
  versions_seen_ = checkpoint.versions_seen;
  updated_channels_ =
      checkpoint.updated_channels.value_or(std::vector<std::string>{});
  metadata_ = tuple.metadata;
  const Value* step = metadata_.Find("step");
  step_ = step != nullptr && step->is_int() ? step->as_int() : -1;
  loaded_writes_ = tuple.pending_writes;
  loaded_parent_ = tuple.parent_config;

  std::vector<std::string> rebuild;  // delta channels without a value.
  for (const auto& [name, version] : versions_) {
    auto channel = channels_.find(name);
    if (channel == channels_.end()) continue;  // not in this graph: kept.
    auto stored = checkpoint.channel_values.find(name);
    if (stored != checkpoint.channel_values.end()) {
      Result<Value> value = DecodeTyped(
          stored->second, "channel '" + name + "' of checkpoint " + id_);
      if (!value.ok()) co_return value.status();
      Result<Value> unwrapped = UnwrapStoredValue(*value);
      if (!unwrapped.ok()) co_return unwrapped.status();
      channel->second.Restore(std::move(unwrapped).value());
    } else if (channel->second.spec().kind == ChannelKind::kDelta) {
      rebuild.push_back(name);
    }
  }
  if (!rebuild.empty()) {
    CheckpointConfig config{thread_id_, ns_, id_};
    Result<DeltaHistory> history =
        co_await storage.GetDeltaChannelHistory(config, rebuild);
    if (!history.ok()) co_return history.status();
    for (const std::string& name : rebuild) {
      ChannelState& channel = channels_.at(name);
      auto entry = history->find(name);
      if (entry == history->end()) continue;
      if (entry->second.seed) {
        Result<Value> seed = DecodeTyped(
            *entry->second.seed, "delta seed of channel '" + name + "'");
        if (!seed.ok()) co_return seed.status();
        Result<Value> unwrapped = UnwrapStoredValue(*seed);
        if (!unwrapped.ok()) co_return unwrapped.status();
        channel.Restore(std::move(unwrapped).value());
      }
      std::vector<Value> writes;
      for (const PendingWrite& write : entry->second.writes) {
        Result<Value> value =
            DecodeTyped(write.value, "write to '" + name + "' at checkpoint " +
                                         write.checkpoint_id);
        if (!value.ok()) co_return value.status();
        writes.push_back(std::move(value).value());
      }
      Result<bool> replayed = channel.Update(name, writes);
      if (!replayed.ok()) co_return replayed.status();
      channel.clear_overwritten();
    }
  }

  RestoreDeltaCounters();

  persisted_id_ = id_;
  persisted_versions_ = versions_;
  persisted_write_channels_.clear();
  for (const PendingWrite& write : loaded_writes_) {
    if (!IsMarkerChannel(write.channel)) {
      persisted_write_channels_.insert(write.channel);
    }
  }
  writes_stored_ = true;
  co_return Status::OK();
}

namespace {

// Persisted metadata keys (runtime/FORMAT.md).
constexpr std::string_view kDeltaCountersKey = "counters_since_delta_snapshot";
constexpr std::string_view kDeltaBytesKey = "delta_snapshot_bytes";

// Calls fn(channel, first, second) for each {channel: [int, int]} entry of
// metadata[key]; entries of another shape are skipped.
template <typename Fn>
void ForEachCounterPair(const Metadata& metadata, std::string_view key, Fn fn) {
  const Value* counters = metadata.Find(key);
  if (counters == nullptr || !counters->is_map()) return;
  for (const auto& [name, pair] : counters->as_map()) {
    if (pair.is_array() && pair.as_array().size() == 2 &&
        pair.as_array()[0].is_int() && pair.as_array()[1].is_int()) {
      fn(name, pair.as_array()[0].as_int(), pair.as_array()[1].as_int());
    }
  }
}

Value CounterPair(int64_t first, int64_t second) {
  return Value(Value::Array{Value(first), Value(second)});
}

bool IsGeometric(const ChannelSpec& spec) {
  return spec.kind == ChannelKind::kDelta &&
         spec.snapshot_policy.kind == SnapshotPolicy::Kind::kGeometric;
}

// A channel value is stored as its msgpack (a snapshot's inside its ext),
// which does not read back nested deeper than kMaxDepth (value.h): a
// reducer can nest deeper than any write did.
Status CheckStorable(const std::string& channel, const Value& value) {
  if (serde::NestingDepth(value) <= serde::kMaxDepth) return Status::OK();
  return Status::InvalidArgument(
      "value of channel '" + channel + "' nests deeper than " +
      std::to_string(serde::kMaxDepth) + " maps and arrays");
}

// The stored bytes of `writes` (put_writes stores EncodeMsgpack(write)).
int64_t EncodedBytes(const std::vector<Value>& writes) {
  std::string scratch;
  int64_t total = 0;
  for (const Value& write : writes) {
    scratch.clear();
    serde::AppendMsgpack(write, &scratch);
    total += static_cast<int64_t>(scratch.size());
  }
  return total;
}

}  // namespace

void LoopState::RestoreDeltaCounters() {
  delta_.clear();
  ForEachCounterPair(
      metadata_, kDeltaCountersKey,
      [this](const std::string& name, int64_t updates, int64_t supersteps) {
        delta_[name].updates = updates;
        delta_[name].supersteps = supersteps;
      });
  // Absent (a checkpoint written under another policy, or by an older
  // runtime): both 0, so the next snapshot comes after min_bytes.
  ForEachCounterPair(metadata_, kDeltaBytesKey,
                     [this](const std::string& name, int64_t write_bytes,
                            int64_t snapshot_bytes) {
                       delta_[name].write_bytes = write_bytes;
                       delta_[name].snapshot_bytes = snapshot_bytes;
                     });
}

void LoopState::RecordDeltaCounters() {
  Value::Map counters;
  Value::Map bytes;
  for (const auto& [name, channel] : spec_->channels) {
    if (channel.kind != ChannelKind::kDelta) continue;
    const DeltaSnapshotCounters& count = delta_[name];
    counters[name] = CounterPair(count.updates, count.supersteps);
    if (IsGeometric(channel)) {
      bytes[name] = CounterPair(count.write_bytes, count.snapshot_bytes);
    }
  }
  if (!counters.empty()) {
    metadata_.as_map()[std::string(kDeltaCountersKey)] =
        Value(std::move(counters));
  }
  if (!bytes.empty()) {
    metadata_.as_map()[std::string(kDeltaBytesKey)] = Value(std::move(bytes));
  }
}

State LoopState::UserState() const {
  State state;
  for (const auto& [name, unused] : spec_->channels) {
    const ChannelState& channel = channels_.at(name);
    if (channel.has_value()) state.emplace(name, channel.value());
  }
  return state;
}

Result<ChannelVersion> LoopState::FreshVersion() const {
  std::optional<ChannelVersion> max;
  for (const auto& [name, version] : versions_) {
    if (!max || VersionLess(*max, version)) max = version;
  }
  return NextVersion(max);
}

Status LoopState::Apply(std::vector<TaskWrites> tasks, bool end_of_step) {
  std::sort(tasks.begin(), tasks.end(),
            [](const TaskWrites& a, const TaskWrites& b) {
              return std::tie(a.path, a.id) < std::tie(b.path, b.id);
            });
  if (end_of_step) {
    for (const TaskWrites& task : tasks) {
      if (task.node.empty()) continue;
      for (const std::string& trigger : task.triggers) {
        auto version = versions_.find(trigger);
        if (version != versions_.end()) {
          versions_seen_[task.node][trigger] = version->second;
        }
      }
    }
  }
  std::map<std::string, std::vector<Value>> grouped;
  for (TaskWrites& task : tasks) {
    for (auto& [channel, value] : task.writes) {
      if (IsMarkerChannel(channel)) continue;
      if (channels_.find(channel) == channels_.end()) {
        return Status::InvalidArgument(
            "write to unknown channel '" + channel + "'" +
            (task.node.empty() ? "" : " by node '" + task.node + "'"));
      }
      grouped[channel].push_back(std::move(value));
    }
  }
  std::optional<ChannelVersion> next;
  auto bump = [&](const std::string& channel) -> Status {
    if (!next) {
      RP_ASSIGN_OR_RETURN(next, FreshVersion());
    }
    versions_[channel] = *next;
    updated_channels_.push_back(channel);
    return Status::OK();
  };
  updated_channels_.clear();
  for (auto& [channel, writes] : grouped) {
    ChannelState& state = channels_.at(channel);
    RP_ASSIGN_OR_RETURN(bool changed, state.Update(channel, writes));
    if (!changed) continue;
    RP_RETURN_IF_ERROR(bump(channel));
    if (state.spec().kind == ChannelKind::kDelta) {
      DeltaSnapshotCounters& count = delta_[channel];
      ++count.updates;
      if (IsGeometric(state.spec())) count.write_bytes += EncodedBytes(writes);
    }
  }
  if (end_of_step) {
    for (auto& [channel, state] : channels_) {
      if (grouped.count(channel) == 0 && state.ClearIfEphemeral()) {
        RP_RETURN_IF_ERROR(bump(channel));
      }
      if (state.spec().kind == ChannelKind::kDelta) {
        ++delta_[channel].supersteps;
      }
    }
  }
  return Status::OK();
}

void LoopState::BeginCheckpoint(std::string source, int64_t step,
                                Value::Map extra) {
  id_ = NewCheckpointId();
  ts_ = NowIso8601();
  step_ = step;
  extra["source"] = Value(std::move(source));
  extra["step"] = Value(step);
  metadata_ = Value(std::move(extra));
  loaded_writes_.clear();
  loaded_parent_.reset();
}

void LoopState::NoteStoredWrites(const std::vector<ChannelWrite>& writes) {
  for (const ChannelWrite& write : writes) {
    if (!IsMarkerChannel(write.channel)) {
      persisted_write_channels_.insert(write.channel);
    }
  }
}

Result<PutRequest> LoopState::BuildPut() {
  PutRequest put;
  put.config.thread_id = thread_id_;
  put.config.checkpoint_ns = ns_;
  if (!persisted_id_.empty()) put.config.checkpoint_id = persisted_id_;

  for (auto& [name, version] : versions_) {
    auto previous = persisted_versions_.find(name);
    bool changed =
        previous == persisted_versions_.end() || previous->second != version;
    auto channel = channels_.find(name);
    if (channel == channels_.end()) {
      if (changed) put.new_versions[name] = version;  // not ours: keep it.
      continue;
    }
    ChannelState& state = channel->second;
    if (state.spec().kind != ChannelKind::kDelta) {
      if (changed) {
        put.new_versions[name] = version;
        if (state.has_value()) {
          RP_RETURN_IF_ERROR(CheckStorable(name, state.value()));
          put.checkpoint.channel_values[name] = EncodeTyped(state.value());
        }
      }
      continue;
    }
    DeltaSnapshotCounters& count = delta_[name];
    const ChannelSpec& channel_spec = state.spec();
    bool snapshot = state.has_value() &&
                    (state.overwritten() ||
                     SnapshotDue(channel_spec.snapshot_policy,
                                 channel_spec.snapshot_frequency, count) ||
                     (!writes_stored_ &&
                      (changed || persisted_write_channels_.count(name) != 0)));
    if (snapshot) {
      RP_RETURN_IF_ERROR(CheckStorable(name, state.value()));
      if (!changed) {
        // The stored blob of this version is immutable: a snapshot needs
        // a version of its own.
        RP_ASSIGN_OR_RETURN(version, FreshVersion());
      }
      put.new_versions[name] = version;
      TypedValue stored = EncodeTyped(WrapSnapshot(state.value()));
      count = DeltaSnapshotCounters{};
      count.snapshot_bytes = static_cast<int64_t>(stored.bytes.size());
      put.checkpoint.channel_values[name] = std::move(stored);
      state.clear_overwritten();
    } else if (changed) {
      put.new_versions[name] = version;  // "empty": rebuilt from writes.
    }
  }
  RecordDeltaCounters();

  put.checkpoint.id = id_;
  put.checkpoint.ts = ts_;
  put.checkpoint.channel_versions = versions_;
  put.checkpoint.versions_seen = versions_seen_;
  put.checkpoint.updated_channels = updated_channels_;
  put.metadata = metadata_;

  persisted_id_ = id_;
  persisted_versions_ = versions_;
  persisted_write_channels_.clear();
  writes_stored_ = true;
  return put;
}

}  // namespace rockpoint::runtime
