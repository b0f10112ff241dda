// Store::Front's sweeper: a thread that calls SweepExpired every
// ttl.sweep_interval_minutes until Close.
#include <chrono>

#include "engine/store/store_front.h"

namespace rockpoint {

void Store::Front::StartSweeper() {
  sweeper_ = std::thread([this] { SweeperLoop(); });
}

void Store::Front::StopSweeper() {
  {
    base::MutexLock lock(&sweeper_mu_);
    sweeper_stop_ = true;
  }
  sweeper_wake_.SignalAll();
  if (sweeper_.joinable()) sweeper_.join();
}

void Store::Front::SweeperLoop() {
  const auto interval = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double, std::ratio<60>>(
          *options_.ttl.sweep_interval_minutes));
  for (;;) {
    {
      base::MutexLock lock(&sweeper_mu_);
      const auto deadline = std::chrono::steady_clock::now() + interval;
      while (!sweeper_stop_ && std::chrono::steady_clock::now() < deadline) {
        sweeper_wake_.WaitUntil(&sweeper_mu_, deadline);
      }
      if (sweeper_stop_) return;
    }
    // A failed sweep is retried at the next interval; expired items stay
    // invisible meanwhile.
    (void)SweepExpired();
  }
}

}  // namespace rockpoint
