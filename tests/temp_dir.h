// A fresh directory for one test, removed with its contents on destruction.
//
// Thread-safety: none; each object belongs to the thread that made it.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace rockpoint::testing {

// /tmp/rockpoint-<tag>-XXXXXX. The test fails (REQUIRE) if it cannot be made.
class TempDir {
 public:
  explicit TempDir(std::string_view tag = "test") {
    std::string pattern = "/tmp/rockpoint-" + std::string(tag) + "-XXXXXX";
    REQUIRE_MESSAGE(::mkdtemp(pattern.data()) != nullptr,
                    "mkdtemp " << pattern << " failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Always true: construction fails the test otherwise.
  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  // A path inside the directory (not created).
  std::string Sub(std::string_view name) const {
    return path_ + "/" + std::string(name);
  }

 private:
  std::string path_;
};

}  // namespace rockpoint::testing
