// The retention rule shared by every backend's prune, delete_for_runs,
// expire and retention (docs/CONTRACT.md, "Delta safety"): which ancestors
// the surviving checkpoints need.
//
// A survivor needs no ancestor for its values: each is read under its own
// (channel, version), which stays while a remaining checkpoint names it. It
// needs ancestors only for delta history. Its open channels are those of
// its channel_versions whose own read yields no value. Walking parent links
// from its parent, a channel closes at the first ancestor that stores a
// value for it (in stored_channels, with a non-empty value under its
// version); the walk stops when every channel is closed, at a root, at a
// missing parent, or on a parent cycle. A channel is a delta channel there
// when some walked ancestor, up to and including the one that closes it,
// holds a pending write to it: then every ancestor up to that point is
// needed. A channel that no walked ancestor writes (a consumed `__start__`
// or `branch:to:*`: a version bumped with no value and no write) has no
// delta history to keep, so it needs no ancestor.
//
// Thread-safety: a pure function of its arguments.
#pragma once

#include <functional>
#include <map>
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
// True if checkpoint `id` of the (thread, ns) holds a pending write to
// `channel`.
using WritePresence =
    std::function<bool(const std::string& id, const std::string& channel)>;

// The channels each checkpoint's pending writes write to, by checkpoint id:
// what the SQL and RocksDB backends read for a WritePresence.
using WrittenChannels = std::map<std::string, std::set<std::string>>;
// The WritePresence of `written`. REQUIRES: `written` outlives it.
WritePresence WritesIn(const WrittenChannels& written);

// The ancestors the delta histories of `survivors` run through.
std::set<std::string> DeltaNeededAncestors(
    const std::set<std::string>& survivors, const HeaderLookup& header_of,
    const ValuePresence& has_value, const WritePresence& has_write);

}  // namespace rockpoint
