// delete_thread: one WriteBatch holding a range deletion per key space of
// the thread (cp, bl, wr, th, hd: each is one contiguous tuple prefix) and
// point deletions of its ts and run index entries, found by scanning the
// thread's records. Range deletions keep the batch small for long threads.
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

Status RocksDbCheckpointer::AddDeleteThread(const rocksdb::ReadOptions& read,
                                            std::string_view thread,
                                            rocksdb::WriteBatch& batch) {
  PrefixScan scan = Scan(checkpoints, read,
                         layout::ThreadPrefix(layout::kCheckpointTag, thread));
  for (PrefixScan::Entry entry : scan) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(key));
    batch.Delete(index,
                 layout::TimestampKey(parts.checkpoint_id, thread, parts.ns));
    // An undecodable record is still deleted; only its run entry (if any)
    // cannot be found, and list/delete_for_runs skip run entries whose
    // record is gone.
    auto record = DecodeRecordAt(key, entry.value());
    if (!record.ok()) continue;
    if (auto run_id = IndexedRunId(record->metadata)) {
      batch.Delete(index, layout::RunKey(*run_id, thread, parts.ns,
                                         parts.checkpoint_id));
    }
  }
  RP_RETURN_IF_ERROR(scan.status("delete_thread"));

  // A range deletion only where the thread has keys: an unknown thread
  // writes nothing. Begin keys are two-element tuples, outside the memtable
  // insert-hint extractors' domain (rocksdb_options.cpp).
  const auto delete_prefix = [&](rocksdb::ColumnFamilyHandle* cf,
                                 std::string_view tag) -> Status {
    PrefixScan keys_of_thread =
        Scan(cf, read, layout::ThreadPrefix(tag, thread));
    keys_of_thread.SeekToStart();
    if (keys_of_thread.Valid()) {
      batch.DeleteRange(cf, keys_of_thread.prefix(),
                        keys_of_thread.upper_bound());
    }
    return keys_of_thread.status("delete_thread");
  };
  RP_RETURN_IF_ERROR(delete_prefix(checkpoints, layout::kCheckpointTag));
  RP_RETURN_IF_ERROR(delete_prefix(blobs, layout::kBlobTag));
  RP_RETURN_IF_ERROR(delete_prefix(writes, layout::kWriteTag));
  RP_RETURN_IF_ERROR(delete_prefix(index, layout::kThreadTag));
  RP_RETURN_IF_ERROR(delete_prefix(index, layout::kHiddenTag));
  return delete_prefix(index, layout::kHiddenCountTag);
}

Status RocksDbCheckpointer::DoDeleteThread(std::string_view thread_id) {
  auto guard = locks.Lock({thread_id});
  ScopedSnapshot snapshot(*this);
  rocksdb::WriteBatch batch;
  RP_RETURN_IF_ERROR(AddDeleteThread(snapshot.Read(), thread_id, batch));
  return Write(batch, "delete_thread");
}

}  // namespace rockpoint
