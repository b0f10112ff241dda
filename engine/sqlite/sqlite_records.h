// Private to engine/sqlite: the one place that decides what the record
// columns of a row hold, in a plaintext store and in an encrypted one, and
// turns them back into records. docs/ENCRYPTION.md ("SQLite") quotes this.
//
//   column                   plaintext store         encrypted store
//   checkpoints.checkpoint   serde CheckpointRecord  the CheckpointRecord
//                            with empty metadata     WITH its metadata,
//                                                    sealed under ("cp",
//                                                    thread, ns, id)
//   checkpoints.metadata     msgpack map             empty
//   checkpoint_blobs.type    type tag; NULL for the  empty for a value, NULL
//                            "empty" marker          for the marker
//   checkpoint_blobs.blob    value bytes; NULL for   serde BlobRecord (the
//                            the marker              marker too), sealed
//                                                    under ("bl", thread, ns,
//                                                    channel, version)
//   checkpoint_writes.type   type tag                empty
//   checkpoint_writes.value  value bytes             serde WriteRecord
//                                                    (channel, type, bytes)
//                                                    sealed under ("wr",
//                                                    thread, ns, id,
//                                                    task_path, task_id, idx)
//
// Every other column is an identifier or a flag, clear in both (see
// sqlite_schema.cpp for why each). The sealed plaintexts are the serde
// records (serde/records.h), framed with their format byte and checksum.
// In an encrypted store the clear columns that repeat something the
// sealed record holds are checked against it on every read, Corruption
// naming the row when they differ: checkpoints.parent_checkpoint_id (the
// header's parent), checkpoint_blobs.type being NULL (the record's "empty"
// flag; retention reads the column without opening values) and
// checkpoint_writes.channel (the record's channel).
//
// `cipher` is the store's cipher, null for a plaintext store. Corruption
// messages name the row ("checkpoints row (thread_id=...)") or, for a
// sealed record that does not open, the record's name.
//
// Thread-safety: pure functions (RecordCipher is thread-safe).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/record_cipher.h"
#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"
#include "rockpoint/types.h"
#include "serde/records.h"

namespace rockpoint::sqlite_records {

// The identifiers that name each kind of record (engine/record_names.h).
struct CheckpointKey {
  std::string_view thread_id;
  std::string_view checkpoint_ns;
  std::string_view checkpoint_id;
};
struct BlobKey {
  std::string_view thread_id;
  std::string_view checkpoint_ns;
  std::string_view channel;
  const ChannelVersion& version;
};
struct WriteKey {
  std::string_view thread_id;
  std::string_view checkpoint_ns;
  std::string_view checkpoint_id;
  std::string_view task_path;
  std::string_view task_id;
  int64_t idx;
};

// The checkpoints columns `checkpoint` and `metadata` of a new row.
struct CheckpointColumns {
  std::string checkpoint;
  std::string metadata;
};
// `record` with `metadata` (record.metadata is ignored). IOError if sealing
// fails.
Result<CheckpointColumns> EncodeCheckpoint(const RecordCipher* cipher,
                                           const CheckpointKey& key,
                                           serde::CheckpointRecord record,
                                           const Metadata& metadata);

// The header of a row's stored checkpoint record (DecodeCheckpointHeader),
// the record opened first in an encrypted store and its parent checked
// against `parent_id`, the row's parent column.
Result<serde::CheckpointHeader> DecodeHeader(
    const RecordCipher* cipher, const CheckpointKey& key,
    const std::optional<std::string>& parent_id,
    std::string_view stored_checkpoint);

// The record and metadata a row stores, decoded; `parent_id` is the row's
// parent column (checked against the sealed header in an encrypted store).
struct DecodedCheckpoint {
  serde::CheckpointRecord record;  // its metadata moved to `metadata`.
  Metadata metadata;
};
Result<DecodedCheckpoint> DecodeCheckpoint(
    const RecordCipher* cipher, const CheckpointKey& key,
    const std::optional<std::string>& parent_id,
    std::string_view stored_checkpoint, std::string_view stored_metadata);
// A plaintext store's row in two steps, each cheaper than DecodeCheckpoint:
// its metadata alone (all a filter needs) and its record alone.
Result<Metadata> DecodePlainMetadata(const CheckpointKey& key,
                                     std::string_view stored_metadata);
Result<serde::CheckpointRecord> DecodePlainRecord(
    const CheckpointKey& key, std::string_view stored_checkpoint);

// The checkpoint_blobs columns `type` and `blob`: nullopt is NULL.
struct BlobColumns {
  std::optional<std::string> type;
  std::optional<std::string> blob;
};
// `value`, or the "empty" marker when null.
Result<BlobColumns> EncodeBlob(const RecordCipher* cipher, const BlobKey& key,
                               const TypedValue* value);
// The value of a blob row, nullopt for the "empty" marker. `type` and
// `blob` are the columns, nullopt when NULL.
Result<std::optional<TypedValue>> DecodeBlob(
    const RecordCipher* cipher, const BlobKey& key,
    const std::optional<std::string_view>& type,
    const std::optional<std::string_view>& blob);

// The checkpoint_writes columns `type` and `value`.
struct WriteColumns {
  std::string type;
  std::string value;
};
Result<WriteColumns> EncodeWrite(const RecordCipher* cipher,
                                 const WriteKey& key, std::string_view channel,
                                 const TypedValue& value);
// The value of a write row whose channel column is `channel`.
Result<TypedValue> DecodeWrite(const RecordCipher* cipher, const WriteKey& key,
                               std::string_view channel, std::string_view type,
                               std::string_view value);

// The sealed record `stored` of an encrypted store re-sealed from the
// name of `from` to that of `to` (copy_thread), without decoding it.
// Corruption naming `from` if it does not open. REQUIRES: cipher non-null.
Result<std::string> ResealCheckpoint(const RecordCipher& cipher,
                                     const CheckpointKey& from,
                                     const CheckpointKey& to,
                                     std::string_view stored);
Result<std::string> ResealBlob(const RecordCipher& cipher, const BlobKey& from,
                               const BlobKey& to, std::string_view stored);
Result<std::string> ResealWrite(const RecordCipher& cipher,
                                const WriteKey& from, const WriteKey& to,
                                std::string_view stored);

// "checkpoints row (thread_id=..., checkpoint_ns=..., checkpoint_id=...)".
std::string CheckpointRowName(const CheckpointKey& key);
// "checkpoint_blobs row (thread_id=..., checkpoint_ns=..., channel=...)".
std::string BlobRowName(const BlobKey& key);
// "checkpoint_writes row (thread_id=..., ..., idx=...)".
std::string WriteRowName(const WriteKey& key);

}  // namespace rockpoint::sqlite_records
