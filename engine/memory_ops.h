// The Checkpointer operations over the memory backend's structures
// (memory_store.h), without locking and without input validation: the
// backends built on them (MemoryCheckpointer, JsonlCheckpointer) get each
// call's input validated by the Checkpointer front (engine/validation.h),
// hold their own lock, and check that the store is open. Errors that
// depend on what is stored (a checkpoint to hide that does not exist, a
// copy target that has checkpoints, a delta history of nothing) are
// returned from here.
//
// Writes are split in two so that a journal can record exactly what a put
// or put_writes stores: Make* derives the records from the call's
// arguments, Apply* stores them, and replaying the same records (or the
// lines of a snapshot, one record at a time) rebuilds the same state.
//
// Thread-safety: none; the caller serializes access to `Threads`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/memory_store.h"
#include "rockpoint/checkpointer.h"

namespace rockpoint::memory {

using Threads = std::map<std::string, Thread>;  // by thread_id.

// The writes whose checkpoint `threads` does not hold, in key order.
std::vector<WriteLocation> FindOrphanWrites(const Threads& threads);

// Where a record goes: (thread, namespace).
struct NamespaceKey {
  std::string thread;
  std::string ns;
};

// What one put stores: a blob per channel of new_versions (the "empty"
// marker for a channel without a value) and the checkpoint record.
struct PutRecord {
  NamespaceKey where;
  std::vector<std::pair<BlobKey, Blob>> blobs;
  StoredCheckpoint checkpoint;
};
// REQUIRES: the arguments passed ValidatePut.
PutRecord MakePutRecord(const CheckpointConfig& config,
                        const Checkpoint& checkpoint, const Metadata& metadata,
                        const ChannelVersions& new_versions);

// What one put_writes stores, keyed by (task_path, task_id, idx).
struct WritesRecord {
  NamespaceKey where;
  std::string checkpoint_id;
  std::vector<std::pair<WriteKey, StoredWrite>> writes;
};
// REQUIRES: the arguments passed ValidatePutWrites.
WritesRecord MakeWritesRecord(const CheckpointConfig& config,
                              const std::vector<ChannelWrite>& writes,
                              std::string_view task_id,
                              std::string_view task_path);

// Each of these returns whether it added a record (rather than replacing
// or ignoring one), which the JSONL backend counts as a live line.

// A stored value is never replaced: a blob whose key exists is ignored.
bool InsertBlob(Threads& threads, const NamespaceKey& where, BlobKey key,
                Blob blob);
// Stores (or replaces) checkpoint `cp.checkpoint.id`.
bool SetCheckpoint(Threads& threads, const NamespaceKey& where,
                   StoredCheckpoint cp);
// A regular write (idx >= 0) whose key exists is ignored; a special one
// (idx < 0) replaces.
bool InsertWrite(Threads& threads, const NamespaceKey& where,
                 const std::string& checkpoint_id, WriteKey key,
                 StoredWrite write);

// The number of records added.
uint64_t ApplyPut(Threads& threads, PutRecord record);
uint64_t ApplyWrites(Threads& threads, WritesRecord record);

std::optional<CheckpointTuple> GetTupleIn(const Threads& threads,
                                          const CheckpointConfig& config);
// REQUIRES: options passed ValidateListOptions.
std::vector<CheckpointTuple> ListIn(const Threads& threads,
                                    const ListOptions& options);
void DeleteThreadIn(Threads& threads, std::string_view thread_id);
void DeleteForRunsIn(Threads& threads, const std::vector<std::string>& runs);
Status CopyThreadIn(Threads& threads, std::string_view source,
                    std::string_view target);
// REQUIRES: config passed ValidateHideCheckpoint.
Status HideCheckpointIn(Threads& threads, const CheckpointConfig& config);
// REQUIRES: ValidatePrune(strategy, keep_last) passed.
void PruneIn(Threads& threads, const std::vector<std::string>& thread_ids,
             PruneStrategy strategy, size_t keep_last);
// The visible checkpoints of one (thread, ns) that a retention pass
// expires.
struct Expired {
  NamespaceKey where;
  std::vector<std::string> ids;
};
// What one pass of `rule` over `thread_ids` expires (appended to `plan`)
// and its report, computed on copies: `threads` is not changed. Bytes
// count values, writes and metadata (msgpack).
// REQUIRES: ValidateExpiryRule(rule) passed.
RetentionReport PlanExpiry(const Threads& threads,
                           const std::vector<std::string>& thread_ids,
                           const ExpiryRule& rule, std::vector<Expired>* plan);
// Expires the checkpoints of `expired` that are still visible: deleted, or
// hidden where the other visible checkpoints' delta histories need them.
void ApplyExpired(Threads& threads, const Expired& expired);
// REQUIRES: config.thread_id.
Result<DeltaHistory> DeltaHistoryIn(const Threads& threads,
                                    const CheckpointConfig& config,
                                    const std::vector<std::string>& channels);
// REQUIRES: options.limit >= 1.
ThreadPage ListThreadsIn(const Threads& threads,
                         const ListThreadsOptions& options);

// A cursor over tuples materialized when List was called.
std::unique_ptr<TupleCursor> MakeSnapshotCursor(
    std::vector<CheckpointTuple> tuples);

}  // namespace rockpoint::memory
