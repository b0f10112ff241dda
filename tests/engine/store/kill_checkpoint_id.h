// The id of the i-th checkpoint item_writer_main writes in its "both" mode,
// and store_kill_test.cpp looks for: "c" and `i` in 20 digits, so string
// order is numeric order.
#pragma once

#include <cstdint>
#include <string>

namespace rockpoint::store_testing {

inline std::string KillCheckpointId(int64_t i) {
  const std::string digits = std::to_string(i);
  return "c" + std::string(20 - digits.size(), '0') + digits;
}

}  // namespace rockpoint::store_testing
