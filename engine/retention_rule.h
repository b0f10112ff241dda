// The retention rule of rockpoint/retention.h as pure functions, shared by
// every backend's Expire: which visible checkpoints of one (thread, ns)
// survive a pass, and whether a thread is idle.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/retention.h"
#include "rockpoint/status.h"

namespace rockpoint {

// A visible checkpoint as the rule sees it.
struct AgedCheckpoint {
  std::string_view id;
  std::string_view ts;
};

// Checks an Expire call's rule: at least one of max_idle, max_age,
// keep_last; no negative duration; keep_last >= 1. InvalidArgument names
// the field.
Status ValidateExpiryRule(const ExpiryRule& rule);

// True when `rule` finds idle a thread whose namespaces' newest visible
// checkpoints have these timestamps: max_idle is set, there is at least
// one, and every one parses and is older than rule.now - max_idle.
bool ThreadIsIdle(const std::vector<std::string_view>& newest_ts_per_ns,
                  const ExpiryRule& rule);

// The ids of `newest_first` (one (thread, ns)'s visible checkpoints, newest
// first) that survive `rule`; `thread_idle` from ThreadIsIdle.
std::set<std::string> SurvivorsOf(
    const std::vector<AgedCheckpoint>& newest_first, bool thread_idle,
    const ExpiryRule& rule);

// Checkpointer::Sweep on `store`, asking `stopping` (when given) before
// each batch: once it says true, the batches done stay applied and the
// sweep returns Aborted "sweep stopped: the store is closing".
Result<RetentionReport> SweepInBatches(Checkpointer& store,
                                       const RetentionPolicy& policy,
                                       RetentionTime now, bool dry_run,
                                       const std::function<bool()>& stopping);

}  // namespace rockpoint
