// Rules every backend shares (engine/backend_rules.h).
#include "engine/backend_rules.h"

#include <cstdio>
#include <optional>

namespace rockpoint {
namespace {

constexpr size_t kMaxQuotedBytes = 64;

}  // namespace

std::string QuotedForMessage(std::string_view name) {
  std::string out = "'";
  for (size_t i = 0; i < name.size() && i < kMaxQuotedBytes; ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out.push_back(static_cast<char>(c));
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  if (name.size() > kMaxQuotedBytes) out += "...";
  out += "'";
  return out;
}

bool StoresValueItNames(const Checkpoint& checkpoint,
                        const std::string& channel,
                        const ChannelVersion& version) {
  if (!checkpoint.channel_values.contains(channel)) return false;
  const auto named = checkpoint.channel_versions.find(channel);
  return named != checkpoint.channel_versions.end() && named->second == version;
}

Status StoreClosedError() { return Status::Aborted("store is closed"); }

Status CheckpointToHideNotFound(const CheckpointConfig& config) {
  return Status::NotFound(
      "no checkpoint " + QuotedForMessage(*config.checkpoint_id) +
      " in thread " + QuotedForMessage(*config.thread_id) + " namespace " +
      QuotedForMessage(config.checkpoint_ns.value_or("")));
}

Status CopyTargetNotEmpty(std::string_view target) {
  return Status::InvalidArgument("copy_thread: target thread " +
                                 QuotedForMessage(target) +
                                 " already has checkpoints (delete it first)");
}

bool MetadataMatches(const Metadata& metadata, const Value& filter) {
  if (!filter.is_map()) return false;
  const Value::Map& wanted = filter.as_map();
  if (wanted.empty()) return true;
  if (!metadata.is_map()) return false;
  const Value::Map& have = metadata.as_map();
  for (const auto& [key, value] : wanted) {
    auto it = have.find(key);
    if (it == have.end() || !(it->second == value)) return false;
  }
  return true;
}

int64_t WriteIndex(std::string_view channel, size_t position) {
  if (std::optional<int64_t> special = SpecialWriteIndex(channel)) {
    return *special;
  }
  return static_cast<int64_t>(position);
}

std::string RunIdOf(const Metadata& metadata) {
  if (!metadata.is_map()) return "";
  auto it = metadata.as_map().find("run_id");
  if (it == metadata.as_map().end() || !it->second.is_string()) return "";
  return it->second.as_string();
}

}  // namespace rockpoint
