// expire: one retention pass over some threads, one WriteBatch computed at
// one snapshot while the threads' stripe locks are held, so a put waits
// for it or lands before its snapshot (and is judged by the rule).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/retention_rule.h"
#include "engine/rocksdb/retention_family.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {
namespace {

// A record's ts when it is visible.
std::optional<std::string_view> VisibleTs(
    const serde::CheckpointRecord& record) {
  if (record.header.hidden) return std::nullopt;
  return record.ts;
}

// Adds `rule`'s pass over `thread` to `batch` and `report`.
Status AddExpireThread(RocksDbCheckpointer& backend,
                       const rocksdb::ReadOptions& read,
                       std::string_view thread, const ExpiryRule& rule,
                       rocksdb::WriteBatch& batch, RetentionReport& report) {
  RP_ASSIGN_OR_RETURN(auto namespaces, backend.Namespaces(read, thread));
  std::vector<Family> families;
  for (const std::string& ns : namespaces) {
    RP_ASSIGN_OR_RETURN(Family family, LoadFamily(backend, read, thread, ns));
    families.push_back(std::move(family));
  }
  std::vector<std::vector<AgedCheckpoint>> aged;
  for (const Family& family : families) {
    aged.push_back(VisibleNewestFirst(family.records, VisibleTs));
  }
  const std::vector<NamespaceExpiry> plan =
      PlanThreadExpiry(aged, rule, report);
  for (size_t i = 0; i < families.size(); ++i) {
    if (plan[i].expired.empty()) continue;
    const std::set<std::string> needed =
        NeededBy(families[i], plan[i].survivors);
    report.checkpoints_hidden += CountNeeded(plan[i].expired, needed);
    RP_RETURN_IF_ERROR(AddRetention(backend, read, families[i],
                                    plan[i].survivors, needed, batch,
                                    &report.bytes));
  }
  return Status::OK();
}

}  // namespace

Result<RetentionReport> RocksDbCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  const std::set<std::string_view> threads(thread_ids.begin(),
                                           thread_ids.end());
  auto guard =
      locks.Lock(std::vector<std::string_view>(threads.begin(), threads.end()));
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();
  rocksdb::WriteBatch batch;
  RetentionReport report;
  for (std::string_view thread : threads) {
    RP_RETURN_IF_ERROR(
        AddExpireThread(*this, read, thread, rule, batch, report));
  }
  if (rule.dry_run || batch.Count() == 0) return report;
  RP_RETURN_IF_ERROR(Write(batch, "expire"));
  return report;
}

}  // namespace rockpoint
