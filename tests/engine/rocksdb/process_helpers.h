// Helpers for tests that run real processes: a temporary directory removed
// on destruction, and the child process of child_process.h.
//
// Thread-safety: none; each object belongs to the thread that made it.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "engine/rocksdb/child_process.h"

namespace rockpoint::testing {

// A fresh directory /tmp/rockpoint-<tag>-XXXXXX, removed with its contents
// when the object is destroyed. ok() is false if it could not be made.
class TempDir {
 public:
  explicit TempDir(std::string_view tag) {
    std::string pattern = "/tmp/rockpoint-" + std::string(tag) + "-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

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
