// Identifiers the runtime mints: checkpoint ids (time-sortable), task ids
// (deterministic, so a resumed step finds the writes of its finished tasks),
// run ids, task paths, and channel versions.
//
// Thread-safety: every function may be called from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::runtime {

// A UUID-shaped id whose string order is creation order within a process
// and across processes whose clocks move forward: the first 16 hex digits
// are microseconds since the epoch (strictly increasing per process), the
// rest random.
std::string NewCheckpointId();

// A random UUID-shaped id.
std::string NewRunId();

// Now as ISO-8601 UTC with microseconds, e.g. "2024-05-01T12:00:00.123456Z".
std::string NowIso8601();

// The id of the task at `path` in the superstep `step` that starts from
// checkpoint `checkpoint_id` of namespace `ns`. Deterministic: the same
// inputs give the same UUID-shaped id (a 128-bit hash; not a standard UUID
// version).
std::string TaskId(std::string_view checkpoint_id, std::string_view ns,
                   int64_t step, std::string_view node, std::string_view path);

// A fresh id for the writes of one Command (update, goto). Such ids sort
// in creation order, so stored Command writes replay in the order given.
std::string CommandTaskId();
// Command writes use this task path, which sorts before every task's.
inline constexpr std::string_view kCommandTaskPath{};  // ""

// LangGraph's task path strings: "~__pregel_pull, <node>" for a node
// triggered by its channels, "~__pregel_push, <10-digit index>" for a Send.
std::string PullTaskPath(std::string_view node);
std::string PushTaskPath(size_t index);

// Channel version order: ints numerically, strings by bytes (the runtime's
// fixed-width counter makes that numeric), any string above any int.
bool VersionLess(const ChannelVersion& a, const ChannelVersion& b);

// The runtime's next version after `max` (none: the first): a string
// "<32-digit counter>.<16 random digits>" (GetNextVersion). An int `max`
// continues as a string with the same counter.
Result<ChannelVersion> NextVersion(const std::optional<ChannelVersion>& max);

}  // namespace rockpoint::runtime
