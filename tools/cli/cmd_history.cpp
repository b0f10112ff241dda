// `history THREAD`: the thread's checkpoints, newest first, with their
// parent, step, source, counts of values and pending writes; with
// --include-hidden also the ones kept hidden for delta histories, marked.
#include "formats/json_text.h"
#include "formats/printable.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/readable_values.h"

namespace rockpoint::cli {
namespace {

class HistoryCommand final : public Command {
 public:
  const char* name() const override { return "history"; }
  const char* help() const override {
    return "List a thread's checkpoints, newest first";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_option("THREAD", thread_, "Thread id")->required();
    app.add_option("--ns", ns_,
                   "Only this namespace (\"\" is the root graph); default: "
                   "all");
    app.add_option("--limit", limit_, "At most N checkpoints")
        ->check(CountValidator());
    app.add_option("--before", before_,
                   "Only checkpoints with an id below this one");
    app.add_option("--filter", filters_,
                   "Metadata key=value (repeatable; value read as JSON when "
                   "it parses, e.g. step=3)");
    app.add_flag("--include-hidden", include_hidden_,
                 "Also list checkpoints kept hidden for a delta history "
                 "(after prune or delete-runs), with a HIDDEN column");
  }

  Result<int> Run(Context& context) override {
    RP_RETURN_IF_ERROR(context.DecodeIds({&thread_}));
    RP_RETURN_IF_ERROR(context.DecodeIds(ns_));
    RP_RETURN_IF_ERROR(context.DecodeIds(before_));
    ListOptions options;
    options.config = CheckpointConfig{thread_, ns_, std::nullopt};
    RP_ASSIGN_OR_RETURN(options.filter, ParseFilter(filters_));
    if (before_) {
      options.before = CheckpointConfig{thread_, std::nullopt, *before_};
    }
    options.limit = limit_;
    options.include_hidden = include_hidden_;
    RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                        context.store->checkpointer().List(options));
    Output output = Output::Rows({{"checkpoint_id", "CHECKPOINT"},
                                  {"ns", "NAMESPACE"},
                                  {"parent_checkpoint_id", "PARENT"},
                                  {"step", "STEP"},
                                  {"source", "SOURCE"},
                                  {"ts", "TS"},
                                  {"values", "VALUES"},
                                  {"writes", "WRITES"}});
    if (include_hidden_) output.columns.push_back({"hidden", "HIDDEN"});
    while (true) {
      RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple, cursor->Next());
      if (!tuple) break;
      formats::Json row = formats::Json::object();
      row["checkpoint_id"] = formats::TextToJson(tuple->checkpoint.id);
      row["ns"] = formats::TextToJson(tuple->config.checkpoint_ns.value_or(""));
      row["parent_checkpoint_id"] =
          tuple->parent_config && tuple->parent_config->checkpoint_id
              ? formats::TextToJson(*tuple->parent_config->checkpoint_id)
              : formats::Json();
      row["step"] = MetadataField(tuple->metadata, "step");
      row["source"] = MetadataField(tuple->metadata, "source");
      row["ts"] = formats::TextToJson(tuple->checkpoint.ts);
      row["values"] = tuple->checkpoint.channel_values.size();
      row["writes"] = tuple->pending_writes.size();
      if (include_hidden_) row["hidden"] = tuple->hidden;
      if (!context.table()) row["metadata"] = ReadableJson(tuple->metadata);
      output.rows.push_back(std::move(row));
    }
    if (output.rows.empty() && filters_.empty() && !before_) {
      return Status::NotFound(
          "no checkpoints for thread " + formats::Printable(thread_) +
          (ns_ ? " in namespace " + formats::Printable(*ns_) : ""));
    }
    context.Print(output);
    return kExitOk;
  }

 private:
  std::string thread_;
  std::optional<std::string> ns_;
  std::optional<size_t> limit_;
  std::optional<std::string> before_;
  std::vector<std::string> filters_;
  bool include_hidden_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeHistoryCommand() {
  return std::make_unique<HistoryCommand>();
}

}  // namespace rockpoint::cli
