// hide_checkpoint: one WriteBatch that rewrites the record with
// header.hidden set, removes its ts and run index entries and adds its hd
// entry (and its namespace's hidden count), the state a prune leaves a
// checkpoint it keeps for a delta history.
#include "engine/backend_rules.h"
#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

Status RocksDbCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  const std::string& thread = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);
  const std::string& id = *config.checkpoint_id;
  // Read and rewrite under the stripe lock, so a concurrent put of the same
  // id cannot interleave with the index changes.
  auto guard = locks.Lock({thread});
  RP_ASSIGN_OR_RETURN(auto record,
                      ReadRecord(rocksdb::ReadOptions(), thread, ns, id));
  if (!record) return CheckpointToHideNotFound(config);
  if (record->header.hidden) return Status::OK();
  RP_ASSIGN_OR_RETURN(
      const uint64_t hidden_count,
      ReadHiddenCount(*this, rocksdb::ReadOptions(), thread, ns));
  record->header.hidden = true;
  const std::string key = layout::CheckpointKey(thread, ns, id);
  RP_ASSIGN_OR_RETURN(const std::string stored,
                      Stored(key, serde::EncodeCheckpointRecord(*record)));
  rocksdb::WriteBatch batch;
  batch.Put(checkpoints, key, stored);
  batch.Put(index, layout::HiddenKey(thread, ns, id), "");
  SetHiddenCount(*this, batch, thread, ns, hidden_count + 1);
  batch.Delete(index, layout::TimestampKey(id, thread, ns));
  if (auto run_id = IndexedRunId(record->metadata)) {
    batch.Delete(index, layout::RunKey(*run_id, thread, ns, id));
  }
  return Write(batch, "hide_checkpoint");
}

}  // namespace rockpoint
