// The input checks of the Checkpointer front (engine/checkpointer_front.cpp):
// every backend rejects the same input with the same message because the
// front checks it before a backend sees it. The rules backends apply
// themselves are in engine/backend_rules.h.
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

}  // namespace rockpoint
