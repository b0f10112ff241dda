// Where the bench tests find the programs they run.
#pragma once

#include <filesystem>
#include <string>

namespace rockpoint::testing {

// bench/<name> of the build tree that holds this test's build directory
// (ROCKPOINT_TEST_BINARY_DIR), looked for up to three levels up; else the
// path it would have next to the tests.
inline std::filesystem::path BenchProgram(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(ROCKPOINT_TEST_BINARY_DIR);
  for (int up = 0; up < 3 && !dir.empty(); ++up) {
    dir = dir.parent_path();
    const fs::path candidate = dir / "bench" / name;
    if (fs::exists(candidate)) return candidate;
  }
  return fs::path(ROCKPOINT_TEST_BINARY_DIR) / ".." / "bench" / name;
}

}  // namespace rockpoint::testing
