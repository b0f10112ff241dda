// FUZZ_CHECK: the assertion of the fuzz targets. A failed check prints what
// failed and aborts, which libFuzzer reports as a crash and saves the input
// that caused it. Active in every build type (never compiled out).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rockpoint::fuzz {

[[noreturn]] inline void CheckFailed(const char* file, int line,
                                     const char* condition,
                                     const std::string& detail) {
  std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n%s\n", file, line,
               condition, detail.c_str());
  std::abort();
}

}  // namespace rockpoint::fuzz

// Checks `condition`; on failure prints it and `detail` (a std::string,
// evaluated only then) and aborts.
#define FUZZ_CHECK(condition, detail)                                         \
  do {                                                                        \
    if (!(condition)) {                                                       \
      ::rockpoint::fuzz::CheckFailed(__FILE__, __LINE__, #condition, detail); \
    }                                                                         \
  } while (0)
