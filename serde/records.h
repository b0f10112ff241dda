// Record formats stored by the RocksDB backend (values of its column
// families). Keys are tuples (keys/); these are the values. Every record
// is framed by a format version byte and a checksum (serde/record_frame.h);
// the grammar of each is in
// serde/FORMAT.md. Decoding is strict: Corruption on anything malformed,
// never a partial record.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"
#include "rockpoint/value.h"
#include "serde/record_frame.h"

namespace rockpoint::serde {

// The array lengths of a checkpoint record's header and body (FORMAT.md),
// shared by the reference decoder and the direct one
// (checkpoint_record_view.h).
inline constexpr size_t kCheckpointHeaderFields = 4;
inline constexpr size_t kCheckpointBodyFields = 6;

// The part of a checkpoint record the delta-history walk reads: it can be
// decoded without decoding the rest.
struct CheckpointHeader {
  std::optional<std::string> parent_id;
  std::map<std::string, ChannelVersion> channel_versions;
  // Channels for which this put stored a value (not "empty"), sorted.
  std::vector<std::string> stored_channels;
  // Retained only because a surviving checkpoint's delta history runs
  // through it (after prune or delete_for_runs): invisible to get_tuple and
  // list, still walked by get_delta_channel_history.
  bool hidden = false;
  friend bool operator==(const CheckpointHeader&,
                         const CheckpointHeader&) = default;
};

struct CheckpointRecord {
  CheckpointHeader header;
  int64_t v = 0;
  std::string ts;
  std::map<std::string, std::map<std::string, ChannelVersion>> versions_seen;
  std::optional<std::vector<std::string>> updated_channels;
  std::optional<std::vector<TypedValue>> pending_sends;
  Value metadata;  // a map.
  friend bool operator==(const CheckpointRecord&,
                         const CheckpointRecord&) = default;
};

std::string EncodeCheckpointRecord(const CheckpointRecord& record);
Result<CheckpointRecord> DecodeCheckpointRecord(std::string_view bytes);
// Decodes only the header; cheaper than DecodeCheckpointRecord.
Result<CheckpointHeader> DecodeCheckpointHeader(std::string_view bytes);

// A stored channel value, or the "empty" marker (a version bump with no
// value).
struct BlobRecord {
  bool empty = false;
  TypedValue value;  // meaningless when empty.
  friend bool operator==(const BlobRecord&, const BlobRecord&) = default;
};

std::string EncodeBlobRecord(const BlobRecord& record);
Result<BlobRecord> DecodeBlobRecord(std::string_view bytes);

// A stored pending write (the key holds thread, ns, checkpoint, task_path,
// task_id and idx).
struct WriteRecord {
  std::string channel;
  TypedValue value;
  friend bool operator==(const WriteRecord&, const WriteRecord&) = default;
};

std::string EncodeWriteRecord(const WriteRecord& record);
Result<WriteRecord> DecodeWriteRecord(std::string_view bytes);

}  // namespace rockpoint::serde
