// Checkpointer::Sweep: a retention policy over every thread, one Expire
// call per page of ListThreads.
#include <functional>
#include <string>
#include <vector>

#include "engine/retention_rule.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint {

Result<RetentionReport> Checkpointer::Sweep(const RetentionPolicy& policy,
                                            RetentionTime now, bool dry_run) {
  return SweepInBatches(*this, policy, now, dry_run, nullptr);
}

Result<RetentionReport> SweepInBatches(Checkpointer& store,
                                       const RetentionPolicy& policy,
                                       RetentionTime now, bool dry_run,
                                       const std::function<bool()>& stopping) {
  RP_RETURN_IF_ERROR(ValidateRetentionPolicy(policy));
  const ExpiryRule rule = ExpiryRule::Of(policy, now, dry_run);
  RetentionReport report;
  ListThreadsOptions page_options{.after = std::nullopt,
                                  .limit = policy.sweep_batch_threads};
  while (true) {
    if (stopping && stopping()) {
      return Status::Aborted("sweep stopped: the store is closing");
    }
    RP_ASSIGN_OR_RETURN(ThreadPage page, store.ListThreads(page_options));
    std::vector<std::string> batch;
    batch.reserve(page.threads.size());
    for (ThreadInfo& thread : page.threads) {
      batch.push_back(std::move(thread.thread_id));
    }
    if (!batch.empty()) {
      RP_ASSIGN_OR_RETURN(RetentionReport expired, store.Expire(batch, rule));
      report += expired;
    }
    if (!page.next_after) break;
    page_options.after = std::move(page.next_after);
  }
  return report;
}

}  // namespace rockpoint
