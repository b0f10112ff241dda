// The put_writes list that stores a task's exported writes again
// (FORMAT_JSONL.md, "Import"): list position i holds the regular write of
// idx i; a position no regular write has (one a special write took when the
// writes were first made) holds a special write again, which replaces
// itself with the same value; the remaining special writes follow.
//
// Thread-safety: pure function.
#pragma once

#include <string>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::formats {

// REQUIRES: distinct idx values; the caller bounds the gaps (the work is
// proportional to the largest idx). InvalidArgument when a gap has no
// special write to fill it.
Result<std::vector<ChannelWrite>> WriteList(
    const std::vector<PendingWrite>& writes, const std::string& task_id);

}  // namespace rockpoint::formats
