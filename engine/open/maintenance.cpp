// The maintenance functions of rockpoint/maintenance.h: each asks the
// store's Maintenance (NotSupported without one); Verify falls back to the
// check through the Checkpointer calls; Rekey goes to the backend's
// (openers.h).
#include "rockpoint/maintenance.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "engine/open/openers.h"
#include "formats/printable.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint {
namespace {

using formats::Printable;

// The store's Maintenance, or NotSupported naming `what`.
Result<Maintenance*> MaintenanceOf(Checkpointer& store, std::string_view what) {
  Maintenance* maintenance = store.maintenance();
  if (maintenance == nullptr) {
    return Status::NotSupported(std::string(what) +
                                " is not supported by this store");
  }
  return maintenance;
}

std::string Where(const std::string& thread, const std::string& ns,
                  const std::string& id) {
  return "thread " + Printable(thread) + " ns " + Printable(ns) +
         " checkpoint " + Printable(id);
}

void CheckPayload(VerifyReport& report, const TypedValue& payload,
                  const std::string& where, const std::string& what) {
  if (payload.type == serde::kMsgpackType &&
      !serde::DecodeMsgpack(payload.bytes).ok()) {
    report.Add("error", "payload-decodes", where,
               what + " of type msgpack does not decode");
  }
}

// One thread's checkpoints (hidden ones too): each decodes with its values
// and writes, each parent is present, and ListThreads' counts agree.
Status VerifyThread(Checkpointer& store, const ThreadInfo& thread,
                    VerifyReport& report, const VerifyProgressFn& progress,
                    uint64_t& seen) {
  std::map<std::string, uint64_t> counted;  // visible, by namespace.
  std::set<std::pair<std::string, std::string>> present;  // (ns, id)
  std::vector<std::tuple<std::string, std::string, std::string>> parents;
  ListOptions options;
  options.config =
      CheckpointConfig{thread.thread_id, std::nullopt, std::nullopt};
  options.include_hidden = true;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor, store.List(options));
  while (true) {
    auto next = cursor->Next();
    if (!next.ok()) {
      report.Add("error", "record-decodes",
                 "thread " + Printable(thread.thread_id),
                 next.status().ToString());
      break;
    }
    if (!*next) break;
    const CheckpointTuple& tuple = **next;
    const std::string ns = tuple.config.checkpoint_ns.value_or("");
    const std::string where = Where(thread.thread_id, ns, tuple.checkpoint.id);
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
    report.Add("warning", "parent-present", where,
               "parent " + Printable(parent) +
                   " is not in the store (deleted by delete-runs or prune; "
                   "nothing read through it)");
  }
  for (const NamespaceInfo& info : thread.namespaces) {
    if (counted[info.checkpoint_ns] != info.checkpoint_count) {
      report.Add("error", "thread-index",
                 "thread " + Printable(thread.thread_id) + " ns " +
                     Printable(info.checkpoint_ns),
                 "threads lists " + std::to_string(info.checkpoint_count) +
                     " checkpoints, list returns " +
                     std::to_string(counted[info.checkpoint_ns]));
    }
  }
  return Status::OK();
}

// The writes of checkpoints the store does not hold, which no Checkpointer
// call reaches, as warnings.
Status ReportOrphanWrites(Checkpointer& store, VerifyReport& report) {
  RP_ASSIGN_OR_RETURN(std::vector<WriteLocation> orphans,
                      FindOrphanWrites(store));
  for (const WriteLocation& write : orphans) {
    ++report.writes;
    report.Add(
        "warning", "write-has-checkpoint",
        Where(write.thread_id, write.checkpoint_ns, write.checkpoint_id) +
            " task " + Printable(write.task_id) + " idx " +
            std::to_string(write.idx),
        "a write of a checkpoint that has no record (put_writes "
        "without put, or a lost record)");
  }
  return Status::OK();
}

Result<VerifyReport> VerifyThroughCalls(Checkpointer& store,
                                        const VerifyProgressFn& progress) {
  VerifyReport report;
  RP_ASSIGN_OR_RETURN(std::vector<ThreadInfo> threads, store.ListAllThreads());
  uint64_t seen = 0;
  for (const ThreadInfo& thread : threads) {
    RP_RETURN_IF_ERROR(VerifyThread(store, thread, report, progress, seen));
  }
  RP_RETURN_IF_ERROR(ReportOrphanWrites(store, report));
  return report;
}

}  // namespace

Result<VerifyReport> Verify(Checkpointer& store,
                            const VerifyProgressFn& progress) {
  if (Maintenance* maintenance = store.maintenance()) {
    Result<VerifyReport> records = maintenance->VerifyRecords(progress);
    if (!records.status().IsNotSupported()) return records;
  }
  return VerifyThroughCalls(store, progress);
}

Result<StoreFigures> Figures(Checkpointer& store) {
  RP_ASSIGN_OR_RETURN(Maintenance * maintenance,
                      MaintenanceOf(store, "figures"));
  return maintenance->Figures();
}

Status Compact(Checkpointer& store) {
  RP_ASSIGN_OR_RETURN(Maintenance * maintenance,
                      MaintenanceOf(store, "compact"));
  return maintenance->Compact();
}

Status ScanRaw(Checkpointer& store, std::string_view column_family,
               std::string_view key_prefix, const RawVisitor& visit) {
  RP_ASSIGN_OR_RETURN(Maintenance * maintenance,
                      MaintenanceOf(store, "a raw scan"));
  return maintenance->ScanRaw(column_family, key_prefix, visit);
}

Result<std::vector<WriteLocation>> FindOrphanWrites(Checkpointer& store) {
  RP_ASSIGN_OR_RETURN(Maintenance * maintenance,
                      MaintenanceOf(store, "an orphan-write scan"));
  return maintenance->FindOrphanWrites();
}

Status Rekey(const StoreLocation& location, const StoreOptions& options,
             const std::optional<EncryptionOptions>& new_encryption) {
  return RekeyBackend(location, options, new_encryption);
}

}  // namespace rockpoint
