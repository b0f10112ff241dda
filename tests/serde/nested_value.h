// Deeply nested Values for the nesting-limit tests, built and taken apart
// level by level (no recursion in the helpers themselves).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <utility>

#include "rockpoint/value.h"

namespace rockpoint::serde::testing {

// `levels` arrays nested around `leaf`: [[...[leaf]...]].
inline Value NestedArrays(int levels, Value leaf = Value()) {
  Value value = std::move(leaf);
  for (int level = 0; level < levels; ++level) {
    Value::Array array;
    array.push_back(std::move(value));
    value = Value(std::move(array));
  }
  return value;
}

// `levels` maps nested around `leaf`: {"k": {"k": ... leaf}}.
inline Value NestedMaps(int levels, Value leaf = Value()) {
  Value value = std::move(leaf);
  for (int level = 0; level < levels; ++level) {
    Value::Map map;
    map.emplace("k", std::move(value));
    value = Value(std::move(map));
  }
  return value;
}

// Deep enough that any recursion over the levels overflows an 8 MiB stack
// (a recursive destructor did at 300,000 levels in a RelWithDebInfo build).
inline constexpr int kFarTooDeep = 500'000;

}  // namespace rockpoint::serde::testing
