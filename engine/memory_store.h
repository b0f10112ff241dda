// The data structures of MemoryCheckpointer and the pure functions over one
// (thread, namespace) that its methods are built from: reading a checkpoint,
// the delta-history walk, and retention (which checkpoints a prune or
// delete_for_runs keeps visible, hidden or deletes).
//
// Private to engine/memory_*.cpp. Thread-safety: none; the caller holds
// MemoryCheckpointer's mutex.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rockpoint/types.h"

namespace rockpoint::memory {

// A stored channel value, or the "empty" marker of a version bump.
struct Blob {
  bool empty = false;
  TypedValue value;  // meaningless when empty.
};
using BlobKey = std::pair<std::string, ChannelVersion>;  // (channel, version)

// Writes of one checkpoint keyed by (task_path, task_id, idx): the map order
// is the contract's pending_writes order (idx signed).
using WriteKey = std::tuple<std::string, std::string, int64_t>;
struct StoredWrite {
  std::string channel;
  TypedValue value;
};
using WriteMap = std::map<WriteKey, StoredWrite>;

struct StoredCheckpoint {
  Checkpoint checkpoint;  // channel_values left empty; resolved on read.
  std::optional<std::string> parent_id;
  Metadata metadata;
  // Channels this put stored a real value for (new_versions ∩ values).
  std::set<std::string> stored_channels;
  // Kept only for a surviving checkpoint's delta history; invisible to
  // get_tuple, list and list_threads.
  bool hidden = false;
};

// Everything of one (thread, namespace).
struct Namespace {
  std::map<std::string, StoredCheckpoint> checkpoints;  // by checkpoint_id.
  std::map<BlobKey, Blob> blobs;
  std::map<std::string, WriteMap> writes;  // by checkpoint_id.
  bool empty() const { return checkpoints.empty() && writes.empty(); }
};

struct Thread {
  std::map<std::string, Namespace> namespaces;  // by checkpoint_ns.
};

// The value stored under (channel, version), nullopt if absent or "empty".
std::optional<TypedValue> ReadValue(const Namespace& ns,
                                    const std::string& channel,
                                    const ChannelVersion& version);

// True if `cp` stores a value for `channel` (a seed of the delta walk).
bool StoresValue(const Namespace& ns, const StoredCheckpoint& cp,
                 const std::string& channel);

// The tuple of checkpoint `id` (REQUIRES: present in ns.checkpoints).
CheckpointTuple BuildTuple(const std::string& thread_id,
                           const std::string& checkpoint_ns,
                           const Namespace& ns, const std::string& id);

// The greatest visible checkpoint id, nullopt if none.
std::optional<std::string> LatestVisibleId(const Namespace& ns);

// get_delta_channel_history for the checkpoint `target` (REQUIRES: present).
DeltaHistory DeltaHistoryOf(const Namespace& ns, const std::string& target,
                            const std::vector<std::string>& channels);

// Keeps the checkpoints in `visible` visible; keeps hidden every other one
// that their delta histories need; deletes the rest with their writes, then
// the blobs no remaining checkpoint references.
void Retain(Namespace& ns, const std::set<std::string>& visible);

}  // namespace rockpoint::memory
