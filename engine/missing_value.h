// The rule the persistent backends share for a value record that is not
// there (docs/CONTRACT.md, "A version never stored"): a checkpoint names
// `channel` at `version` but no value is stored under that key. Nothing is
// wrong when no put ever stored that value (a version bumped with nothing,
// or stored by a put that is not this checkpoint's and not an ancestor's);
// the store lost it when the checkpoint's own put stored it, or an ancestor
// holding the same version did (parent links followed while the version
// stays the same). Each backend turns the storer into its Corruption
// message naming its key.
//
// Thread-safety: a pure function of its arguments and what `header_of`
// reads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "serde/records.h"

namespace rockpoint {

// The header of checkpoint `id` in the (thread, ns) being read, nullopt if
// it does not exist, or an error reading it.
using HeaderReader =
    std::function<Result<std::optional<serde::CheckpointHeader>>(
        const std::string& id)>;

// The id of the checkpoint whose put stored the missing value, or nullopt
// when no put shows it was ever stored. `checkpoint_id`, `stored_channels`
// and `parent_id` describe the checkpoint that reads it.
Result<std::optional<std::string>> FindLostValueStorer(
    std::string_view checkpoint_id,
    const std::vector<std::string>& stored_channels,
    const std::optional<std::string>& parent_id, const std::string& channel,
    const serde::ChannelVersion& version, const HeaderReader& header_of);

}  // namespace rockpoint
