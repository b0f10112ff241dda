// Walks the top-level entries of an encoded msgpack map without decoding
// them: for each entry, its key (a str) and the exact bytes of its value,
// which DecodeMsgpack can then decode alone. Lets a reader look at a few
// fields of a stored map (the item store's filters) without building the
// whole Value.
//
// Skipping uses no recursion (a count of items still to skip), so any
// nesting is safe.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::serde {

// The length in bytes of the msgpack item at the start of `bytes`.
// Corruption when `bytes` does not start with a whole item.
Result<size_t> MsgpackItemLength(std::string_view bytes);

// Calls visit(key, value_bytes) for each entry of the map that is all of
// `map_bytes`, in stored order, until visit returns false. Corruption when
// `map_bytes` is not exactly one map whose keys are str.
Status ForEachMapEntry(
    std::string_view map_bytes,
    const std::function<bool(std::string_view key, std::string_view value)>&
        visit);

}  // namespace rockpoint::serde
