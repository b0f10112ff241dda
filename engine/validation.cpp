// Shared input checks (engine/validation.h). Every message names the field
// that is wrong; names and ids in messages are quoted and shortened so that a
// 1 MB or binary id never floods a log.
#include "engine/validation.h"

#include <cstdio>
#include <string>
#include <type_traits>
#include <variant>

#include "engine/backend_rules.h"

namespace rockpoint {
namespace {

// Kind names as the messages spell them.
const char* KindNameOf(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBool:
      return "bool";
    case Value::Kind::kInt:
      return "int";
    case Value::Kind::kDouble:
      return "double";
    case Value::Kind::kString:
      return "string";
    case Value::Kind::kBytes:
      return "bytes";
    case Value::Kind::kArray:
      return "array";
    case Value::Kind::kMap:
      return "map";
    case Value::Kind::kExt:
      return "ext";
  }
  return "unknown";
}

// A field name for a message: a string, or a callable building it. Messages
// are built only on failure, so valid input costs no string work.
template <typename Field>
std::string FieldName(const Field& field) {
  if constexpr (std::is_invocable_v<const Field&>) {
    return field();
  } else {
    return std::string(field);
  }
}

template <typename Field>
Status CheckId(const Field& field, std::string_view id,
               const CheckpointerLimits& limits) {
  if (id.size() <= limits.max_id_bytes) return Status::OK();
  return Status::InvalidArgument(
      FieldName(field) + " is " + std::to_string(id.size()) +
      " bytes, over the limit of " + std::to_string(limits.max_id_bytes) +
      " (CheckpointerLimits::max_id_bytes)");
}

Status CheckChannelName(std::string_view where, std::string_view channel,
                        const CheckpointerLimits& limits) {
  return CheckId(
      [&] {
        return "channel name in " + std::string(where) + " " +
               QuotedForMessage(channel);
      },
      channel, limits);
}

Status CheckVersion(std::string_view where, std::string_view channel,
                    const ChannelVersion& version,
                    const CheckpointerLimits& limits) {
  const auto* text = std::get_if<std::string>(&version);
  if (text == nullptr) return Status::OK();
  return CheckId(
      [&] {
        return std::string(where) + " version of channel " +
               QuotedForMessage(channel);
      },
      *text, limits);
}

template <typename Field>
Status CheckValue(const Field& what, const TypedValue& value,
                  const CheckpointerLimits& limits) {
  size_t size = value.bytes.size();
  if (size <= limits.max_value_bytes) return Status::OK();
  return Status::InvalidArgument(
      FieldName(what) + " is " + std::to_string(size) +
      " bytes, over the limit of " + std::to_string(limits.max_value_bytes) +
      " (CheckpointerLimits::max_value_bytes)");
}

Status CheckVersions(std::string_view where, const ChannelVersions& versions,
                     const CheckpointerLimits& limits) {
  for (const auto& [channel, version] : versions) {
    RP_RETURN_IF_ERROR(CheckChannelName(where, channel, limits));
    RP_RETURN_IF_ERROR(CheckVersion(where, channel, version, limits));
  }
  return Status::OK();
}

Status CheckConfigIds(const CheckpointConfig& config,
                      const CheckpointerLimits& limits) {
  RP_RETURN_IF_ERROR(CheckId("config.thread_id", *config.thread_id, limits));
  if (config.checkpoint_ns) {
    RP_RETURN_IF_ERROR(
        CheckId("config.checkpoint_ns", *config.checkpoint_ns, limits));
  }
  if (config.checkpoint_id) {
    RP_RETURN_IF_ERROR(
        CheckId("config.checkpoint_id", *config.checkpoint_id, limits));
  }
  return Status::OK();
}

}  // namespace

Status ValidatePut(const CheckpointConfig& config, const Checkpoint& checkpoint,
                   const Metadata& metadata,
                   const ChannelVersions& new_versions,
                   const CheckpointerLimits& limits) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  if (checkpoint.id.empty()) {
    return Status::InvalidArgument("checkpoint.id is empty");
  }
  if (!metadata.is_map()) {
    return Status::InvalidArgument(std::string("metadata must be a map, got ") +
                                   KindNameOf(metadata));
  }
  RP_RETURN_IF_ERROR(
      serde::CheckNesting(metadata, "metadata", kMaxMetadataNesting));
  RP_RETURN_IF_ERROR(CheckConfigIds(config, limits));
  RP_RETURN_IF_ERROR(CheckId("checkpoint.id", checkpoint.id, limits));
  if (config.checkpoint_id && *config.checkpoint_id == checkpoint.id) {
    return Status::InvalidArgument(
        "checkpoint.id equals config.checkpoint_id (the parent): a "
        "checkpoint cannot be its own parent");
  }
  RP_RETURN_IF_ERROR(CheckVersions("checkpoint.channel_versions",
                                   checkpoint.channel_versions, limits));
  RP_RETURN_IF_ERROR(CheckVersions("new_versions", new_versions, limits));
  for (const auto& [node, seen] : checkpoint.versions_seen) {
    RP_RETURN_IF_ERROR(CheckId(
        [&] {
          return "node name in checkpoint.versions_seen " +
                 QuotedForMessage(node);
        },
        node, limits));
    RP_RETURN_IF_ERROR(CheckVersions("checkpoint.versions_seen", seen, limits));
  }
  for (const auto& [channel, value] : checkpoint.channel_values) {
    RP_RETURN_IF_ERROR(
        CheckChannelName("checkpoint.channel_values", channel, limits));
    RP_RETURN_IF_ERROR(CheckValue(
        [&] { return "value of channel " + QuotedForMessage(channel); }, value,
        limits));
  }
  if (checkpoint.pending_sends) {
    for (size_t i = 0; i < checkpoint.pending_sends->size(); ++i) {
      RP_RETURN_IF_ERROR(CheckValue(
          [&] { return "checkpoint.pending_sends[" + std::to_string(i) + "]"; },
          (*checkpoint.pending_sends)[i], limits));
    }
  }
  return Status::OK();
}

Status ValidatePutWrites(const CheckpointConfig& config,
                         const std::vector<ChannelWrite>& writes,
                         std::string_view task_id, std::string_view task_path,
                         const CheckpointerLimits& limits) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  if (!config.checkpoint_id) {
    return Status::InvalidArgument(
        "config.checkpoint_id is missing (put_writes needs the checkpoint the "
        "writes belong to)");
  }
  RP_RETURN_IF_ERROR(CheckConfigIds(config, limits));
  RP_RETURN_IF_ERROR(CheckId("task_id", task_id, limits));
  RP_RETURN_IF_ERROR(CheckId("task_path", task_path, limits));
  for (size_t i = 0; i < writes.size(); ++i) {
    const ChannelWrite& write = writes[i];
    const auto what = [i] { return "writes[" + std::to_string(i) + "]"; };
    RP_RETURN_IF_ERROR(CheckId([&] { return "channel name of " + what(); },
                               write.channel, limits));
    RP_RETURN_IF_ERROR(CheckValue(
        [&] {
          return "value of " + what() + " (channel " +
                 QuotedForMessage(write.channel) + ")";
        },
        write.value, limits));
  }
  return Status::OK();
}

Status ValidateListOptions(const ListOptions& options) {
  if (!options.filter.is_map()) {
    return Status::InvalidArgument(std::string("filter must be a map, got ") +
                                   KindNameOf(options.filter));
  }
  if (options.before && !options.before->checkpoint_id) {
    return Status::InvalidArgument("before.checkpoint_id is missing");
  }
  if (options.include_hidden &&
      !(options.config && options.config->thread_id)) {
    return Status::InvalidArgument(
        "include_hidden needs config.thread_id (hidden checkpoints are listed "
        "one thread at a time)");
  }
  return Status::OK();
}

Status ValidateDeltaHistory(const CheckpointConfig& config) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  return Status::OK();
}

Status ValidateListThreads(const ListThreadsOptions& options) {
  if (options.limit == 0) {
    return Status::InvalidArgument("limit must be >= 1, got 0");
  }
  return Status::OK();
}

Status ValidatePrune(PruneStrategy strategy, size_t keep_last) {
  if (strategy != PruneStrategy::kKeepLatest &&
      strategy != PruneStrategy::kDelete) {
    return Status::InvalidArgument("strategy is not keep_latest or delete");
  }
  if (strategy == PruneStrategy::kKeepLatest && keep_last == 0) {
    return Status::InvalidArgument(
        "keep_last must be >= 1 for the keep_latest strategy, got 0");
  }
  return Status::OK();
}

Status ValidateHideCheckpoint(const CheckpointConfig& config,
                              const CheckpointerLimits& limits) {
  if (!config.thread_id) {
    return Status::InvalidArgument("config.thread_id is missing");
  }
  if (!config.checkpoint_id) {
    return Status::InvalidArgument(
        "config.checkpoint_id is missing (hide_checkpoint needs the checkpoint "
        "to hide)");
  }
  return CheckConfigIds(config, limits);
}

}  // namespace rockpoint
