#include "tools/cli/retention_flags.h"

#include <unistd.h>

#include "formats/json_text.h"
#include "tools/cli/command_util.h"

namespace rockpoint::cli {
namespace {

Result<std::chrono::seconds> Duration(const std::string& flag,
                                      const std::string& text) {
  const auto duration = ParseRetentionDuration(text);
  if (!duration) {
    return Status::InvalidArgument(
        flag +
        ": must be a whole number and a unit (s, m, h, d, w), e.g. "
        "30d, not \"" +
        text + "\"");
  }
  return *duration;
}

}  // namespace

CLI::Option* RetentionFlags::AddTo(CLI::App& app, bool with_keep) {
  app.add_option("--older-than", older_than,
                 "Expire checkpoints older than this (e.g. 30d, 12h)");
  app.add_option("--idle", idle,
                 "Expire whole threads whose newest checkpoint is older than "
                 "this (e.g. 7d)");
  app.add_option("--now", now,
                 "Apply the policy as of this ISO-8601 time (default: now)");
  if (!with_keep) return nullptr;
  return app
      .add_option("--keep", keep,
                  "Keep the newest N per namespace (with --older-than or "
                  "--idle: never expire those)")
      ->check(CountValidator());
}

Result<RetentionPolicy> RetentionFlags::Policy() const {
  RetentionPolicy policy;
  if (!older_than.empty()) {
    RP_ASSIGN_OR_RETURN(policy.max_age, Duration("--older-than", older_than));
  }
  if (!idle.empty()) {
    RP_ASSIGN_OR_RETURN(policy.max_idle, Duration("--idle", idle));
  }
  if (keep != 0) policy.keep_last = keep;
  return policy;
}

Result<RetentionTime> RetentionFlags::Now() const {
  if (now.empty()) return RetentionClock::now();
  const auto parsed = ParseCheckpointTs(now);
  if (!parsed) {
    return Status::InvalidArgument(
        "--now: must be an ISO-8601 time such as 2026-11-27T12:00:00Z, not \"" +
        now + "\"");
  }
  return *parsed;
}

Result<int> RunRetentionPrune(Context& context,
                              const std::vector<std::string>& threads,
                              const RetentionFlags& flags, bool yes) {
  RP_ASSIGN_OR_RETURN(const RetentionPolicy policy, flags.Policy());
  RP_ASSIGN_OR_RETURN(const RetentionTime now, flags.Now());
  Checkpointer& store = context.store->checkpointer();
  const auto pass = [&](bool dry_run) -> Result<RetentionReport> {
    if (threads.empty()) return store.Sweep(policy, now, dry_run);
    return store.Expire(threads, ExpiryRule::Of(policy, now, dry_run));
  };
  RP_ASSIGN_OR_RETURN(const RetentionReport dry, pass(/*dry_run=*/true));
  bool apply = yes;
  if (!yes && dry.checkpoints_expired > 0 && ::isatty(STDIN_FILENO) == 1) {
    context.Print(Output::Document(RetentionReportJson(dry, true)));
    RP_ASSIGN_OR_RETURN(
        apply, Confirm("Expire " + std::to_string(dry.checkpoints_expired) +
                           " checkpoint(s) in " + context.store->path() + "?",
                       false));
    if (!apply) return Status::Aborted("cancelled; nothing changed");
  }
  if (!apply) {
    context.Print(Output::Document(RetentionReportJson(dry, true)));
    return kExitOk;
  }
  RP_ASSIGN_OR_RETURN(const RetentionReport report, pass(/*dry_run=*/false));
  context.Print(Output::Document(RetentionReportJson(report, false)));
  return kExitOk;
}

formats::Json RetentionReportJson(const RetentionReport& report, bool dry_run) {
  formats::Json doc = formats::Json::object();
  doc["dry_run"] = dry_run;
  doc["threads_examined"] = report.threads_examined;
  doc["threads_emptied"] = report.threads_emptied;
  doc["checkpoints_expired"] = report.checkpoints_expired;
  doc["checkpoints_hidden"] = report.checkpoints_hidden;
  doc["bytes"] = report.bytes;
  return doc;
}

}  // namespace rockpoint::cli
