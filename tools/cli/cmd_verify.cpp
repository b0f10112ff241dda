// `verify`: is the store sound? rockpoint::Verify (rockpoint/maintenance.h):
// RocksDB stores get the full raw check (records, payloads, indexes,
// parents, orphan writes); other backends the checks the Checkpointer calls
// allow (every checkpoint and payload decodes, every parent is present,
// thread counts agree with the checkpoints) and the backend's scan for
// orphan writes; a journal's torn tail is a warning. A RocksDB directory
// that also holds an item store (docs/STORE.md) has it verified too, under
// "item_store". Exit status 0 when both are sound, 2 when not (1: could not
// check).
#include <map>
#include <set>
#include <tuple>

#include "formats/json_text.h"
#include "rockpoint/maintenance.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"
#include "tools/cli/store_subcommand.h"

namespace rockpoint::cli {
namespace {

// A journal's torn tail (an interrupted append: never acknowledged,
// ignored by reads) is a warning; `torn_tail_bytes` and
// `torn_tail_bytes_cut` go into the report document.
void CheckJournalTail(const JsonlStats& stats, const std::string& path,
                      VerifyReport& report, formats::Json& figures) {
  figures["torn_tail_bytes"] = stats.torn_tail_bytes;
  figures["torn_tail_bytes_cut"] = stats.torn_tail_bytes_cut;
  if (stats.torn_tail_bytes > 0) {
    report.Add("warning", "journal-torn-tail", path,
               std::to_string(stats.torn_tail_bytes) +
                   " bytes after the last commit line (an interrupted "
                   "append, never acknowledged; reads ignore them, a writer "
                   "cuts them)");
  }
}

// The report of the item store in the RocksDB directory `url`; nullopt when
// it holds none.
Result<std::optional<StoreVerifyReport>> VerifyItemStore(
    const std::string& url) {
  StoreOpenOptions options;
  options.read_only = true;
  options.create_if_missing = false;
  auto items = OpenStore(url, options);
  if (items.status().IsNotFound()) return std::optional<StoreVerifyReport>();
  RP_RETURN_IF_ERROR(items.status());
  RP_ASSIGN_OR_RETURN(StoreVerifyReport report, (*items)->Verify());
  RP_RETURN_IF_ERROR((*items)->Close());
  return std::optional<StoreVerifyReport>(std::move(report));
}

class VerifyCommand final : public Command {
 public:
  const char* name() const override { return "verify"; }
  const char* help() const override {
    return "Check that every record decodes, indexes and records agree and "
           "parents exist; exit 0 if sound, 2 if not";
  }
  Access access() const override { return Access::kRead; }
  void AddFlags(CLI::App& app) override {
    app.add_flag("--quiet", quiet_, "Print nothing; only the exit status");
  }

  Result<int> Run(Context& context) override {
    Store& store = *context.store;
    Progress progress("verifying");
    VerifyReport report;
    formats::Json journal_figures = formats::Json::object();
    RP_ASSIGN_OR_RETURN(report, Verify(store.checkpointer(), progress.Fn()));
    if (store.backend() == Backend::kJsonl) {
      RP_ASSIGN_OR_RETURN(const StoreFigures figures,
                          Figures(store.checkpointer()));
      CheckJournalTail(*figures.jsonl, store.path(), report, journal_figures);
    }
    std::optional<StoreVerifyReport> items;
    if (store.backend() == Backend::kRocksDb) {
      RP_ASSIGN_OR_RETURN(items, VerifyItemStore(context.globals.store));
    }
    const bool sound = report.sound() && (!items || items->problems.empty());
    if (!quiet_) {
      formats::Json doc = formats::Json::object();
      doc["sound"] = sound;
      doc["backend"] = BackendName(store.backend());
      doc["checkpoints"] = report.checkpoints;
      doc["hidden_checkpoints"] = report.hidden_checkpoints;
      if (store.backend() == Backend::kRocksDb) {
        doc["blobs"] = report.blobs;
        doc["index_entries"] = report.index_entries;
      }
      doc["writes"] = report.writes;
      doc.update(journal_figures);
      doc["errors"] = report.errors;
      doc["warnings"] = report.warnings;
      formats::Json problems = formats::Json::array();
      for (const VerifyProblem& problem : report.problems) {
        formats::Json row = formats::Json::object();
        row["severity"] = problem.severity;
        row["check"] = problem.check;
        row["key"] = formats::TextToJson(problem.key);
        row["detail"] = formats::TextToJson(problem.detail);
        problems.push_back(std::move(row));
      }
      doc["problems"] = std::move(problems);
      if (items) doc["item_store"] = StoreReportToJson(*items);
      context.Print(Output::Document(std::move(doc)));
    }
    return sound ? kExitOk : kExitUnsound;
  }

 private:
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeVerifyCommand() {
  return std::make_unique<VerifyCommand>();
}

}  // namespace rockpoint::cli
