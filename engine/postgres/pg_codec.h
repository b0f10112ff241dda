// Private to engine/postgres: rockpoint's data model in LangGraph's columns
// (engine/postgres/SCHEMA.md states the mapping).
//
//   checkpoints.checkpoint  LangGraph's checkpoint JSON: v, id, ts,
//                           channel_versions, versions_seen,
//                           updated_channels, channel_values. rockpoint
//                           writes channel_values {} (every value is a
//                           checkpoint_blobs row); LangGraph inlines
//                           None/str/int/float/bool there, read back as
//                           msgpack TypedValues.
//   checkpoints.metadata    JSON; a part that JSON cannot hold exactly
//                           (bytes, ext, text with NUL or invalid UTF-8,
//                           non-finite or exponent-only doubles, -0.0, a map
//                           with a non-text key or that would read as a
//                           tag) is the tag object
//                           {"$rockpoint": "<base64 of its msgpack>"}.
//   checkpoint_blobs.version  VersionKey: an int version's decimal text; a
//                           string version as is, unless it reads as a
//                           decimal integer or starts with '"', then '"' +
//                           it (so int 1 and string "1" stay distinct).
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::pg {

// The key of a metadata tag object.
inline constexpr std::string_view kTagKey = "$rockpoint";
// The type tag of channel values LangGraph inlined in the checkpoint JSON.
inline constexpr std::string_view kInlineValueType = "msgpack";

// True when `text` fits a TEXT column and a key: valid UTF-8, no NUL, at
// most `max_bytes` bytes.
bool IsStorableText(std::string_view text, size_t max_bytes);
// InvalidArgument "<field> cannot be stored in PostgreSQL: ..." unless
// IsStorableText(text, max_bytes).
Status CheckStorableText(std::string_view field, std::string_view text,
                         size_t max_bytes);

// checkpoint_blobs.version of `version`.
std::string VersionKey(const ChannelVersion& version);
// The version whose VersionKey is `key`; Corruption naming `where` when no
// version has it (an integer beyond int64, a decimal with leading zeros, a
// '"' that VersionKey would not have added).
Result<ChannelVersion> VersionFromKey(std::string_view key,
                                      std::string_view where);
// SQL computing VersionKey of the jsonb version expression `json_expr`
// (a channel_versions entry), for joins with checkpoint_blobs.
std::string VersionKeySql(std::string_view json_expr);

// Metadata <-> the metadata column.
std::string MetadataToJson(const Value& metadata);
// Corruption naming `where` when `json` is not a JSON object or a tag does
// not decode.
Result<Value> MetadataFromJson(std::string_view json, std::string_view where);

// The metadata column of an encrypted store (pg_sealed.h): the run_id that
// delete_for_runs selects by, {"run_id": <as MetadataToJson writes it>}
// when `metadata`'s run_id is a string, else {}.
std::string RunIdJson(const Value& metadata);

// The key of an encrypted store's checkpoint column holding the base64 of
// the sealed checkpoint record (pg_sealed.h).
inline constexpr std::string_view kSealedKey = "$sealed";
// The canonical JSON of the channel_versions member of the checkpoint JSON
// `checkpoint`, nullopt when it has none. Corruption naming `where` when
// `checkpoint` is not JSON.
Result<std::optional<std::string>> ChannelVersionsOf(
    std::string_view checkpoint, std::string_view where);
// An encrypted store's checkpoint column: {"channel_versions": <that of
// `plain_checkpoint`, when it has one>, "$sealed": `sealed_base64`}.
Result<std::string> SealedCheckpointColumn(std::string_view plain_checkpoint,
                                           std::string_view sealed_base64,
                                           std::string_view where);
// What an encrypted store's checkpoint column holds: the base64 of the
// sealed record (nullopt when there is none: a plaintext row) and the
// canonical JSON of its channel_versions copy (nullopt when none).
struct SealedCheckpointParts {
  std::optional<std::string> sealed_base64;
  std::optional<std::string> versions;
};
Result<SealedCheckpointParts> ReadSealedCheckpointColumn(
    std::string_view column, std::string_view where);

// The checkpoint column of `checkpoint` (channel_values {}; pending_sends
// are not part of it, see PendingSendsToJson).
std::string CheckpointToJson(const Checkpoint& checkpoint);

// What a checkpoint column holds.
struct StoredCheckpoint {
  Checkpoint checkpoint;  // channel_values and pending_sends left empty.
  // Values LangGraph inlined, as msgpack TypedValues.
  std::map<std::string, TypedValue> inline_values;
};
// Corruption naming `where` when `json` is not a checkpoint object.
Result<StoredCheckpoint> CheckpointFromJson(std::string_view json,
                                            std::string_view where);

// rockpoint_checkpoints.stored_channels and .pending_sends (JSON arrays).
std::string ChannelsToJson(const std::vector<std::string>& channels);
Result<std::vector<std::string>> ChannelsFromJson(std::string_view json,
                                                  std::string_view where);
std::string PendingSendsToJson(const std::vector<TypedValue>& sends);
Result<std::vector<TypedValue>> PendingSendsFromJson(std::string_view json,
                                                     std::string_view where);

// Every identifier of a put checked with CheckStorableText.
Status CheckPutTexts(const CheckpointConfig& config,
                     const Checkpoint& checkpoint,
                     const ChannelVersions& new_versions, size_t max_bytes);

// "(thread_id=..., checkpoint_ns=..., checkpoint_id=...)" for messages.
std::string KeyName(std::string_view thread_id, std::string_view checkpoint_ns,
                    std::string_view checkpoint_id);

}  // namespace rockpoint::pg
