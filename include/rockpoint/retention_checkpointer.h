// RetentionCheckpointer: a Checkpointer that applies a RetentionPolicy
// (rockpoint/retention.h) to the store under it, on a schedule and on
// demand. Every call is forwarded unchanged; retention happens only in
// sweeps, each a Checkpointer::Sweep of the policy: one Expire per batch of
// policy.sweep_batch_threads threads, so a sweep holds a thread's lock (or
// keeps a transaction open) for one batch at most and writers interleave
// with it.
//
// The sweeper, when started, is a thread that sweeps every
// policy.sweep_interval (the first sweep one interval after the start) until
// Close() or destruction, which stop a sweep in progress after its current
// batch. A failed sweep is recorded in sweeper_stats() and the next one
// runs as scheduled. What a sweep deletes is as durable as the store's
// other writes.
//
// Thread-safety: as the target's; Sweep may run concurrently with every
// other call but Close.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "rockpoint/forwarding_checkpointer.h"
#include "rockpoint/retention.h"

namespace rockpoint {

struct RetentionOptions {
  RetentionPolicy policy;
  // The time sweeps apply the policy at. Default: the system clock.
  std::function<RetentionTime()> clock;
  // Start the sweeper thread. Default: true.
  bool start_sweeper = true;
};

// What the sweeps of a RetentionCheckpointer did so far: the sweeper's
// and those of Sweep / SweepNow (dry runs not counted).
struct SweeperStats {
  uint64_t sweeps = 0;  // completed or failed.
  uint64_t failed_sweeps = 0;
  RetentionReport expired;  // summed over the sweeps that completed.
  Status last_status;       // of the last sweep.
};

class RetentionCheckpointer final : public ForwardingCheckpointer {
 public:
  // Wraps `target` (owned, or borrowed: REQUIRES it outlives the wrapper).
  // InvalidArgument for a policy that ValidateRetentionPolicy refuses.
  static Result<std::unique_ptr<RetentionCheckpointer>> Wrap(
      std::unique_ptr<Checkpointer> target, RetentionOptions options);
  static Result<std::unique_ptr<RetentionCheckpointer>> Wrap(
      Checkpointer* target, RetentionOptions options);
  // Stops the sweeper (waiting for a sweep in progress) and closes.
  ~RetentionCheckpointer() override;

  using Checkpointer::Sweep;

  const RetentionPolicy& policy() const { return options_.policy; }

  // One sweep of the policy at `now`, or at the clock's time.
  Result<RetentionReport> Sweep(RetentionTime now, bool dry_run = false);
  Result<RetentionReport> SweepNow(bool dry_run = false);

  SweeperStats sweeper_stats() const;

 private:
  // Stops the sweeper (waiting for a sweep in progress), then closes the
  // store under it.
  Status DoClose() override;

  struct Sweeper;
  RetentionCheckpointer(std::unique_ptr<Checkpointer> target,
                        RetentionOptions options);
  RetentionCheckpointer(Checkpointer* target, RetentionOptions options);
  // `options` with its default clock, or InvalidArgument.
  static Result<RetentionOptions> Checked(const Checkpointer* target,
                                          RetentionOptions options);
  void StartSweeper();
  void StopSweeper();

  const RetentionOptions options_;
  std::unique_ptr<Sweeper> sweeper_;
};

}  // namespace rockpoint
