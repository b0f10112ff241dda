#include "engine/delta_retention.h"

#include <algorithm>

namespace rockpoint {

std::set<std::string> DeltaNeededAncestors(
    const std::set<std::string>& survivors, const HeaderLookup& header_of,
    const ValuePresence& has_value) {
  std::set<std::string> needed;
  for (const std::string& survivor : survivors) {
    const serde::CheckpointHeader* start = header_of(survivor);
    if (start == nullptr) continue;
    std::set<std::string> open;
    for (const auto& [channel, version] : start->channel_versions) {
      if (!has_value(channel, version)) open.insert(channel);
    }
    std::optional<std::string> next = start->parent_id;
    std::set<std::string> visited{survivor};  // guards against parent cycles.
    while (!open.empty() && next && visited.insert(*next).second) {
      const serde::CheckpointHeader* ancestor = header_of(*next);
      if (ancestor == nullptr) break;  // missing parent.
      needed.insert(*next);
      for (const std::string& channel : ancestor->stored_channels) {
        const auto version = ancestor->channel_versions.find(channel);
        if (version != ancestor->channel_versions.end() &&
            has_value(channel, version->second)) {
          open.erase(channel);
        }
      }
      next = ancestor->parent_id;
    }
  }
  return needed;
}

}  // namespace rockpoint
