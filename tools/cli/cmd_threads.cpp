// `threads`: every thread with its namespaces, checkpoint counts and latest
// checkpoint.
#include "formats/json_text.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"

namespace rockpoint::cli {
namespace {

class ThreadsCommand final : public Command {
 public:
  const char* name() const override { return "threads"; }
  const char* help() const override {
    return "List threads: namespaces, checkpoint counts, latest checkpoint";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("--limit", limit_, "Show at most N threads")
        ->check(CountValidator());
  }

  Result<int> Run(Context& context) override {
    Output output = Output::Rows({{"thread", "THREAD"},
                                  {"ns", "NAMESPACE"},
                                  {"checkpoints", "CHECKPOINTS"},
                                  {"latest_checkpoint_id", "LATEST"},
                                  {"latest_ts", "LATEST TS"}});
    ListThreadsOptions options;
    size_t shown = 0;
    while (!limit_ || shown < *limit_) {
      RP_ASSIGN_OR_RETURN(ThreadPage page,
                          context.store->checkpointer().ListThreads(options));
      for (const ThreadInfo& thread : page.threads) {
        if (limit_ && shown == *limit_) break;
        ++shown;
        for (const NamespaceInfo& ns : thread.namespaces) {
          formats::Json row = formats::Json::object();
          row["thread"] = formats::TextToJson(thread.thread_id);
          row["ns"] = formats::TextToJson(ns.checkpoint_ns);
          row["checkpoints"] = ns.checkpoint_count;
          row["latest_checkpoint_id"] =
              formats::TextToJson(ns.latest_checkpoint_id);
          row["latest_ts"] = formats::TextToJson(ns.latest_ts);
          output.rows.push_back(std::move(row));
        }
      }
      if (!page.next_after) break;
      options.after = page.next_after;
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::optional<size_t> limit_;
};

}  // namespace

std::unique_ptr<Command> MakeThreadsCommand() {
  return std::make_unique<ThreadsCommand>();
}

}  // namespace rockpoint::cli
