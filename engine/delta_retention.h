// The delta-safety walk shared by the persistent backends' prune,
// delete_for_runs and copy_thread (docs/CONTRACT.md, "Delta safety").
//
// For each surviving checkpoint, its unresolved channels are those of its
// channel_versions whose own read yields no value. Walking parent links from
// its parent, every ancestor visited is needed, and a channel closes at the
// first ancestor that stores a value for it (in stored_channels, with a
// non-empty value under its version). The walk stops when every channel is
// closed, at a root, at a missing parent, or on a parent cycle.
//
// Thread-safety: a pure function of its arguments.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "serde/records.h"

namespace rockpoint {

// The header of checkpoint `id` in the (thread, ns) being retained, or
// nullptr when it does not exist.
using HeaderLookup =
    std::function<const serde::CheckpointHeader*(const std::string& id)>;
// True if the value stored under (channel, version) exists and is not
// "empty".
using ValuePresence = std::function<bool(const std::string& channel,
                                         const serde::ChannelVersion& version)>;

// The ancestors the delta histories of `survivors` run through.
std::set<std::string> DeltaNeededAncestors(
    const std::set<std::string>& survivors, const HeaderLookup& header_of,
    const ValuePresence& has_value);

}  // namespace rockpoint
