// Workload: the data every subject is given, built deterministically so the
// same bytes go to rockpoint, the SQLite and JSONL backends and raw RocksDB.
//
//   * A StateShape is a state of `state_bytes` bytes split evenly over
//     `channels` channels ("ch0", "ch1", ...), each value a msgpack string
//     of pseudo-text (words from a fixed 8,192-word vocabulary: about as
//     compressible as prose, not like zeros or random bytes).
//   * A step of a thread is one checkpoint: child of the previous one, every
//     channel at version step+1 and in new_versions (the whole state is
//     written), metadata {source: "loop", step, parents: {}, run_id}.
//   * Checkpoint ids are fixed-width decimal counters, so string order is
//     creation order (as the contract requires).
//
// Thread-safety: pure functions; a TextGenerator is owned by one thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"

namespace rockpoint::bench {

struct StateShape {
  size_t state_bytes = 1024;
  int channels = 1;
  // "1KB/10ch".
  std::string Label() const;
};

// "1KB", "64KB", "512B".
std::string FormatBytes(uint64_t bytes);

// Deterministic pseudo-text.
class TextGenerator {
 public:
  explicit TextGenerator(uint64_t seed) : rng_(seed) {}
  // Exactly `bytes` bytes of space-separated words.
  std::string Text(size_t bytes);

 private:
  std::mt19937_64 rng_;
};

// "t<prefix>-<index>": a thread id.
std::string ThreadId(std::string_view prefix, size_t index);
// The checkpoint id of step `step` (20-digit zero-padded).
std::string CheckpointId(size_t step);
// A deterministic "random" index in [0, n) for call i; `salt` tells apart
// the picks of one call. REQUIRES: n > 0.
size_t Pick(size_t i, size_t salt, size_t n);
// A found tuple, or Corruption: a benchmark of a read that finds nothing
// would measure nothing.
Status Found(const Result<std::optional<CheckpointTuple>>& tuple);

// The channel values of one state: channels "ch<i>", each a msgpack string of
// state_bytes / channels bytes of text (serialized, type "msgpack").
std::map<std::string, TypedValue> MakeChannelValues(const StateShape& shape,
                                                    uint64_t seed);

// One step's put arguments.
struct PutArgs {
  CheckpointConfig config;  // the parent (absent for step 0).
  Checkpoint checkpoint;
  Metadata metadata;
  ChannelVersions new_versions;
};

// The put of step `step` of `thread`, every channel written with `values`.
PutArgs MakeStep(const std::string& thread, size_t step,
                 const std::map<std::string, TypedValue>& values);

// `count` pending writes of `bytes` bytes each, to channels "ch<i>".
std::vector<ChannelWrite> MakeWrites(size_t count, size_t bytes, uint64_t seed);

// Writes `steps` steps on `thread` of `store` (each step: put, then
// `writes_per_step` pending writes of 128 bytes on the new checkpoint).
Status FillThread(Checkpointer& store, const std::string& thread, size_t steps,
                  const std::map<std::string, TypedValue>& values,
                  size_t writes_per_step);

// The raw baseline's view of the same data: one key and the serialized
// bytes rockpoint stores for it, concatenated (serde/records.h encodings).
struct RawRecord {
  std::string key;
  std::string value;
};
// The records a put of `args` stores, each as encoded (sealed): the
// checkpoint record, then the blob record of every new version.
std::vector<std::string> PutRecords(const PutArgs& args);
// The write records of `writes`, each as encoded (sealed).
std::vector<std::string> WriteRecords(const std::vector<ChannelWrite>& writes);
// Computes the checksum of every record of `records` as sealing or
// checking it does (serde::RecordChecksum over all but the trailer); OK.
Status ChecksumRecords(const std::vector<std::string>& records);
// Key ("cp", thread, "", id); value: PutRecords(args) concatenated.
RawRecord RawCheckpoint(const PutArgs& args);
// Key ("cp", thread, "", checkpoint_id).
std::string RawCheckpointKey(const std::string& thread,
                             const std::string& checkpoint_id);
// Key ("cp", thread, ""): the prefix of a thread's raw checkpoints.
std::string RawCheckpointPrefix(const std::string& thread);
// Key ("wr", thread, "", checkpoint_id, "", task_id, 0); value:
// WriteRecords(writes) concatenated.
RawRecord RawWrites(const std::string& thread, const std::string& checkpoint_id,
                    const std::string& task_id,
                    const std::vector<ChannelWrite>& writes);

}  // namespace rockpoint::bench
