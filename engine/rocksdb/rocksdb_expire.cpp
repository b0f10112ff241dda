// expire: one retention pass over some threads, one WriteBatch computed at
// one snapshot while the threads' stripe locks are held, so a put waits
// for it or lands before its snapshot (and is judged by the rule).
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/retention_rule.h"
#include "engine/rocksdb/retention_family.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/validation.h"

namespace rockpoint {
namespace {

using Impl = RocksDbCheckpointer::Impl;

std::vector<AgedCheckpoint> AgedNewestFirst(const Family& family) {
  std::vector<AgedCheckpoint> aged;
  for (auto it = family.records.rbegin(); it != family.records.rend(); ++it) {
    if (!it->second.header.hidden) aged.push_back({it->first, it->second.ts});
  }
  return aged;
}

// Adds `rule`'s pass over `thread` to `batch` and `report`.
Status AddExpireThread(Impl& impl, const rocksdb::ReadOptions& read,
                       std::string_view thread, const ExpiryRule& rule,
                       rocksdb::WriteBatch& batch, RetentionReport& report) {
  RP_ASSIGN_OR_RETURN(auto namespaces, impl.Namespaces(read, thread));
  if (namespaces.empty()) return Status::OK();
  std::vector<Family> families;
  std::vector<std::string_view> newest_ts;
  for (const std::string& ns : namespaces) {
    RP_ASSIGN_OR_RETURN(Family family, LoadFamily(impl, read, thread, ns));
    families.push_back(std::move(family));
    const std::vector<AgedCheckpoint> aged = AgedNewestFirst(families.back());
    if (!aged.empty()) newest_ts.push_back(aged.front().ts);
  }
  ++report.threads_examined;
  const bool idle = ThreadIsIdle(newest_ts, rule);
  bool any_visible = false;
  for (const Family& family : families) {
    const std::vector<AgedCheckpoint> aged = AgedNewestFirst(family);
    const std::set<std::string> survivors = SurvivorsOf(aged, idle, rule);
    any_visible = any_visible || !survivors.empty();
    if (survivors.size() == aged.size()) continue;
    report.checkpoints_expired += aged.size() - survivors.size();
    const std::set<std::string> needed = NeededBy(family, survivors);
    for (const AgedCheckpoint& checkpoint : aged) {
      const std::string id(checkpoint.id);
      if (!survivors.contains(id) && needed.contains(id)) {
        ++report.checkpoints_hidden;
      }
    }
    RP_RETURN_IF_ERROR(
        AddRetention(impl, read, family, survivors, batch, &report.bytes));
  }
  if (!newest_ts.empty() && !any_visible) ++report.threads_emptied;
  return Status::OK();
}

}  // namespace

Result<RetentionReport> Impl::Expire(const std::vector<std::string>& thread_ids,
                                     const ExpiryRule& rule) {
  RP_RETURN_IF_ERROR(rule.dry_run ? Status::OK() : CheckWritable());
  RP_RETURN_IF_ERROR(ValidateExpiryRule(rule));
  const std::set<std::string_view> threads(thread_ids.begin(),
                                           thread_ids.end());
  auto guard =
      locks.Lock(std::vector<std::string_view>(threads.begin(), threads.end()));
  ScopedSnapshot snapshot(db.get());
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

Result<RetentionReport> RocksDbCheckpointer::Expire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  if (!impl_) return StoreClosedError();
  return impl_->Expire(thread_ids, rule);
}

}  // namespace rockpoint
