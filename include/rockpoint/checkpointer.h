// Checkpointer: the storage contract of docs/CONTRACT.md.
//
// One interface, five backends (MemoryCheckpointer, RocksDbCheckpointer,
// SqliteCheckpointer, JsonlCheckpointer, PostgresCheckpointer), one contract
// suite (tests/engine/contract_*) that all of them pass. Every method validates
// its input first: bad input returns InvalidArgument naming the field and
// writes nothing. A stored record that fails to decode is Corruption naming the
// key. Every multi-key change is atomic: a failed or interrupted call leaves
// the store as it was.
//
// Thread-safety: every backend is safe to call from many threads at once,
// except Close (see there). Calls on one thread_id are linearizable; a call
// returns only after its change is visible to every later call (and, with
// sync writes, durable).
//
// Lifetime: Close() releases the store and reports what closing found;
// afterwards every call returns Aborted "store is closed". The destructor
// closes a store that is still open, dropping the status.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/retention.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint {

class Maintenance;  // rockpoint/maintenance.h

// Limits enforced by every backend before anything is written.
struct CheckpointerLimits {
  // Largest serialized channel value or write, in bytes. Default: 256 MiB.
  size_t max_value_bytes = size_t{256} << 20;
  // Largest thread id, namespace, checkpoint id, channel, task id or task
  // path, in bytes. Default: 16 MiB.
  size_t max_id_bytes = size_t{16} << 20;
};

// Metadata nests at most this many maps and arrays deep (the metadata map
// itself is one): serde::kMaxDepth less the level its stored record wraps
// it in (value.h states the whole nesting rule). Every backend refuses
// deeper metadata with InvalidArgument "metadata nests deeper than 255 maps
// and arrays" before anything is written, however deep it is, so what a
// backend accepts it can read back.
inline constexpr int kMaxMetadataNesting = serde::kMaxDepth - 1;

// Iterates tuples newest first. Obtained from Checkpointer::List; owns what
// it needs (it may hold a storage snapshot), so it stays valid while the
// Checkpointer lives.
// REQUIRES: the cursor is destroyed before its Checkpointer.
class TupleCursor {
 public:
  virtual ~TupleCursor() = default;
  // The next tuple, nullopt at the end, or an error (after which the cursor
  // is at its end).
  virtual Result<std::optional<CheckpointTuple>> Next() = 0;
};

// The hooks of the backend interface (Checkpointer's private section),
// declared once: Checkpointer declares them with
// ROCKPOINT_CHECKPOINTER_HOOKS(virtual, = 0) and every backend overrides
// them all with ROCKPOINT_CHECKPOINTER_HOOKS(, override) in its class body,
// then defines each one. (ForwardingCheckpointer spells them out: it defines
// them inline.)
#define ROCKPOINT_CHECKPOINTER_HOOKS(kVirtual, kEnd)                           \
  kVirtual Result<CheckpointConfig> DoPut(                                     \
      const CheckpointConfig& config, const Checkpoint& checkpoint,            \
      const Metadata& metadata, const ChannelVersions& new_versions) kEnd;     \
  kVirtual Status DoPutWrites(                                                 \
      const CheckpointConfig& config, const std::vector<ChannelWrite>& writes, \
      std::string_view task_id, std::string_view task_path) kEnd;              \
  kVirtual Result<std::optional<CheckpointTuple>> DoGetTuple(                  \
      const CheckpointConfig& config) kEnd;                                    \
  kVirtual Result<std::unique_ptr<TupleCursor>> DoList(                        \
      const ListOptions& options) kEnd;                                        \
  kVirtual Status DoDeleteThread(std::string_view thread_id) kEnd;             \
  kVirtual Status DoDeleteForRuns(const std::vector<std::string>& run_ids)     \
      kEnd;                                                                    \
  kVirtual Status DoCopyThread(std::string_view source,                        \
                               std::string_view target) kEnd;                  \
  kVirtual Status DoHideCheckpoint(const CheckpointConfig& config) kEnd;       \
  kVirtual Status DoPrune(const std::vector<std::string>& thread_ids,          \
                          PruneStrategy strategy, size_t keep_last) kEnd;      \
  kVirtual Result<RetentionReport> DoExpire(                                   \
      const std::vector<std::string>& thread_ids, const ExpiryRule& rule)      \
      kEnd;                                                                    \
  kVirtual Result<DeltaHistory> DoGetDeltaChannelHistory(                      \
      const CheckpointConfig& config,                                          \
      const std::vector<std::string>& channels) kEnd;                          \
  kVirtual Result<ThreadPage> DoListThreads(const ListThreadsOptions& options) \
      kEnd;                                                                    \
  kVirtual Status DoClose() kEnd;

// The front of every store. Its calls are not virtual: each one first does
// what every backend shares, in this order, then hands the call to the
// backend behind it (a private Do* hook):
//   1. a closed store: Aborted "store is closed" (Close itself: OK);
//   2. a write on a store opened read-only: InvalidArgument "store opened
//      read-only: <store name>" (Expire only when not a dry run);
//   3. the input: InvalidArgument naming the field (engine/validation.h),
//      ids and values checked against the store's CheckpointerLimits;
//      GetTuple without a thread_id is nullopt.
// A backend implements the hooks and may assume all three passed. A wrapper
// (ForwardingCheckpointer) is built without checks: the store it wraps does
// them.
class Checkpointer {
 public:
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;
  virtual ~Checkpointer() = default;

  // Stores `checkpoint` as a child of config.checkpoint_id (absent: a root)
  // in (config.thread_id, config.checkpoint_ns or ""). Values are stored only
  // for channels named in `new_versions`, one per (thread, ns, channel,
  // version); a stored value is never replaced. Returns the normalized config
  // {thread_id, checkpoint_ns, checkpoint.id}.
  Result<CheckpointConfig> Put(const CheckpointConfig& config,
                               const Checkpoint& checkpoint,
                               const Metadata& metadata,
                               const ChannelVersions& new_versions);

  // Stores pending writes of `task_id` on config's checkpoint.
  // REQUIRES config.thread_id and config.checkpoint_id.
  // A regular write whose (task_path, task_id, idx) exists is ignored; a
  // special-channel write (see SpecialWriteIndex) replaces.
  Status PutWrites(const CheckpointConfig& config,
                   const std::vector<ChannelWrite>& writes,
                   std::string_view task_id,
                   std::string_view task_path = std::string_view());

  // The checkpoint config.checkpoint_id of (thread, ns), or the latest one
  // when no id is given. nullopt when there is none or thread_id is missing.
  Result<std::optional<CheckpointTuple>> GetTuple(
      const CheckpointConfig& config);

  // Tuples matching `options`, newest (greatest checkpoint_id) first.
  Result<std::unique_ptr<TupleCursor>> List(const ListOptions& options);

  // Removes everything of `thread_id` in every namespace. Unknown: no-op.
  Status DeleteThread(std::string_view thread_id);

  // Deletes every checkpoint whose metadata.run_id is in `run_ids`, keeping
  // out of sight whatever surviving checkpoints' delta histories still need.
  Status DeleteForRuns(const std::vector<std::string>& run_ids);

  // Copies every checkpoint, value and write of `source` to `target`.
  Status CopyThread(std::string_view source, std::string_view target);

  // Hides config's checkpoint, as Prune and DeleteForRuns do with the
  // checkpoints a survivor's delta history runs through: GetTuple, List,
  // ListThreads and delete_for_runs no longer see it, the delta history of
  // its descendants still walks it, and the next Prune or DeleteForRuns that
  // touches its thread deletes it unless a visible checkpoint needs it.
  // Restores exported stores exactly (`rockpoint import`). Hiding a hidden
  // checkpoint is a no-op.
  // REQUIRES config.thread_id and config.checkpoint_id; NotFound if the
  // checkpoint does not exist.
  Status HideCheckpoint(const CheckpointConfig& config);

  // Per (thread, ns): keep the newest `keep_last` checkpoints (and what their
  // delta histories need), or delete everything.
  // REQUIRES: keep_last >= 1 for kKeepLatest.
  Status Prune(const std::vector<std::string>& thread_ids,
               PruneStrategy strategy, size_t keep_last = 1);

  // One pass of `rule` (rockpoint/retention.h) over `thread_ids`: per
  // (thread, ns), the visible checkpoints it expires are deleted, or kept
  // hidden where a surviving checkpoint's delta history needs them, as
  // Prune keeps them. Atomic across all of `thread_ids`: decided and applied
  // at one snapshot while their locks are held (one transaction), so a put
  // that lands during the call is either seen by the rule or untouched.
  // Unknown threads are skipped. With rule.dry_run nothing changes and the
  // report says what would go. InvalidArgument for a rule that
  // ValidateExpiryRule refuses.
  Result<RetentionReport> Expire(const std::vector<std::string>& thread_ids,
                                 const ExpiryRule& rule);

  // Expire of `policy` at `now` over every thread, in thread-id order, one
  // call per policy.sweep_batch_threads threads (ListThreads pages), so a
  // sweep holds a thread's lock for one batch at most. Stops at the first
  // error; the batches before it stay applied.
  Result<RetentionReport> Sweep(const RetentionPolicy& policy,
                                RetentionTime now, bool dry_run = false);

  // For each channel: the writes since the nearest ancestor that stores a
  // value for it (the seed), walking parent links from config's checkpoint's
  // parent. See docs/CONTRACT.md.
  Result<DeltaHistory> GetDeltaChannelHistory(
      const CheckpointConfig& config, const std::vector<std::string>& channels);

  // Threads with their namespaces, counts and latest timestamps, paged.
  Result<ThreadPage> ListThreads(const ListThreadsOptions& options);

  // Makes what was written durable (RocksDB: syncs the WAL), releases the
  // store (files, locks, connection) and returns what closing found (e.g.
  // the IOError of a failed sync). Afterwards every call returns Aborted
  // "store is closed", and Close returns OK. Busy when something still uses
  // the store (a live cursor); the store then stays open and Close may be
  // called again once that is gone.
  // REQUIRES: no other call on this store is in flight.
  Status Close();

  // Convenience: all tuples of List(options), materialized.
  Result<std::vector<CheckpointTuple>> ListAll(const ListOptions& options);

  // Convenience: every page of ListThreads, in thread-id order.
  Result<std::vector<ThreadInfo>> ListAllThreads();

  // The store's maintenance capabilities (rockpoint/maintenance.h, whose
  // functions are the way to use them), or nullptr when its backend has
  // none.
  Maintenance* maintenance() { return DoMaintenance(); }

 protected:
  // What the front checks before a call reaches a backend.
  struct FrontChecks {
    // The limits input is checked against.
    CheckpointerLimits limits;
    // Every write is refused (see the class comment).
    bool read_only = false;
    // How the read-only refusal names the store: its path, or its URL
    // without a password.
    std::string store_name;
  };

  // A backend: the front checks calls against `checks`.
  explicit Checkpointer(FrontChecks checks);
  // A wrapper: the front checks only that it is open; the store it passes
  // calls on to checks the rest.
  Checkpointer();

 private:
  // The backend interface: one hook per call above, with that call's
  // contract. A hook is reached only on an open store, never with a write
  // on a read-only one, and only with input that passed the front's
  // checks. DoClose is reached once per successful close (Busy: again).
  ROCKPOINT_CHECKPOINTER_HOOKS(virtual, = 0)
  // The backend's Maintenance, if it has one. Default: nullptr.
  virtual Maintenance* DoMaintenance() { return nullptr; }

  // Aborted once closed; for a write, InvalidArgument when read-only.
  Status CheckState(bool writes) const;

  // nullopt for a wrapper.
  const std::optional<FrontChecks> checks_;
  // Set by a successful Close. Atomic so that a backend whose Close may
  // run beside other calls (MemoryCheckpointer) stays well defined.
  std::atomic<bool> closed_{false};
};

// The version after `current`: none -> 1, int n -> n + 1, a string
// "<counter>.<suffix>" -> the runtime's format "<32-digit zero-padded
// counter+1>.<16 random digits>". InvalidArgument for a string whose counter
// is not a decimal number.
Result<ChannelVersion> GetNextVersion(
    const std::optional<ChannelVersion>& current);

}  // namespace rockpoint
