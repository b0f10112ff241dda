#include "engine/delta_retention.h"

#include <optional>
#include <vector>

namespace rockpoint {
namespace {

// True if `ancestor` stores a value for `channel`: the put that made it
// stored one, non-empty, under its version of the channel.
bool StoresValueFor(const serde::CheckpointHeader& ancestor,
                    const std::string& channel,
                    const ValuePresence& has_value) {
  const auto version = ancestor.channel_versions.find(channel);
  if (version == ancestor.channel_versions.end()) return false;
  for (const std::string& stored : ancestor.stored_channels) {
    if (stored == channel) return has_value(channel, version->second);
  }
  return false;
}

// The ancestors one survivor's delta histories need, the nearest first: the
// walk's prefix up to the farthest ancestor at which a written open
// channel closes (the whole walk when one stays open to its end).
std::vector<std::string> NeededBySurvivor(const std::string& survivor,
                                          const HeaderLookup& header_of,
                                          const ValuePresence& has_value,
                                          const WritePresence& has_write) {
  const serde::CheckpointHeader* start = header_of(survivor);
  if (start == nullptr) return {};
  std::set<std::string> open;
  for (const auto& [channel, version] : start->channel_versions) {
    if (!has_value(channel, version)) open.insert(channel);
  }
  std::vector<std::string> walked;
  size_t needed = 0;  // the length of the prefix of `walked` that is needed.
  std::set<std::string> written;  // open channels some walked one writes.
  std::set<std::string> visited{survivor};  // guards against parent cycles.
  std::optional<std::string> next = start->parent_id;
  while (!open.empty() && next && visited.insert(*next).second) {
    const serde::CheckpointHeader* ancestor = header_of(*next);
    if (ancestor == nullptr) break;  // missing parent.
    walked.push_back(*next);
    for (auto channel = open.begin(); channel != open.end();) {
      if (has_write(*next, *channel)) written.insert(*channel);
      if (!StoresValueFor(*ancestor, *channel, has_value)) {
        ++channel;
        continue;
      }
      if (written.contains(*channel)) needed = walked.size();
      channel = open.erase(channel);
    }
    next = ancestor->parent_id;
  }
  for (const std::string& channel : open) {
    if (written.contains(channel)) needed = walked.size();
  }
  walked.resize(needed);
  return walked;
}

}  // namespace

WritePresence WritesIn(const WrittenChannels& written) {
  return [&written](const std::string& id, const std::string& channel) {
    const auto channels = written.find(id);
    return channels != written.end() && channels->second.contains(channel);
  };
}

std::set<std::string> DeltaNeededAncestors(
    const std::set<std::string>& survivors, const HeaderLookup& header_of,
    const ValuePresence& has_value, const WritePresence& has_write) {
  std::set<std::string> needed;
  for (const std::string& survivor : survivors) {
    for (std::string& id :
         NeededBySurvivor(survivor, header_of, has_value, has_write)) {
      needed.insert(std::move(id));
    }
  }
  return needed;
}

}  // namespace rockpoint
