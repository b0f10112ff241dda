// The data model of the checkpointer contract (docs/CONTRACT.md).
//
// Plain structs, no behaviour. Channel values and writes are opaque
// TypedValues; metadata is a serde::Value that must be a map.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rockpoint/typed_value.h"
#include "rockpoint/value.h"

namespace rockpoint {

using serde::ChannelVersion;
using serde::TypedValue;
using serde::Value;

using ChannelVersions = std::map<std::string, ChannelVersion>;
// Metadata: an open map (Value of kind map). Known keys: source, step,
// parents, run_id, counters_since_delta_snapshot.
using Metadata = Value;

// Addresses a thread, a namespace in it, and optionally one checkpoint.
struct CheckpointConfig {
  std::optional<std::string> thread_id;      // any bytes; required by writes.
  std::optional<std::string> checkpoint_ns;  // absent: "" for writes and
                                             // reads, "all" for list.
  std::optional<std::string> checkpoint_id;
  friend bool operator==(const CheckpointConfig&,
                         const CheckpointConfig&) = default;
};

struct Checkpoint {
  int64_t v = 4;   // checkpoint format version of the producer.
  std::string id;  // time-sortable: string order is creation order.
  std::string ts;  // ISO-8601.
  std::map<std::string, TypedValue> channel_values;
  ChannelVersions channel_versions;
  std::map<std::string, ChannelVersions> versions_seen;
  std::optional<std::vector<std::string>> updated_channels;
  std::optional<std::vector<TypedValue>> pending_sends;  // legacy.
  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

// Special channels and their fixed write index (docs/CONTRACT.md).
inline constexpr std::string_view kErrorChannel = "__error__";          // -1
inline constexpr std::string_view kScheduledChannel = "__scheduled__";  // -2
inline constexpr std::string_view kInterruptChannel = "__interrupt__";  // -3
inline constexpr std::string_view kResumeChannel = "__resume__";        // -4
inline constexpr std::string_view kTasksChannel = "__pregel_tasks";

// The fixed index of a special channel, or nullopt for a regular channel.
std::optional<int64_t> SpecialWriteIndex(std::string_view channel);

// One write handed to put_writes.
struct ChannelWrite {
  std::string channel;
  TypedValue value;
  friend bool operator==(const ChannelWrite&, const ChannelWrite&) = default;
};

// A stored write, as returned with a tuple or a delta history.
struct PendingWrite {
  std::string task_id;
  std::string channel;
  TypedValue value;
  std::string task_path;
  int64_t idx = 0;
  std::string checkpoint_id;  // the checkpoint the write belongs to.
  friend bool operator==(const PendingWrite&, const PendingWrite&) = default;
};

struct CheckpointTuple {
  CheckpointConfig config;  // thread_id, checkpoint_ns, checkpoint_id set.
  Checkpoint checkpoint;
  Metadata metadata;
  std::optional<CheckpointConfig> parent_config;  // absent for a root.
  // Ordered by (task_path, task_id, idx).
  std::vector<PendingWrite> pending_writes;
  // Kept only for a surviving checkpoint's delta history (see
  // Checkpointer::HideCheckpoint). Only ListOptions::include_hidden returns
  // such tuples.
  bool hidden = false;
  friend bool operator==(const CheckpointTuple&,
                         const CheckpointTuple&) = default;
};

struct ListOptions {
  // nullopt or no thread_id: all threads. checkpoint_ns absent: all
  // namespaces. checkpoint_id present: only that checkpoint.
  std::optional<CheckpointConfig> config;
  // AND of equalities on top-level metadata keys. Must be a map; empty map
  // (the default) matches everything.
  Value filter = Value::MakeMap();
  // Only checkpoints whose id is < before->checkpoint_id (any thread).
  std::optional<CheckpointConfig> before;
  std::optional<size_t> limit;
  // Also return hidden checkpoints (tuple.hidden set), for tools that copy a
  // store exactly. REQUIRES: config->thread_id (InvalidArgument otherwise).
  bool include_hidden = false;
};

enum class PruneStrategy { kKeepLatest, kDelete };

// The history of one delta channel, see get_delta_channel_history.
struct DeltaChannelHistory {
  std::vector<PendingWrite> writes;  // oldest first.
  std::optional<TypedValue> seed;    // absent: no value before the root.
  friend bool operator==(const DeltaChannelHistory&,
                         const DeltaChannelHistory&) = default;
};
using DeltaHistory = std::map<std::string, DeltaChannelHistory>;

// A stored write named by its checkpoint and its key there. An orphan
// write is one whose checkpoint (visible or hidden) the store does not
// hold: no read, list or export reaches it; verify reports them.
struct WriteLocation {
  std::string thread_id;
  std::string checkpoint_ns;
  std::string checkpoint_id;
  std::string task_path;
  std::string task_id;
  int64_t idx = 0;
  friend bool operator==(const WriteLocation&, const WriteLocation&) = default;
};

struct NamespaceInfo {
  std::string checkpoint_ns;
  uint64_t checkpoint_count = 0;
  std::string latest_checkpoint_id;
  std::string latest_ts;
  friend bool operator==(const NamespaceInfo&, const NamespaceInfo&) = default;
};

struct ThreadInfo {
  std::string thread_id;
  std::vector<NamespaceInfo> namespaces;  // ordered by checkpoint_ns.
  friend bool operator==(const ThreadInfo&, const ThreadInfo&) = default;
};

struct ListThreadsOptions {
  // Only threads whose id is > after (byte order). Default: from the first.
  std::optional<std::string> after;
  // Page size. Default: 100.
  size_t limit = 100;
};

struct ThreadPage {
  std::vector<ThreadInfo> threads;        // ordered by thread_id bytes.
  std::optional<std::string> next_after;  // set when more threads follow.
};

}  // namespace rockpoint
