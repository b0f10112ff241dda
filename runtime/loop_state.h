// LoopState: the live state of one (thread, namespace) while a run, an
// update or an inspection works on it: the channels, the current checkpoint
// (versions, versions_seen, metadata), and what was last persisted.
//
// Persistence policy for delta channels (runtime/FORMAT.md): a
// checkpoint may leave a changed delta channel without a value ("empty",
// rebuilt later from its ancestors' writes) only when the writes that
// produced it are exactly the writes stored on its parent. Otherwise (an
// input checkpoint over a parent with discarded writes, an update, a fork,
// a replay, the single checkpoint of a durability=exit run) the full value
// is stored as a snapshot, under a fresh version if needed. Snapshots are
// also stored when the channel's SnapshotPolicy is due (every
// `snapshot_frequency` updates, or size-proportionally) and after an
// Overwrite. Metadata counters_since_delta_snapshot {channel: [updates,
// supersteps]} records the counts since the last snapshot, and for
// geometric-policy channels delta_snapshot_bytes {channel: [write bytes,
// last snapshot bytes]} the byte counts; a restore reads both back, so a
// resumed run continues the policy where the stored checkpoint left it.
//
// Thread-safety: owned by one loop; const methods may be called from the
// tasks of a superstep while the loop waits for them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rockpoint/runtime/async_checkpointer.h"
#include "rockpoint/runtime/channels.h"
#include "runtime/graph_spec.h"

namespace rockpoint::runtime {

// Writes of one task (or of an input / Command / update) to apply.
struct TaskWrites {
  std::string path;
  std::string id;
  // Pull tasks: the trigger channels whose versions `node` has now seen.
  std::string node;
  std::vector<std::string> triggers;
  std::vector<std::pair<std::string, Value>> writes;
};

// One Checkpointer::Put.
struct PutRequest {
  CheckpointConfig config;  // thread, ns, parent id.
  Checkpoint checkpoint;
  Metadata metadata;
  ChannelVersions new_versions;
};

// True for channels that are bookkeeping, not state: __error__,
// __interrupt__, __resume__, __scheduled__, __no_writes__.
bool IsMarkerChannel(std::string_view channel);
inline constexpr std::string_view kNoWritesChannel = "__no_writes__";

class LoopState {
 public:
  using Channels = std::map<std::string, ChannelState, std::less<>>;

  LoopState(const GraphSpec* spec, std::string thread_id, std::string ns);

  // Reads `checkpoint_id` (or the latest) of (thread, ns) and restores from
  // it; false when there is none.
  Awaitable<Result<bool>> Load(AsyncCheckpointer& storage,
                               const std::optional<std::string>& checkpoint_id);
  // Restores from a tuple already read (delta channels still read their
  // history from `storage`).
  Awaitable<Status> Restore(AsyncCheckpointer& storage,
                            const CheckpointTuple& tuple);

  const GraphSpec& spec() const { return *spec_; }
  const std::string& thread_id() const { return thread_id_; }
  const std::string& ns() const { return ns_; }
  bool has_checkpoint() const { return !id_.empty(); }
  const std::string& checkpoint_id() const { return id_; }
  const std::string& ts() const { return ts_; }
  // Metadata "step" of the current checkpoint; -2 before any.
  int64_t step() const { return step_; }
  const Metadata& metadata() const { return metadata_; }
  // Of the restored checkpoint: its pending writes and parent.
  const std::vector<PendingWrite>& loaded_writes() const {
    return loaded_writes_;
  }
  const std::optional<CheckpointConfig>& loaded_parent() const {
    return loaded_parent_;
  }

  const Channels& channels() const { return channels_; }
  const ChannelVersions& versions() const { return versions_; }
  const std::map<std::string, ChannelVersions>& versions_seen() const {
    return versions_seen_;
  }
  // User channels that have a value.
  State UserState() const;

  // Applies writes, tasks sorted by (path, id) and each task's writes in
  // order; changed channels get one new version. With `end_of_step` (a
  // superstep or update finished) pull tasks record their triggers as seen
  // and ephemeral channels not written are cleared. InvalidArgument for a
  // write to an unknown channel or a rejected update.
  Status Apply(std::vector<TaskWrites> tasks, bool end_of_step);

  // Makes a new, not yet persisted, current checkpoint (child of the
  // current one) with metadata {source, step} plus `extra`.
  void BeginCheckpoint(std::string source, int64_t step, Value::Map extra);
  bool current_is_persisted() const {
    return !id_.empty() && id_ == persisted_id_;
  }
  // Writes applied since the persisted checkpoint will not all be stored
  // on it (or stored writes were not applied): the next put snapshots the
  // delta channels they may touch.
  void MarkWritesNotStored() { writes_stored_ = false; }
  // `writes` were stored on the persisted checkpoint.
  void NoteStoredWrites(const std::vector<ChannelWrite>& writes);
  // The put of the current checkpoint; from now on it counts as persisted.
  // REQUIRES: has_checkpoint() && !current_is_persisted().
  Result<PutRequest> BuildPut();

 private:
  void ResetChannels();
  Result<ChannelVersion> FreshVersion() const;
  // delta_ from the metadata of the restored checkpoint.
  void RestoreDeltaCounters();
  // Metadata counters of the delta channels, after a put's snapshots.
  void RecordDeltaCounters();

  const GraphSpec* spec_;
  std::string thread_id_;
  std::string ns_;

  Channels channels_;
  ChannelVersions versions_;
  std::map<std::string, ChannelVersions> versions_seen_;
  std::vector<std::string> updated_channels_;
  std::map<std::string, DeltaSnapshotCounters> delta_;

  std::string id_;
  std::string ts_;
  int64_t step_ = -2;
  Metadata metadata_ = Value::MakeMap();
  std::vector<PendingWrite> loaded_writes_;
  std::optional<CheckpointConfig> loaded_parent_;

  std::string persisted_id_;
  ChannelVersions persisted_versions_;
  std::set<std::string> persisted_write_channels_;
  bool writes_stored_ = true;
};

}  // namespace rockpoint::runtime
