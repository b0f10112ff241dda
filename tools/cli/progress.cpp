// Progress: a rewritten stderr line when stderr is a terminal.
#include "tools/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace rockpoint::cli {

Progress::Progress(std::string label)
    : label_(std::move(label)), enabled_(::isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void Progress::Update(uint64_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[K%s: %llu", label_.c_str(),
               static_cast<unsigned long long>(done));
}

}  // namespace rockpoint::cli
