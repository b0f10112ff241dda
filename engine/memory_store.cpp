// Reading and delta-history walking over one (thread, namespace) of the
// memory backend, plus retention. Plain loops, one lookup per ancestor: this
// is the reference the other backends are compared with.
#include "engine/memory_store.h"

#include "engine/delta_retention.h"

namespace rockpoint::memory {

std::optional<TypedValue> ReadValue(const Namespace& ns,
                                    const std::string& channel,
                                    const ChannelVersion& version) {
  auto it = ns.blobs.find(BlobKey{channel, version});
  if (it == ns.blobs.end() || it->second.empty) return std::nullopt;
  return it->second.value;
}

bool StoresValue(const Namespace& ns, const StoredCheckpoint& cp,
                 const std::string& channel) {
  if (!cp.stored_channels.count(channel)) return false;
  auto version = cp.checkpoint.channel_versions.find(channel);
  if (version == cp.checkpoint.channel_versions.end()) return false;
  return ReadValue(ns, channel, version->second).has_value();
}

namespace {

std::vector<PendingWrite> PendingWritesOf(const Namespace& ns,
                                          const std::string& id) {
  std::vector<PendingWrite> out;
  auto it = ns.writes.find(id);
  if (it == ns.writes.end()) return out;
  for (const auto& [key, write] : it->second) {
    out.push_back(PendingWrite{std::get<1>(key), write.channel, write.value,
                               std::get<0>(key), std::get<2>(key), id});
  }
  return out;
}

// `cp`'s header as the shared retention rule reads it.
serde::CheckpointHeader HeaderOf(const StoredCheckpoint& cp) {
  serde::CheckpointHeader header;
  header.parent_id = cp.parent_id;
  header.channel_versions = cp.checkpoint.channel_versions;
  header.stored_channels.assign(cp.stored_channels.begin(),
                                cp.stored_channels.end());
  header.hidden = cp.hidden;
  return header;
}

// The checkpoints of `ns` that the delta histories of `visible` need
// (engine/delta_retention.h). Headers are made for the checkpoints the walk
// visits only, once each.
std::set<std::string> NeededAncestors(const Namespace& ns,
                                      const std::set<std::string>& visible) {
  std::map<std::string, serde::CheckpointHeader> headers;
  return DeltaNeededAncestors(
      visible,
      [&](const std::string& id) -> const serde::CheckpointHeader* {
        if (const auto made = headers.find(id); made != headers.end()) {
          return &made->second;
        }
        const auto cp = ns.checkpoints.find(id);
        if (cp == ns.checkpoints.end()) return nullptr;
        return &headers.emplace(id, HeaderOf(cp->second)).first->second;
      },
      [&](const std::string& channel, const ChannelVersion& version) {
        return ReadValue(ns, channel, version).has_value();
      },
      [&](const std::string& id, const std::string& channel) {
        const auto writes = ns.writes.find(id);
        if (writes == ns.writes.end()) return false;
        for (const auto& [key, write] : writes->second) {
          if (write.channel == channel) return true;
        }
        return false;
      });
}

}  // namespace

CheckpointTuple BuildTuple(const std::string& thread_id,
                           const std::string& checkpoint_ns,
                           const Namespace& ns, const std::string& id) {
  const StoredCheckpoint& stored = ns.checkpoints.at(id);
  CheckpointTuple tuple;
  tuple.config = CheckpointConfig{thread_id, checkpoint_ns, id};
  tuple.checkpoint = stored.checkpoint;
  for (const auto& [channel, version] : stored.checkpoint.channel_versions) {
    if (auto value = ReadValue(ns, channel, version)) {
      tuple.checkpoint.channel_values.emplace(channel, std::move(*value));
    }
  }
  tuple.metadata = stored.metadata;
  if (stored.parent_id) {
    tuple.parent_config =
        CheckpointConfig{thread_id, checkpoint_ns, *stored.parent_id};
  }
  tuple.pending_writes = PendingWritesOf(ns, id);
  tuple.hidden = stored.hidden;
  return tuple;
}

std::optional<std::string> LatestVisibleId(const Namespace& ns) {
  for (auto it = ns.checkpoints.rbegin(); it != ns.checkpoints.rend(); ++it) {
    if (!it->second.hidden) return it->first;
  }
  return std::nullopt;
}

DeltaHistory DeltaHistoryOf(const Namespace& ns, const std::string& target,
                            const std::vector<std::string>& channels) {
  DeltaHistory history;
  std::set<std::string> open;
  // Per channel, the writes of each visited ancestor, newest ancestor first.
  std::map<std::string, std::vector<std::vector<PendingWrite>>> chunks;
  for (const std::string& channel : channels) {
    history[channel];
    open.insert(channel);
  }
  std::set<std::string> visited{target};  // a cycle ends before the target
  std::optional<std::string> current = ns.checkpoints.at(target).parent_id;
  while (current && !open.empty() && visited.insert(*current).second) {
    auto it = ns.checkpoints.find(*current);
    if (it == ns.checkpoints.end()) break;
    std::map<std::string, std::vector<PendingWrite>> taken;
    for (PendingWrite& write : PendingWritesOf(ns, it->first)) {
      if (open.count(write.channel)) {
        taken[write.channel].push_back(std::move(write));
      }
    }
    for (auto& [channel, writes] : taken) {
      chunks[channel].push_back(std::move(writes));
    }
    for (auto channel = open.begin(); channel != open.end();) {
      if (StoresValue(ns, it->second, *channel)) {
        const ChannelVersion& version =
            it->second.checkpoint.channel_versions.at(*channel);
        history[*channel].seed = ReadValue(ns, *channel, version);
        channel = open.erase(channel);
      } else {
        ++channel;
      }
    }
    current = it->second.parent_id;
  }
  for (auto& [channel, per_ancestor] : chunks) {
    std::vector<PendingWrite>& writes = history[channel].writes;
    for (auto chunk = per_ancestor.rbegin(); chunk != per_ancestor.rend();
         ++chunk) {
      for (PendingWrite& write : *chunk) writes.push_back(std::move(write));
    }
  }
  return history;
}

void Retain(Namespace& ns, const std::set<std::string>& visible) {
  const std::set<std::string> needed = NeededAncestors(ns, visible);
  for (auto it = ns.checkpoints.begin(); it != ns.checkpoints.end();) {
    if (visible.count(it->first)) {
      it->second.hidden = false;
      ++it;
    } else if (needed.count(it->first)) {
      it->second.hidden = true;
      ++it;
    } else {
      ns.writes.erase(it->first);
      it = ns.checkpoints.erase(it);
    }
  }
  std::set<BlobKey> referenced;
  for (const auto& [id, cp] : ns.checkpoints) {
    for (const auto& [channel, version] : cp.checkpoint.channel_versions) {
      referenced.insert(BlobKey{channel, version});
    }
  }
  for (auto it = ns.blobs.begin(); it != ns.blobs.end();) {
    it = referenced.count(it->first) ? std::next(it) : ns.blobs.erase(it);
  }
}

}  // namespace rockpoint::memory
