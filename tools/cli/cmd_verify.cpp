// `verify`: is the store sound? RocksDB stores get the full raw check of
// VerifyStore (records, payloads, indexes, parents, orphan writes); other
// backends the checks the Checkpointer interface allows (every checkpoint
// and payload decodes, every parent is present, thread counts agree with
// the checkpoints) and the backend's scan for orphan writes. Exit status 0
// when sound, 2 when not (1: could not check).
#include <map>
#include <set>
#include <tuple>

#include "engine/rocksdb/rocksdb_maintenance.h"
#include "rockpoint/jsonl_checkpointer.h"
#include "rockpoint/msgpack_codec.h"
#include "tools/cli/command_util.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress.h"

namespace rockpoint::cli {
namespace {

void Report(VerifyReport& report, std::string severity, std::string check,
            std::string key, std::string detail) {
  (severity == "error" ? report.errors : report.warnings)++;
  if (report.problems.size() < VerifyReport::kMaxProblems) {
    report.problems.push_back({std::move(severity), std::move(check),
                               std::move(key), std::move(detail)});
  }
}

std::string Where(const std::string& thread, const std::string& ns,
                  const std::string& id) {
  return "thread " + Printable(thread) + " ns " + Printable(ns) +
         " checkpoint " + Printable(id);
}

void CheckPayload(VerifyReport& report, const TypedValue& payload,
                  const std::string& where, const std::string& what) {
  if (payload.type == serde::kMsgpackType && !DecodePayload(payload)) {
    Report(report, "error", "payload-decodes", where,
           what + " of type msgpack does not decode");
  }
}

// The interface-level check, for SQLite and JSONL stores.
Result<VerifyReport> VerifyThroughInterface(Checkpointer& store,
                                            const ProgressFn& progress) {
  VerifyReport report;
  RP_ASSIGN_OR_RETURN(std::vector<ThreadInfo> threads, AllThreads(store));
  uint64_t seen = 0;
  for (const ThreadInfo& thread : threads) {
    std::map<std::string, uint64_t> counted;  // visible, by namespace.
    std::set<std::pair<std::string, std::string>> present;  // (ns, id)
    std::vector<std::tuple<std::string, std::string, std::string>> parents;
    ListOptions options;
    options.config =
        CheckpointConfig{thread.thread_id, std::nullopt, std::nullopt};
    options.include_hidden = true;
    RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor,
                        store.List(options));
    while (true) {
      auto next = cursor->Next();
      if (!next.ok()) {
        Report(report, "error", "record-decodes",
               "thread " + Printable(thread.thread_id),
               next.status().ToString());
        break;
      }
      if (!*next) break;
      const CheckpointTuple& tuple = **next;
      const std::string ns = tuple.config.checkpoint_ns.value_or("");
      const std::string where =
          Where(thread.thread_id, ns, tuple.checkpoint.id);
      ++report.checkpoints;
      if (tuple.hidden) {
        ++report.hidden_checkpoints;
      } else {
        ++counted[ns];
      }
      present.emplace(ns, tuple.checkpoint.id);
      for (const auto& [channel, value] : tuple.checkpoint.channel_values) {
        CheckPayload(report, value, where, "value of " + Printable(channel));
      }
      for (const PendingWrite& write : tuple.pending_writes) {
        ++report.writes;
        CheckPayload(report, write.value, where,
                     "write of task " + Printable(write.task_id));
      }
      if (tuple.parent_config && tuple.parent_config->checkpoint_id) {
        parents.emplace_back(ns, *tuple.parent_config->checkpoint_id, where);
      }
      if (progress) progress(++seen);
    }
    for (const auto& [ns, parent, where] : parents) {
      if (present.contains({ns, parent})) continue;
      Report(report, "warning", "parent-present", where,
             "parent " + Printable(parent) +
                 " is not in the store (deleted by delete-runs or prune; "
                 "nothing read through it)");
    }
    for (const NamespaceInfo& info : thread.namespaces) {
      if (counted[info.checkpoint_ns] != info.checkpoint_count) {
        Report(report, "error", "thread-index",
               "thread " + Printable(thread.thread_id) + " ns " +
                   Printable(info.checkpoint_ns),
               "threads lists " + std::to_string(info.checkpoint_count) +
                   " checkpoints, list returns " +
                   std::to_string(counted[info.checkpoint_ns]));
      }
    }
  }
  return report;
}

// The writes of checkpoints the store does not hold, which no interface
// call reaches: the backend finds them.
Status ReportOrphanWrites(Store& store, VerifyReport& report) {
  RP_ASSIGN_OR_RETURN(std::vector<WriteLocation> orphans,
                      store.FindOrphanWrites());
  for (const WriteLocation& write : orphans) {
    ++report.writes;
    Report(report, "warning", "write-has-checkpoint",
           Where(write.thread_id, write.checkpoint_ns, write.checkpoint_id) +
               " task " + Printable(write.task_id) + " idx " +
               std::to_string(write.idx),
           "a write of a checkpoint that has no record (put_writes "
           "without put, or a lost record)");
  }
  return Status::OK();
}

// A JSONL journal's torn tail (an interrupted append: never acknowledged,
// ignored by reads) is a warning; `torn_tail_bytes` and
// `torn_tail_bytes_cut` go into the report document.
Status CheckJournalTail(JsonlCheckpointer& journal, const std::string& path,
                        VerifyReport& report, Json& figures) {
  RP_ASSIGN_OR_RETURN(const JsonlStats stats, journal.Stats());
  figures["torn_tail_bytes"] = stats.torn_tail_bytes;
  figures["torn_tail_bytes_cut"] = stats.torn_tail_bytes_cut;
  if (stats.torn_tail_bytes > 0) {
    Report(report, "warning", "journal-torn-tail", path,
           std::to_string(stats.torn_tail_bytes) +
               " bytes after the last commit line (an interrupted append, "
               "never acknowledged; reads ignore them, a writer cuts them)");
  }
  return Status::OK();
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
    Json journal_figures = Json::object();
    if (store.rocksdb() != nullptr) {
      RP_ASSIGN_OR_RETURN(report, VerifyStore(*store.rocksdb(), progress.Fn()));
    } else {
      RP_ASSIGN_OR_RETURN(
          report, VerifyThroughInterface(store.checkpointer(), progress.Fn()));
      RP_RETURN_IF_ERROR(ReportOrphanWrites(store, report));
    }
    if (store.jsonl() != nullptr) {
      RP_RETURN_IF_ERROR(CheckJournalTail(*store.jsonl(), store.path(), report,
                                          journal_figures));
    }
    if (!quiet_) {
      Json doc = Json::object();
      doc["sound"] = report.sound();
      doc["backend"] = BackendName(store.backend());
      doc["checkpoints"] = report.checkpoints;
      doc["hidden_checkpoints"] = report.hidden_checkpoints;
      if (store.rocksdb() != nullptr) {
        doc["blobs"] = report.blobs;
        doc["index_entries"] = report.index_entries;
      }
      doc["writes"] = report.writes;
      doc.update(journal_figures);
      doc["errors"] = report.errors;
      doc["warnings"] = report.warnings;
      Json problems = Json::array();
      for (const VerifyProblem& problem : report.problems) {
        Json row = Json::object();
        row["severity"] = problem.severity;
        row["check"] = problem.check;
        row["key"] = TextToJson(problem.key);
        row["detail"] = TextToJson(problem.detail);
        problems.push_back(std::move(row));
      }
      doc["problems"] = std::move(problems);
      context.Print(Output::Document(std::move(doc)));
    }
    return report.sound() ? kExitOk : kExitUnsound;
  }

 private:
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeVerifyCommand() {
  return std::make_unique<VerifyCommand>();
}

}  // namespace rockpoint::cli
