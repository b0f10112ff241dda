// The retention rule of rockpoint/retention.h as pure functions, shared by
// every backend's Expire: which visible checkpoints of one (thread, ns)
// survive a pass, and whether a thread is idle.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <functional>
#include <optional>
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

// The visible checkpoints of one (thread, ns), newest first, from `by_id`
// (a map from checkpoint id, ascending, as every backend keeps them);
// `visible_ts(node)` is a node's ts, or nullopt when the node is hidden.
// The views point into `by_id`.
template <typename ById, typename VisibleTs>
std::vector<AgedCheckpoint> VisibleNewestFirst(const ById& by_id,
                                               const VisibleTs& visible_ts) {
  std::vector<AgedCheckpoint> aged;
  for (auto it = by_id.rbegin(); it != by_id.rend(); ++it) {
    const std::optional<std::string_view> ts = visible_ts(it->second);
    if (ts) aged.push_back({it->first, *ts});
  }
  return aged;
}

// What one Expire pass decides for one namespace of a thread.
struct NamespaceExpiry {
  std::set<std::string> survivors;  // visible, and stay visible
  std::set<std::string> expired;    // visible, and expire
};

// The pass of `rule` over one thread whose namespaces hold `namespaces`
// (each one's visible checkpoints, newest first): one NamespaceExpiry per
// namespace, in the same order. Adds to `report` what the rule alone
// decides: the thread as examined when it has a visible checkpoint, as
// emptied when then none survives, and the expired checkpoints. The caller
// adds checkpoints_hidden (CountNeeded) and bytes as it applies the pass.
std::vector<NamespaceExpiry> PlanThreadExpiry(
    const std::vector<std::vector<AgedCheckpoint>>& namespaces,
    const ExpiryRule& rule, RetentionReport& report);

// How many of `expired` are in `needed` (what survivors' delta histories
// read), so stay stored, hidden.
uint64_t CountNeeded(const std::set<std::string>& expired,
                     const std::set<std::string>& needed);

// Checkpointer::Sweep on `store`, asking `stopping` (when given) before
// each batch: once it says true, the batches done stay applied and the
// sweep returns Aborted "sweep stopped: the store is closing".
Result<RetentionReport> SweepInBatches(Checkpointer& store,
                                       const RetentionPolicy& policy,
                                       RetentionTime now, bool dry_run,
                                       const std::function<bool()>& stopping);

}  // namespace rockpoint
