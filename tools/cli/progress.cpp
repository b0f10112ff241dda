// Progress: a rewritten stderr line on a terminal, periodic lines otherwise.
#include "tools/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace rockpoint::cli {

Progress::Progress(std::string label)
    : label_(std::move(label)),
      terminal_(::isatty(STDERR_FILENO) == 1),
      last_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (terminal_ && shown_) std::fputs("\r\033[K", stderr);
}

std::string Progress::Text(uint64_t done) const {
  std::string text = label_ + ": " + std::to_string(done);
  if (total_) text += " of " + std::to_string(*total_);
  return text;
}

void Progress::Update(uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\r\033[K%s", Text(done).c_str());
    return;
  }
  if (now - last_ < kPlainInterval) return;
  last_ = now;
  std::fprintf(stderr, "%s\n", Text(done).c_str());
}

}  // namespace rockpoint::cli
