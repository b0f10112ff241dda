// Who stored a value that is missing (missing_value.h).
#include "engine/missing_value.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rockpoint {
namespace {

bool Stores(const std::vector<std::string>& stored_channels,
            const std::string& channel) {
  return std::binary_search(stored_channels.begin(), stored_channels.end(),
                            channel);
}

}  // namespace

Result<std::optional<std::string>> FindLostValueStorer(
    std::string_view checkpoint_id,
    const std::vector<std::string>& stored_channels,
    const std::optional<std::string>& parent_id, const std::string& channel,
    const serde::ChannelVersion& version, const HeaderReader& header_of) {
  if (Stores(stored_channels, channel)) {
    return std::optional<std::string>(checkpoint_id);
  }
  std::set<std::string> visited = {std::string(checkpoint_id)};
  std::optional<std::string> next = parent_id;
  while (next && visited.insert(*next).second) {
    RP_ASSIGN_OR_RETURN(std::optional<serde::CheckpointHeader> ancestor,
                        header_of(*next));
    if (!ancestor) break;  // a root's value before it, or a deleted parent.
    const auto named = ancestor->channel_versions.find(channel);
    if (named == ancestor->channel_versions.end() ||
        !(named->second == version)) {
      break;
    }
    if (Stores(ancestor->stored_channels, channel)) return next;
    next = std::move(ancestor->parent_id);
  }
  return std::optional<std::string>();
}

}  // namespace rockpoint
