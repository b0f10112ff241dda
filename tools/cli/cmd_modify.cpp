// Commands that change a store: `copy SRC DST` (a thread), `delete
// THREAD...`, `delete-runs RUN...`, `prune THREAD... [--keep N | --delete]`
// and `prune [THREAD...] --older-than D | --idle D | --keep N` (a retention
// pass, retention_flags.h). The destructive ones ask for confirmation on a
// terminal; --yes for scripts (without it a non-terminal stdin is refused,
// and a retention pass is a dry run).
#include <map>
#include <set>

#include "formats/json_text.h"
#include "formats/printable.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"
#include "tools/cli/retention_flags.h"

namespace rockpoint::cli {
namespace {

// Visible checkpoints per thread, for every thread of the store.
Result<std::map<std::string, uint64_t>> CheckpointCounts(Checkpointer& store) {
  RP_ASSIGN_OR_RETURN(std::vector<ThreadInfo> threads, store.ListAllThreads());
  std::map<std::string, uint64_t> counts;
  for (const ThreadInfo& thread : threads) {
    uint64_t total = 0;
    for (const NamespaceInfo& ns : thread.namespaces) {
      total += ns.checkpoint_count;
    }
    counts[thread.thread_id] = total;
  }
  return counts;
}

uint64_t CountOf(const std::map<std::string, uint64_t>& counts,
                 const std::string& thread) {
  auto found = counts.find(thread);
  return found == counts.end() ? 0 : found->second;
}

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [thread, count] : counts) total += count;
  return total;
}

// The given threads, deduplicated; NotFound for one the store lacks.
Result<std::vector<std::string>> ExistingThreads(
    const std::vector<std::string>& threads,
    const std::map<std::string, uint64_t>& counts) {
  std::set<std::string> unique(threads.begin(), threads.end());
  for (const std::string& thread : unique) {
    if (!counts.contains(thread)) {
      return Status::NotFound("thread not found: " +
                              formats::Printable(thread));
    }
  }
  return std::vector<std::string>(unique.begin(), unique.end());
}

Status Declined() { return Status::Aborted("cancelled; nothing changed"); }

class CopyCommand final : public Command {
 public:
  const char* name() const override { return "copy"; }
  const char* help() const override {
    return "Copy thread SRC (every namespace, same ids) to the new thread DST";
  }
  Access access() const override { return Access::kWrite; }
  void AddFlags(CLI::App& app) override {
    app.add_option("SRC", source_, "Source thread")->required();
    app.add_option("DST", target_, "Target thread (must not exist)")
        ->required();
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds({&source_, &target_}));
    Checkpointer& store = context.store->checkpointer();
    RP_ASSIGN_OR_RETURN(auto counts, CheckpointCounts(store));
    RP_RETURN_IF_ERROR(ExistingThreads({source_}, counts).status());
    if (counts.contains(target_)) {
      return Status::InvalidArgument("target thread " +
                                     formats::Printable(target_) +
                                     " already exists; delete it first");
    }
    RP_RETURN_IF_ERROR(store.CopyThread(source_, target_));
    RP_ASSIGN_OR_RETURN(auto after, CheckpointCounts(store));
    formats::Json doc = formats::Json::object();
    doc["source"] = formats::TextToJson(source_);
    doc["target"] = formats::TextToJson(target_);
    doc["checkpoints"] = CountOf(after, target_);
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  std::string source_;
  std::string target_;
};

class DeleteCommand final : public Command {
 public:
  const char* name() const override { return "delete"; }
  const char* help() const override {
    return "Delete threads: every checkpoint, value and write, all namespaces";
  }
  Access access() const override { return Access::kWrite; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", threads_, "Threads to delete")->required();
    app.add_flag("-y,--yes", yes_, "Do not ask for confirmation");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds(threads_));
    Checkpointer& store = context.store->checkpointer();
    RP_ASSIGN_OR_RETURN(auto counts, CheckpointCounts(store));
    RP_ASSIGN_OR_RETURN(std::vector<std::string> threads,
                        ExistingThreads(threads_, counts));
    uint64_t checkpoints = 0;
    for (const std::string& thread : threads) {
      checkpoints += CountOf(counts, thread);
    }
    RP_ASSIGN_OR_RETURN(
        bool confirmed,
        Confirm("Delete " + std::to_string(threads.size()) +
                    " thread(s) with " + std::to_string(checkpoints) +
                    " checkpoint(s) from " + context.store->path() + "?",
                yes_));
    if (!confirmed) return Declined();
    Progress progress("deleting threads");
    uint64_t done = 0;
    for (const std::string& thread : threads) {
      RP_RETURN_IF_ERROR(store.DeleteThread(thread));
      progress.Update(++done);
    }
    formats::Json doc = formats::Json::object();
    doc["deleted_threads"] = threads.size();
    doc["deleted_checkpoints"] = checkpoints;
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  std::vector<std::string> threads_;
  bool yes_ = false;
};

class DeleteRunsCommand final : public Command {
 public:
  const char* name() const override { return "delete-runs"; }
  const char* help() const override {
    return "Delete every checkpoint whose metadata.run_id is one of RUN... "
           "(ancestors a survivor's delta history needs are kept hidden)";
  }
  Access access() const override { return Access::kWrite; }
  void AddFlags(CLI::App& app) override {
    app.add_option("RUN", runs_, "Run ids")->required();
    app.add_flag("-y,--yes", yes_, "Do not ask for confirmation");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds(runs_));
    Checkpointer& store = context.store->checkpointer();
    RP_ASSIGN_OR_RETURN(
        bool confirmed,
        Confirm("Delete every checkpoint of " + std::to_string(runs_.size()) +
                    " run(s) in every thread of " + context.store->path() + "?",
                yes_));
    if (!confirmed) return Declined();
    RP_ASSIGN_OR_RETURN(auto before, CheckpointCounts(store));
    RP_RETURN_IF_ERROR(store.DeleteForRuns(runs_));
    RP_ASSIGN_OR_RETURN(auto after, CheckpointCounts(store));
    formats::Json doc = formats::Json::object();
    doc["runs"] = runs_.size();
    doc["deleted_checkpoints"] = Total(before) - Total(after);
    context.Print(Output::Document(std::move(doc)));
    return kExitOk;
  }

 private:
  std::vector<std::string> runs_;
  bool yes_ = false;
};

class PruneCommand final : public Command {
 public:
  const char* name() const override { return "prune"; }
  const char* help() const override {
    return "Keep only the newest N checkpoints per namespace of each thread "
           "(--keep, default 1), remove them all (--delete), or expire by "
           "age (--older-than, --idle; every thread unless THREADs are "
           "named; a dry run without --yes)";
  }
  Access access() const override { return Access::kWrite; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", threads_,
                   "Threads to prune (with --older-than, --idle or --keep "
                   "alone: every thread when none is named)");
    CLI::Option* keep = retention_.AddTo(app, /*with_keep=*/true);
    auto* remove = app.add_flag("--delete", delete_,
                                "Remove every checkpoint of the threads");
    keep->excludes(remove);
    app.add_flag("-y,--yes", yes_, "Do not ask for confirmation");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds(threads_));
    if (delete_ && retention_.ages()) {
      return Status::InvalidArgument(
          "--delete excludes --older-than and --idle");
    }
    if (threads_.empty() && (delete_ || !retention_.any())) {
      return Status::InvalidArgument(
          "name the THREADs to prune, or give --older-than, --idle or --keep "
          "to prune every thread");
    }
    Checkpointer& store = context.store->checkpointer();
    RP_ASSIGN_OR_RETURN(auto before, CheckpointCounts(store));
    RP_ASSIGN_OR_RETURN(std::vector<std::string> threads,
                        ExistingThreads(threads_, before));
    if (retention_.ages() || threads_.empty()) {
      return RunRetentionPrune(context, threads, retention_, yes_);
    }
    const size_t keep = retention_.keep == 0 ? 1 : retention_.keep;
    const std::string what = delete_
                                 ? "Remove every checkpoint of"
                                 : "Keep the newest " + std::to_string(keep) +
                                       " checkpoint(s) per namespace of";
    RP_ASSIGN_OR_RETURN(
        bool confirmed,
        Confirm(what + " " + std::to_string(threads.size()) + " thread(s) in " +
                    context.store->path() + "?",
                yes_));
    if (!confirmed) return Declined();
    Progress progress("pruning threads");
    uint64_t done = 0;
    for (const std::string& thread : threads) {
      RP_RETURN_IF_ERROR(store.Prune(
          {thread},
          delete_ ? PruneStrategy::kDelete : PruneStrategy::kKeepLatest, keep));
      progress.Update(++done);
    }
    RP_ASSIGN_OR_RETURN(auto after, CheckpointCounts(store));
    Output output = Output::Rows(
        {{"thread", "THREAD"}, {"before", "BEFORE"}, {"after", "AFTER"}});
    for (const std::string& thread : threads) {
      formats::Json row = formats::Json::object();
      row["thread"] = formats::TextToJson(thread);
      row["before"] = CountOf(before, thread);
      row["after"] = CountOf(after, thread);
      output.rows.push_back(std::move(row));
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::vector<std::string> threads_;
  RetentionFlags retention_;
  bool delete_ = false;
  bool yes_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeCopyCommand() {
  return std::make_unique<CopyCommand>();
}
std::unique_ptr<Command> MakeDeleteCommand() {
  return std::make_unique<DeleteCommand>();
}
std::unique_ptr<Command> MakeDeleteRunsCommand() {
  return std::make_unique<DeleteRunsCommand>();
}
std::unique_ptr<Command> MakePruneCommand() {
  return std::make_unique<PruneCommand>();
}

}  // namespace rockpoint::cli
