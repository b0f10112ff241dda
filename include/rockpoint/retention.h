// Retention: which checkpoints expire, and what expiring them freed.
//
// A RetentionPolicy says how long checkpoints live. Checkpointer::Expire
// applies one pass of it to some threads, atomically and delta-safely (what
// a surviving checkpoint's delta history needs stays, hidden, as Prune
// keeps it); Checkpointer::Sweep applies it to every thread in bounded
// batches; RetentionCheckpointer (retention_checkpointer.h) holds a policy
// and sweeps on a schedule.
//
// The rule, per (thread, namespace), over its visible checkpoints newest
// first (docs/CONTRACT.md, "Retention"):
//   - max_idle: every checkpoint of a thread expires when the thread's
//     newest visible checkpoint (in any namespace) is older than
//     now - max_idle;
//   - max_age: a checkpoint expires when it is older than now - max_age;
//   - keep_last alone: every checkpoint after the newest keep_last expires;
//     with max_idle or max_age it is a floor instead: the newest keep_last
//     never expire, whatever the other rules say (keep_last wins).
// A checkpoint's age is its `ts` (ISO-8601: "2026-11-22T12:00:00Z",
// fractions of a second and "+hh:mm" offsets allowed, no offset is UTC). A
// checkpoint whose ts does not parse never expires by age, and a thread
// whose newest ts does not parse is never idle.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint {

using RetentionClock = std::chrono::system_clock;
using RetentionTime = RetentionClock::time_point;

struct RetentionPolicy {
  // Delete a thread whose newest checkpoint is older than this. Default:
  // never.
  std::optional<std::chrono::seconds> max_idle;
  // Delete a checkpoint older than this. Default: never.
  std::optional<std::chrono::seconds> max_age;
  // Keep the newest N per (thread, namespace): the cap when it is the only
  // rule, else the floor under the others. Default: unset.
  std::optional<size_t> keep_last;
  // How often a RetentionCheckpointer's sweeper runs a sweep. Default: 10
  // minutes.
  std::chrono::milliseconds sweep_interval = std::chrono::minutes(10);
  // Threads per Expire call of a sweep: the most a sweep holds locks on, or
  // keeps in one transaction, at a time. Default: 64.
  size_t sweep_batch_threads = 64;
};

// InvalidArgument naming the field for a policy that can expire nothing
// ("retention policy sets none of max_idle, max_age and keep_last"), a
// negative duration, keep_last 0, a sweep_interval not above 0 or
// sweep_batch_threads 0.
Status ValidateRetentionPolicy(const RetentionPolicy& policy);

// One pass of a policy at a given time, as Checkpointer::Expire applies it.
struct ExpiryRule {
  RetentionTime now;
  std::optional<std::chrono::seconds> max_idle;
  std::optional<std::chrono::seconds> max_age;
  std::optional<size_t> keep_last;
  // Count what would expire, change nothing.
  bool dry_run = false;

  static ExpiryRule Of(const RetentionPolicy& policy, RetentionTime now,
                       bool dry_run = false) {
    return ExpiryRule{now, policy.max_idle, policy.max_age, policy.keep_last,
                      dry_run};
  }
};

// What an Expire or a Sweep deleted (or, dry, would delete).
struct RetentionReport {
  // Threads looked at.
  uint64_t threads_examined = 0;
  // Threads left with no visible checkpoint (deleted, or holding only
  // hidden checkpoints no survivor needs: none remain).
  uint64_t threads_emptied = 0;
  // Visible checkpoints that expired: deleted, or hidden when a survivor's
  // delta history needs them.
  uint64_t checkpoints_expired = 0;
  // Of those, the ones kept hidden.
  uint64_t checkpoints_hidden = 0;
  // Stored bytes deleted: checkpoint records, channel values and pending
  // writes, each as its backend stores it (before compression; RocksDB and
  // the memory backends: the encoded record, SQLite and PostgreSQL: the
  // columns' bytes).
  uint64_t bytes = 0;

  RetentionReport& operator+=(const RetentionReport& other);
  friend bool operator==(const RetentionReport&,
                         const RetentionReport&) = default;
};

// The instant `ts` names, or nullopt when it is not ISO-8601 as above.
std::optional<RetentionTime> ParseCheckpointTs(std::string_view ts);

// "30d", "12h", "90m", "45s", "2w" (whole numbers) as seconds; nullopt for
// anything else.
std::optional<std::chrono::seconds> ParseRetentionDuration(
    std::string_view text);

}  // namespace rockpoint
