// The retention flags `prune` and `stats` share: --older-than, --idle,
// --keep and --now, read into a RetentionPolicy (rockpoint/retention.h), and
// the JSON form of what a pass expired.
//
// Thread-safety: none needed.
#pragma once

#include <optional>
#include <string>

#include "formats/json_text.h"
#include "rockpoint/retention.h"
#include "tools/cli/command.h"

namespace rockpoint::cli {

struct RetentionFlags {
  std::string older_than;  // e.g. "30d"; empty: not given.
  std::string idle;        // e.g. "7d"; empty: not given.
  size_t keep = 0;         // 0: not given.
  std::string now;         // ISO-8601; empty: the system clock.

  // Adds --older-than, --idle and --now, and --keep when `with_keep`
  // (returned; else nullptr).
  CLI::Option* AddTo(CLI::App& app, bool with_keep);

  // True when --older-than or --idle was given.
  bool ages() const { return !older_than.empty() || !idle.empty(); }
  // True when any of them was given (--now alone is not a policy).
  bool any() const { return ages() || keep != 0; }

  // The policy the flags give; InvalidArgument naming a flag that does not
  // parse.
  Result<RetentionPolicy> Policy() const;
  // The time the policy applies at.
  Result<RetentionTime> Now() const;
};

// `prune`'s retention pass over `threads` (every thread when empty): the
// flags' policy at their time. Without `yes` it is a dry run that prints
// what would go; on a terminal it then asks whether to apply. With `yes`
// (or the answer yes) it applies and prints what went.
Result<int> RunRetentionPrune(Context& context,
                              const std::vector<std::string>& threads,
                              const RetentionFlags& flags, bool yes);

// {"dry_run", "threads_examined", "threads_emptied",
//  "checkpoints_expired", "checkpoints_hidden", "bytes"}.
formats::Json RetentionReportJson(const RetentionReport& report, bool dry_run);

}  // namespace rockpoint::cli
