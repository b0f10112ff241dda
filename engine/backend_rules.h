// Rules every backend applies the same way, so that all of them answer with
// the same status and message and order writes the same way. (Input checks
// are the front's: engine/validation.h.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint {

// `name` quoted for a message: non-printable bytes as \xNN, cut after 64
// bytes, so that a 1 MB or binary id never floods a log.
std::string QuotedForMessage(std::string_view name);

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
