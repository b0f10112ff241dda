// Input validation and small rules shared by every backend, so that all of
// them reject the same input with the same message and order writes the same
// way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint {

// Checks a put: thread_id present; checkpoint.id non-empty; metadata a map;
// every id, channel and version within limits; every value within limits;
// checkpoint.id != parent id. InvalidArgument names the field, e.g.
// "config.thread_id is missing", "metadata must be a map, got string".
Status ValidatePut(const CheckpointConfig& config, const Checkpoint& checkpoint,
                   const Metadata& metadata,
                   const ChannelVersions& new_versions,
                   const CheckpointerLimits& limits);

// True when a put of `checkpoint` with `channel` at `version` in
// new_versions stores a real value that the checkpoint itself reads: the
// channel has a value, and `version` is the one its channel_versions names.
// Every backend records exactly these channels as stored by the put (the
// delta walk's seeds, and the values whose loss is Corruption); a value
// stored under another version is stored, but this checkpoint never reads
// it.
bool StoresValueItNames(const Checkpoint& checkpoint,
                        const std::string& channel,
                        const ChannelVersion& version);

// Checks a put_writes: thread_id and checkpoint_id present, task_id and
// channels within limits, values within limits.
Status ValidatePutWrites(const CheckpointConfig& config,
                         const std::vector<ChannelWrite>& writes,
                         std::string_view task_id, std::string_view task_path,
                         const CheckpointerLimits& limits);

// Checks list options: filter is a map; before, if given, has a
// checkpoint_id; include_hidden only with a thread_id.
Status ValidateListOptions(const ListOptions& options);

// Checks a get_delta_channel_history: thread_id present.
Status ValidateDeltaHistory(const CheckpointConfig& config);

// Checks list_threads options: limit >= 1.
Status ValidateListThreads(const ListThreadsOptions& options);

// Checks a prune: a known strategy, keep_last >= 1 for kKeepLatest.
Status ValidatePrune(PruneStrategy strategy, size_t keep_last);

// Checks a hide_checkpoint: thread_id and checkpoint_id present, ids within
// limits.
Status ValidateHideCheckpoint(const CheckpointConfig& config,
                              const CheckpointerLimits& limits);

// The NotFound of hide_checkpoint on a checkpoint that does not exist.
// REQUIRES: ValidateHideCheckpoint(config) passed.
Status CheckpointToHideNotFound(const CheckpointConfig& config);

// copy_thread's refusal of a target that already holds checkpoints (hidden
// ones included): InvalidArgument naming the target. Every backend checks
// this under the same lock or transaction as the copy, so nothing is
// written when it fails.
Status CopyTargetNotEmpty(std::string_view target);

// True if every top-level key of `filter` (a map) is in `metadata` with an
// equal value. An empty filter matches everything.
bool MetadataMatches(const Metadata& metadata, const Value& filter);

// The stored index of the write at `position` in a put_writes call: the
// channel's special index if it has one, else `position`.
int64_t WriteIndex(std::string_view channel, size_t position);

// The Aborted "store is closed" every call returns after Close.
Status StoreClosedError();

// config.checkpoint_ns, or "" when absent.
inline std::string_view NamespaceOf(const CheckpointConfig& config) {
  return config.checkpoint_ns ? std::string_view(*config.checkpoint_ns)
                              : std::string_view();
}

// The metadata "run_id" as a string, or "" if absent or not a string.
std::string RunIdOf(const Metadata& metadata);

}  // namespace rockpoint
