// expire: one retention pass in one transaction, a write transaction
// (BEGIN IMMEDIATE) that applies it, or for a dry run a read transaction
// that only plans it (so a read-only store can be asked what would go).
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/retention_rule.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

// A visible checkpoint's id and ts.
struct Visible {
  std::string id;
  std::string ts;
};

// The visible checkpoints of `thread_id` by namespace, newest first.
Result<std::map<std::string, std::vector<Visible>>> ReadVisible(
    Database* db, const std::string& thread_id) {
  std::map<std::string, std::vector<Visible>> visible;
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT checkpoint_ns, checkpoint_id, ts FROM checkpoints "
                  "WHERE thread_id = ?1 AND hidden = 0 "
                  "ORDER BY checkpoint_ns, checkpoint_id DESC"));
  select.BindBytes(1, thread_id);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    visible[select.ColumnString(0)].push_back(
        Visible{select.ColumnString(1), select.ColumnString(2)});
  }
  return visible;
}

// The sum `sql` selects for ?1 thread, ?2 ns and ?3, ?4 from `bind`.
template <typename Bind>
Result<uint64_t> SumOf(Database* db, const char* sql, std::string_view thread,
                       std::string_view ns, const Bind& bind) {
  RP_ASSIGN_OR_RETURN(Statement select, db->Prepare(sql));
  select.BindBytes(1, thread);
  select.BindBytes(2, ns);
  bind(select);
  RP_ASSIGN_OR_RETURN(bool row, select.Step());
  return row ? static_cast<uint64_t>(select.ColumnInt(0)) : 0;
}

}  // namespace

Result<uint64_t> SqliteCheckpointer::PlannedBytes(
    std::string_view thread_id, std::string_view checkpoint_ns,
    const RetentionPlan& plan) {
  uint64_t bytes = 0;
  for (const std::string& id : plan.remove) {
    const auto bind_id = [&](Statement& select) { select.BindBytes(3, id); };
    RP_ASSIGN_OR_RETURN(
        uint64_t record,
        SumOf(db(),
              "SELECT coalesce(sum(length(checkpoint_id) + length(checkpoint) "
              "+ length(metadata)), 0) FROM checkpoints WHERE thread_id = ?1 "
              "AND checkpoint_ns = ?2 AND checkpoint_id = ?3",
              thread_id, checkpoint_ns, bind_id));
    RP_ASSIGN_OR_RETURN(
        uint64_t writes,
        SumOf(db(),
              "SELECT coalesce(sum(length(task_id) + length(value)), 0) FROM "
              "checkpoint_writes WHERE thread_id = ?1 AND checkpoint_ns = ?2 "
              "AND checkpoint_id = ?3",
              thread_id, checkpoint_ns, bind_id));
    bytes += record + writes;
  }
  for (const auto& [channel, version] : plan.remove_blobs) {
    RP_ASSIGN_OR_RETURN(
        uint64_t blob,
        SumOf(db(),
              "SELECT coalesce(sum(length(channel) + coalesce(length(blob), "
              "0)), 0) FROM checkpoint_blobs WHERE thread_id = ?1 AND "
              "checkpoint_ns = ?2 AND channel = ?3 AND version = ?4",
              thread_id, checkpoint_ns, [&](Statement& select) {
                select.BindBytes(3, channel);
                select.BindVersion(4, version);
              }));
    bytes += blob;
  }
  return bytes;
}

Result<RetentionReport> SqliteCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  base::MutexLock lock(&mu_);
  RetentionReport report;
  if (thread_ids.empty()) return report;
  RP_ASSIGN_OR_RETURN(Transaction txn, rule.dry_run
                                           ? Transaction::BeginRead(db())
                                           : Transaction::BeginWrite(db()));
  for (const std::string& thread_id :
       std::set<std::string>(thread_ids.begin(), thread_ids.end())) {
    RP_ASSIGN_OR_RETURN(const auto visible, ReadVisible(db(), thread_id));
    std::vector<std::vector<AgedCheckpoint>> aged;
    for (const auto& [ns, checkpoints] : visible) {
      aged.emplace_back();
      for (const Visible& checkpoint : checkpoints) {
        aged.back().push_back({checkpoint.id, checkpoint.ts});
      }
    }
    const std::vector<NamespaceExpiry> plan =
        PlanThreadExpiry(aged, rule, report);
    size_t i = 0;
    for (const auto& [ns, checkpoints] : visible) {
      const std::set<std::string>& expired = plan[i++].expired;
      if (expired.empty()) continue;
      RP_ASSIGN_OR_RETURN(const RetentionPlan retention,
                          PlanRetention(thread_id, ns, expired));
      report.checkpoints_hidden += CountNeeded(
          expired,
          std::set<std::string>(retention.hide.begin(), retention.hide.end()));
      RP_ASSIGN_OR_RETURN(const uint64_t bytes,
                          PlannedBytes(thread_id, ns, retention));
      report.bytes += bytes;
      if (!rule.dry_run) {
        RP_RETURN_IF_ERROR(ApplyRetention(thread_id, ns, retention));
      }
    }
  }
  RP_RETURN_IF_ERROR(txn.Commit());
  return report;
}

}  // namespace rockpoint
