// Private to engine/postgres: the rows of an encrypted database
// (engine/postgres/SCHEMA.md, "Encrypted stores"), each record sealed by
// RecordCipher under its name (engine/record_names.h):
//
//   checkpoints.checkpoint      {"channel_versions": <clear copy>,
//                                "$sealed": "<base64 of the sealed record>"}
//   checkpoints.metadata        RunIdJson: {"run_id": ...} or {}
//   rockpoint_checkpoints.pending_sends   NULL (in the sealed record)
//   checkpoint_blobs type, blob     "$sealed", the sealed (type, value);
//                                   LangGraph's "empty" marker as it is
//   checkpoint_writes type, blob    "$sealed", the sealed (type, value)
//
// The sealed checkpoint record, under ("cp", thread, ns, checkpoint_id),
// holds what a plaintext store keeps of the checkpoint:
//   checkpoint JSON 0x00 metadata JSON 0x00 pending_sends JSON
// (the last empty when there are none; JSON text holds no NUL). A sealed
// value, under ("bl", thread, ns, channel, version), and a sealed write,
// under ("wr", thread, ns, checkpoint_id, task_path, task_id, idx), hold
//   type 0x00 bytes
// (a type is TEXT: it holds no NUL).
//
// Thread-safety: pure functions (RecordCipher is thread-safe).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/record_cipher.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::pg {

// The type column of a sealed value or write.
inline constexpr std::string_view kSealedType = "$sealed";

// What a checkpoint row holds in a plaintext store: the checkpoint and
// metadata columns (JSON text) and rockpoint_checkpoints.pending_sends.
struct CheckpointColumns {
  std::string checkpoint;
  std::string metadata;
  std::optional<std::string> pending_sends;
};

// The columns an encrypted store keeps for checkpoint (thread, ns, id)
// whose plaintext columns are `plain`: the record sealed under its name, the
// clear copies beside it; pending_sends nullopt. `metadata`, when given, is
// what plain.metadata encodes (saves decoding it). Corruption when
// plain.metadata or plain.checkpoint does not decode; IOError when sealing
// fails.
Result<CheckpointColumns> SealCheckpoint(const RecordCipher& cipher,
                                         std::string_view thread,
                                         std::string_view ns,
                                         std::string_view id,
                                         const CheckpointColumns& plain,
                                         const Value* metadata = nullptr);

// The plaintext columns of checkpoint (thread, ns, id) of an encrypted
// store, whose stored columns are `stored`. Corruption naming the record
// when it is not sealed there with this store's key (plaintext, truncated,
// changed, moved, another key), when its clear channel_versions copy
// differs from the sealed one, or when pending_sends is not NULL.
Result<CheckpointColumns> OpenCheckpoint(const RecordCipher& cipher,
                                         std::string_view thread,
                                         std::string_view ns,
                                         std::string_view id,
                                         const CheckpointColumns& stored);

// The blob column of `value` sealed under `name` (its type column is
// kSealedType).
Result<std::string> SealValue(const RecordCipher& cipher, std::string_view name,
                              const TypedValue& value);
// The value the blob column `blob` seals under `name`; Corruption "<what>
// at <name>: ..." when it does not open.
Result<TypedValue> OpenValue(const RecordCipher& cipher, std::string_view name,
                             std::string_view blob, std::string_view what);

}  // namespace rockpoint::pg
