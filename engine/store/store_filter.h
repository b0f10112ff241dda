// Search filters (docs/STORE.md, "Filters"): conditions on an item value's
// top-level fields, all of which must hold.
//
//   {"f": scalar}            f equals the scalar (a missing f equals null)
//   {"f": [a, b]}            f is an array equal element by element
//   {"f": {"$op": v, ...}}   every operator holds: $eq $ne $gt $gte $lt $lte
//   {"f": {"g": ...}}        f is a map whose fields match the same way
//
// Equality is JSON's: numbers compare by value (1 == 1.0), a bool is never
// a number, maps and arrays compare deeply. $gt $gte $lt $lte compare two
// numbers or two strings (by bytes); any other pair, a missing field
// included, does not match.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "rockpoint/status.h"
#include "rockpoint/value.h"

namespace rockpoint::store_internal {

// InvalidArgument for an operator map with a key that is not one of the six
// operators, at any depth.
Status ValidateFilter(const serde::Value::Map& filter);

// Whether the map `value` matches `filter`. REQUIRES: ValidateFilter(filter)
// is OK.
bool MatchesFilter(const serde::Value& value, const serde::Value::Map& filter);

// The same for a value still encoded (msgpack map bytes): decodes only the
// fields the filter names. Corruption when the bytes are not a map.
// REQUIRES: ValidateFilter(filter) is OK.
Result<bool> MatchesFilterEncoded(std::string_view map_bytes,
                                  const serde::Value::Map& filter);

}  // namespace rockpoint::store_internal
