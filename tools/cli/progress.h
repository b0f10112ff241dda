// Progress on stderr for long work (export, import, verify, prune). On a
// terminal: one line rewritten in place at most ten times a second, erased
// when the work ends. Otherwise (a log, a pipe): a plain line every
// kPlainInterval, the first after one interval, so that short work prints
// nothing.
//
// Thread-safety: none; owned by the command that reports.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "formats/export_format.h"

namespace rockpoint::cli {

class Progress {
 public:
  static constexpr std::chrono::seconds kPlainInterval{5};

  explicit Progress(std::string label);
  ~Progress();  // erases the terminal line.
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Shown as "done of total" from now on.
  void SetTotal(uint64_t total) { total_ = total; }
  void Update(uint64_t done);
  // A ProgressFn calling Update; valid while this object lives.
  formats::ProgressFn Fn() {
    return [this](uint64_t done) { Update(done); };
  }

 private:
  std::string Text(uint64_t done) const;

  std::string label_;
  bool terminal_;
  bool shown_ = false;
  std::optional<uint64_t> total_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace rockpoint::cli
