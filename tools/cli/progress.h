// Progress on stderr for long work (export, import, verify, prune), shown
// only when stderr is a terminal: one line rewritten in place at most ten
// times a second, erased when the work ends.
//
// Thread-safety: none; owned by the command that reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "tools/cli/export_format.h"

namespace rockpoint::cli {

class Progress {
 public:
  // Enabled iff stderr is a terminal.
  explicit Progress(std::string label);
  ~Progress();  // erases the line.
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void Update(uint64_t done);
  // A ProgressFn calling Update; valid while this object lives.
  ProgressFn Fn() {
    return [this](uint64_t done) { Update(done); };
  }

 private:
  std::string label_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace rockpoint::cli
