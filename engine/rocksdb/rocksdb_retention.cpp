// prune, delete_for_runs and copy_thread. Each is one WriteBatch per call
// (atomic across every thread it touches), computed at one snapshot while
// the stripe locks of the touched threads are held; the delta-safety rule
// (retention_family.h) decides what stays hidden.
#include <map>
#include <set>

#include "engine/backend_rules.h"
#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/retention_family.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

Status RocksDbCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                    PruneStrategy strategy, size_t keep_last) {
  const std::set<std::string_view> threads(thread_ids.begin(),
                                           thread_ids.end());
  auto guard =
      locks.Lock(std::vector<std::string_view>(threads.begin(), threads.end()));
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();
  rocksdb::WriteBatch batch;
  for (std::string_view thread : threads) {
    if (strategy == PruneStrategy::kDelete) {
      RP_RETURN_IF_ERROR(AddDeleteThread(read, thread, batch));
      continue;
    }
    RP_ASSIGN_OR_RETURN(auto namespaces, Namespaces(read, thread));
    for (const std::string& ns : namespaces) {
      RP_ASSIGN_OR_RETURN(auto family, LoadFamily(*this, read, thread, ns));
      const std::vector<std::string> visible = family.VisibleNewestFirst();
      const size_t kept = std::min(keep_last, visible.size());
      const std::set<std::string> survivors(visible.begin(),
                                            visible.begin() + kept);
      RP_RETURN_IF_ERROR(AddRetention(*this, read, family, survivors, batch));
    }
  }
  return Write(batch, "prune");
}

Status RocksDbCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  const std::set<std::string> runs(run_ids.begin(), run_ids.end());
  // The (thread, ns) pairs the run index points at. A put racing with this
  // scan on another thread is ordered after the deletion.
  std::set<std::pair<std::string, std::string>> families;
  {
    ScopedSnapshot snapshot(*this);
    for (const std::string& run_id : runs) {
      PrefixScan scan = Scan(index, snapshot.Read(), layout::RunPrefix(run_id));
      for (PrefixScan::Entry entry : scan) {
        RP_ASSIGN_OR_RETURN(auto parts, layout::ParseRunKey(entry.key()));
        families.emplace(std::move(parts.thread), std::move(parts.ns));
      }
      RP_RETURN_IF_ERROR(scan.status("scan run index"));
    }
  }
  if (families.empty()) return Status::OK();

  std::vector<std::string_view> threads;
  for (const auto& [thread, ns] : families) threads.push_back(thread);
  auto guard = locks.Lock(threads);
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();
  rocksdb::WriteBatch batch;
  for (const auto& [thread, ns] : families) {
    RP_ASSIGN_OR_RETURN(auto family, LoadFamily(*this, read, thread, ns));
    std::set<std::string> survivors;
    bool hit = false;
    for (const auto& [id, record] : family.records) {
      if (record.header.hidden) continue;
      const auto run_id = IndexedRunId(record.metadata);
      if (run_id && runs.contains(*run_id)) {
        hit = true;
      } else {
        survivors.insert(id);
      }
    }
    if (!hit) continue;
    RP_RETURN_IF_ERROR(AddRetention(*this, read, family, survivors, batch));
  }
  return Write(batch, "delete_for_runs");
}

namespace {

// True if `thread` has a checkpoint record (hidden or not).
Result<bool> HasRecords(const RocksDbCheckpointer& backend,
                        const rocksdb::ReadOptions& read,
                        std::string_view thread) {
  PrefixScan scan =
      backend.Scan(backend.checkpoints, read,
                   layout::ThreadPrefix(layout::kCheckpointTag, thread));
  scan.SeekToStart();
  const bool found = scan.Valid();
  RP_RETURN_IF_ERROR(scan.status("copy_thread"));
  return found;
}

// Adds to `batch` the copy to `target` (which has no records) of the
// source record `record` under `copy_key` (checkpoint `id` of `ns`) with its
// index entries.
void AddRecordCopy(const RocksDbCheckpointer& backend, std::string_view target,
                   const std::string& ns, const std::string& id,
                   const std::string& copy_key, std::string_view value,
                   const serde::CheckpointRecord& record,
                   rocksdb::WriteBatch& batch) {
  const auto run_id = IndexedRunId(record.metadata);
  batch.Put(backend.checkpoints, copy_key, value);
  batch.Put(backend.index, layout::ThreadKey(target, ns), "");
  if (record.header.hidden) {
    batch.Put(backend.index, layout::HiddenKey(target, ns, id), "");
    batch.Delete(backend.index, layout::TimestampKey(id, target, ns));
  } else {
    batch.Put(backend.index, layout::TimestampKey(id, target, ns), "");
    if (run_id) {
      batch.Put(backend.index, layout::RunKey(*run_id, target, ns, id), "");
    }
  }
}

// Records: copied byte for byte (they do not name their thread; an
// encrypted store re-seals them under the target's keys), with the target's
// index entries and hidden counts.
Status CopyRecords(const RocksDbCheckpointer& backend,
                   const rocksdb::ReadOptions& read, std::string_view source,
                   std::string_view target, rocksdb::WriteBatch& batch) {
  PrefixScan records =
      backend.Scan(backend.checkpoints, read,
                   layout::ThreadPrefix(layout::kCheckpointTag, source));
  std::map<std::string, uint64_t> hidden_counts;  // by namespace
  for (PrefixScan::Entry entry : records) {
    const std::string_view key = entry.key();
    const std::string_view value = entry.value();
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(key));
    RP_ASSIGN_OR_RETURN(auto record, backend.DecodeRecordAt(key, value));
    if (record.header.hidden) ++hidden_counts[parts.ns];
    const std::string copy_key =
        layout::WithThread(key, layout::kCheckpointTag, source, target);
    RP_ASSIGN_OR_RETURN(
        const std::string copy,
        backend.Resealed(key, copy_key, value, "checkpoint record"));
    AddRecordCopy(backend, target, parts.ns, parts.checkpoint_id, copy_key,
                  copy, record, batch);
  }
  for (const auto& [ns, count] : hidden_counts) {
    SetHiddenCount(backend, batch, target, ns, count);
  }
  return records.status("copy_thread");
}

// Blobs: the target ends up with the source's value under each copied key,
// so copies read exactly what the source reads.
Status CopyBlobs(const RocksDbCheckpointer& backend,
                 const rocksdb::ReadOptions& read, std::string_view source,
                 std::string_view target, rocksdb::WriteBatch& batch) {
  PrefixScan values = backend.Scan(
      backend.blobs, read, layout::ThreadPrefix(layout::kBlobTag, source));
  for (PrefixScan::Entry entry : values) {
    const std::string copy_key =
        layout::WithThread(entry.key(), layout::kBlobTag, source, target);
    RP_ASSIGN_OR_RETURN(
        const std::string copy,
        backend.Resealed(entry.key(), copy_key, entry.value(), "blob record"));
    batch.Put(backend.blobs, copy_key, copy);
  }
  return values.status("copy_thread");
}

// Every write key of `thread`.
Result<std::set<std::string>> ReadWriteKeys(const RocksDbCheckpointer& backend,
                                            const rocksdb::ReadOptions& read,
                                            std::string_view thread) {
  std::set<std::string> keys;
  PrefixScan scan = backend.Scan(
      backend.writes, read, layout::ThreadPrefix(layout::kWriteTag, thread));
  for (PrefixScan::Entry entry : scan) keys.emplace(entry.key());
  RP_RETURN_IF_ERROR(scan.status("copy_thread"));
  return keys;
}

// Writes: the source's writes of a checkpoint replace the target's writes
// of that checkpoint as a whole.
Status CopyWrites(const RocksDbCheckpointer& backend,
                  const rocksdb::ReadOptions& read, std::string_view source,
                  std::string_view target, rocksdb::WriteBatch& batch) {
  RP_ASSIGN_OR_RETURN(const std::set<std::string> target_writes,
                      ReadWriteKeys(backend, read, target));
  std::string group;  // WritePrefix of the checkpoint being copied
  PrefixScan pending = backend.Scan(
      backend.writes, read, layout::ThreadPrefix(layout::kWriteTag, source));
  for (PrefixScan::Entry entry : pending) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseWriteKey(key));
    std::string prefix =
        layout::WritePrefix(target, parts.ns, parts.checkpoint_id);
    if (prefix != group) {
      group = std::move(prefix);
      const std::string upper = keys::TuplePrefixUpperBound(group);
      for (auto old = target_writes.lower_bound(group);
           old != target_writes.end() && *old < upper; ++old) {
        batch.Delete(backend.writes, *old);
      }
    }
    const std::string copy_key =
        layout::WithThread(key, layout::kWriteTag, source, target);
    RP_ASSIGN_OR_RETURN(
        const std::string copy,
        backend.Resealed(key, copy_key, entry.value(), "write record"));
    batch.Put(backend.writes, copy_key, copy);
  }
  return pending.status("copy_thread");
}

}  // namespace

Status RocksDbCheckpointer::DoCopyThread(std::string_view source,
                                         std::string_view target) {
  auto guard = locks.Lock({source, target});
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();
  RP_ASSIGN_OR_RETURN(const bool target_has_records,
                      HasRecords(*this, read, target));
  if (target_has_records) return CopyTargetNotEmpty(target);
  rocksdb::WriteBatch batch;
  RP_RETURN_IF_ERROR(CopyRecords(*this, read, source, target, batch));
  RP_RETURN_IF_ERROR(CopyBlobs(*this, read, source, target, batch));
  RP_RETURN_IF_ERROR(CopyWrites(*this, read, source, target, batch));
  return Write(batch, "copy_thread");
}

}  // namespace rockpoint
