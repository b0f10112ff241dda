// The runtime's stored forms (runtime/FORMAT.md; formats/stored_forms.h
// decodes them), as the CLI reads them: a delta snapshot (the full value of
// a delta channel) or an overwrite write (which replaces a reducer
// channel's value instead of being folded in) shows its inner value.
// A delta channel's value at a checkpoint that stores none is its seed (the
// nearest ancestor's stored value) plus the writes of its delta history,
// folded by the channel's reducer. The CLI does not know a graph's
// reducers; it folds only the runtime's AppendReducer (list append), and
// only when the seed is absent, null or an array: any other seed means
// another reducer, and FoldAppend then reports that it cannot fold.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/stored_forms.h"
#include "rockpoint/types.h"
#include "rockpoint/value.h"

namespace rockpoint::cli {

struct Unwrapped {
  Value value;
  formats::StoredForm form = formats::StoredForm::kPlain;
};

// `decoded` without its runtime tag. A tagged value whose data does not
// decode, or any other Ext, is returned as it is (kPlain).
Unwrapped UnwrapRuntimeForm(Value decoded);

// The delta channels of a checkpoint written by the runtime: the keys of
// its metadata's counters_since_delta_snapshot (absent: none).
std::set<std::string> DeltaChannels(const Metadata& metadata);

// `seed` (nullopt: none) with `writes` (decoded, oldest first) folded in as
// AppendReducer does: an array write is appended item by item, any other
// write as one item; an overwrite write replaces the value. nullopt when
// the seed is neither absent, null nor an array (an unknown reducer).
std::optional<Value> FoldAppend(const std::optional<Value>& seed,
                                const std::vector<Value>& writes);

}  // namespace rockpoint::cli
