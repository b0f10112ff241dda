#include "rockpoint/retention_checkpointer.h"

#include <chrono>
#include <thread>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/retention_rule.h"

namespace rockpoint {

// The sweeper's state. `mu` guards the stop flag and the stats; a sweep
// runs without it, so stats and Close never wait on a sweep's I/O except to
// join the thread.
struct RetentionCheckpointer::Sweeper {
  base::Mutex mu;
  base::CondVar wake;
  bool stopping GUARDED_BY(mu) = false;
  SweeperStats stats GUARDED_BY(mu);
  std::thread thread;

  void Record(const Result<RetentionReport>& result) {
    base::MutexLock lock(&mu);
    ++stats.sweeps;
    stats.last_status = result.status();
    if (result.ok()) {
      stats.expired += *result;
    } else {
      ++stats.failed_sweeps;
    }
  }

  // Waits one interval; false when stopped meanwhile.
  bool WaitInterval(std::chrono::milliseconds interval) {
    const auto deadline = std::chrono::steady_clock::now() + interval;
    base::MutexLock lock(&mu);
    while (!stopping) {
      if (!wake.WaitUntil(&mu, deadline)) return !stopping;
    }
    return false;
  }
};

RetentionCheckpointer::RetentionCheckpointer(
    std::unique_ptr<Checkpointer> target, RetentionOptions options)
    : ForwardingCheckpointer(std::move(target)),
      options_(std::move(options)),
      sweeper_(std::make_unique<Sweeper>()) {}

RetentionCheckpointer::RetentionCheckpointer(Checkpointer* target,
                                             RetentionOptions options)
    : ForwardingCheckpointer(target),
      options_(std::move(options)),
      sweeper_(std::make_unique<Sweeper>()) {}

Result<RetentionOptions> RetentionCheckpointer::Checked(
    const Checkpointer* target, RetentionOptions options) {
  RP_RETURN_IF_ERROR(ValidateRetentionPolicy(options.policy));
  if (target == nullptr) return Status::InvalidArgument("target is null");
  if (!options.clock) options.clock = [] { return RetentionClock::now(); };
  return options;
}

void RetentionCheckpointer::StartSweeper() {
  if (!options_.start_sweeper) return;
  sweeper_->thread = std::thread([this] {
    while (sweeper_->WaitInterval(options_.policy.sweep_interval)) {
      (void)SweepNow();
    }
  });
}

Result<std::unique_ptr<RetentionCheckpointer>> RetentionCheckpointer::Wrap(
    std::unique_ptr<Checkpointer> target, RetentionOptions options) {
  RP_ASSIGN_OR_RETURN(options, Checked(target.get(), std::move(options)));
  std::unique_ptr<RetentionCheckpointer> wrapper(
      new RetentionCheckpointer(std::move(target), std::move(options)));
  wrapper->StartSweeper();
  return wrapper;
}

Result<std::unique_ptr<RetentionCheckpointer>> RetentionCheckpointer::Wrap(
    Checkpointer* target, RetentionOptions options) {
  RP_ASSIGN_OR_RETURN(options, Checked(target, std::move(options)));
  std::unique_ptr<RetentionCheckpointer> wrapper(
      new RetentionCheckpointer(target, std::move(options)));
  wrapper->StartSweeper();
  return wrapper;
}

RetentionCheckpointer::~RetentionCheckpointer() { StopSweeper(); }

Result<RetentionReport> RetentionCheckpointer::Sweep(RetentionTime now,
                                                     bool dry_run) {
  Result<RetentionReport> result =
      SweepInBatches(*this, options_.policy, now, dry_run, [this] {
        base::MutexLock lock(&sweeper_->mu);
        return sweeper_->stopping;
      });
  if (!dry_run) sweeper_->Record(result);
  return result;
}

Result<RetentionReport> RetentionCheckpointer::SweepNow(bool dry_run) {
  return Sweep(options_.clock(), dry_run);
}

SweeperStats RetentionCheckpointer::sweeper_stats() const {
  base::MutexLock lock(&sweeper_->mu);
  return sweeper_->stats;
}

void RetentionCheckpointer::StopSweeper() {
  {
    base::MutexLock lock(&sweeper_->mu);
    sweeper_->stopping = true;
  }
  sweeper_->wake.SignalAll();
  if (sweeper_->thread.joinable()) sweeper_->thread.join();
}

Status RetentionCheckpointer::DoClose() {
  StopSweeper();
  return ForwardingCheckpointer::DoClose();
}

}  // namespace rockpoint
