#include "engine/sqlite/sqlite_records.h"

#include <utility>
#include <variant>

#include "engine/record_names.h"
#include "engine/sqlite/sqlite_db.h"
#include "rockpoint/msgpack_codec.h"
#include "serde/checkpoint_record_view.h"

namespace rockpoint::sqlite_records {
namespace {

using sqlite_internal::PrintableBytes;

std::string CheckpointName(const CheckpointKey& key) {
  return record_names::Checkpoint(key.thread_id, key.checkpoint_ns,
                                  key.checkpoint_id);
}
std::string BlobName(const BlobKey& key) {
  return record_names::Blob(key.thread_id, key.checkpoint_ns, key.channel,
                            key.version);
}
std::string WriteName(const WriteKey& key) {
  return record_names::Write(key.thread_id, key.checkpoint_ns,
                             key.checkpoint_id, key.task_path, key.task_id,
                             key.idx);
}

std::string VersionText(const ChannelVersion& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) {
    return std::to_string(*number);
  }
  return PrintableBytes(std::get<std::string>(version));
}

Status NotDecoded(std::string row, std::string_view what,
                  const Status& status) {
  return Status::Corruption(std::move(row) + ": " + std::string(what) +
                            " does not decode: " + status.message());
}

// The plaintext record of a row: `stored` itself in a plaintext store (no
// copy), else opened into *scratch.
Result<std::string_view> OpenCheckpoint(const RecordCipher* cipher,
                                        const CheckpointKey& key,
                                        std::string_view stored,
                                        std::string* scratch) {
  if (cipher == nullptr) return stored;
  RP_RETURN_IF_ERROR(
      cipher->Open(CheckpointName(key), stored, "checkpoint record", scratch));
  return std::string_view(*scratch);
}

Result<std::string> Reseal(const RecordCipher& cipher,
                           std::string_view from_name, std::string_view to_name,
                           std::string_view stored, std::string_view what) {
  std::string plain;
  RP_RETURN_IF_ERROR(cipher.Open(from_name, stored, what, &plain));
  std::string sealed;
  RP_RETURN_IF_ERROR(cipher.Seal(to_name, plain, &sealed));
  return sealed;
}

Status ParentDiffers(const CheckpointKey& key) {
  return Status::Corruption(CheckpointRowName(key) +
                            ": parent_checkpoint_id differs from the sealed "
                            "record's parent");
}

}  // namespace

std::string CheckpointRowName(const CheckpointKey& key) {
  return "checkpoints row (thread_id=" + PrintableBytes(key.thread_id) +
         ", checkpoint_ns=" + PrintableBytes(key.checkpoint_ns) +
         ", checkpoint_id=" + PrintableBytes(key.checkpoint_id) + ")";
}

std::string BlobRowName(const BlobKey& key) {
  return "checkpoint_blobs row (thread_id=" + PrintableBytes(key.thread_id) +
         ", checkpoint_ns=" + PrintableBytes(key.checkpoint_ns) +
         ", channel=" + PrintableBytes(key.channel) +
         ", version=" + VersionText(key.version) + ")";
}

std::string WriteRowName(const WriteKey& key) {
  return "checkpoint_writes row (thread_id=" + PrintableBytes(key.thread_id) +
         ", checkpoint_ns=" + PrintableBytes(key.checkpoint_ns) +
         ", checkpoint_id=" + PrintableBytes(key.checkpoint_id) +
         ", task_path=" + PrintableBytes(key.task_path) +
         ", task_id=" + PrintableBytes(key.task_id) +
         ", idx=" + std::to_string(key.idx) + ")";
}

Result<CheckpointColumns> EncodeCheckpoint(const RecordCipher* cipher,
                                           const CheckpointKey& key,
                                           serde::CheckpointRecord record,
                                           const Metadata& metadata) {
  CheckpointColumns columns;
  if (cipher == nullptr) {
    record.metadata = Value::MakeMap();
    columns.checkpoint = serde::EncodeCheckpointRecord(record);
    columns.metadata = serde::EncodeMsgpack(metadata);
    return columns;
  }
  record.metadata = metadata;
  RP_RETURN_IF_ERROR(cipher->Seal(CheckpointName(key),
                                  serde::EncodeCheckpointRecord(record),
                                  &columns.checkpoint));
  return columns;
}

Result<Metadata> DecodePlainMetadata(const CheckpointKey& key,
                                     std::string_view stored_metadata) {
  Result<Value> metadata = serde::DecodeMsgpack(stored_metadata);
  if (!metadata.ok()) {
    return NotDecoded(CheckpointRowName(key), "metadata", metadata.status());
  }
  if (!metadata->is_map()) {
    return Status::Corruption(CheckpointRowName(key) + ": metadata is a " +
                              Value::KindName(metadata->kind()) +
                              ", not a map");
  }
  return std::move(metadata).value();
}

Result<serde::CheckpointRecord> DecodePlainRecord(
    const CheckpointKey& key, std::string_view stored_checkpoint) {
  Result<serde::CheckpointRecord> record =
      serde::DecodeCheckpointRecordDirect(stored_checkpoint);
  if (!record.ok()) {
    return NotDecoded(CheckpointRowName(key), "checkpoint", record.status());
  }
  return record;
}

Result<DecodedCheckpoint> DecodeCheckpoint(
    const RecordCipher* cipher, const CheckpointKey& key,
    const std::optional<std::string>& parent_id,
    std::string_view stored_checkpoint, std::string_view stored_metadata) {
  DecodedCheckpoint decoded;
  if (cipher == nullptr) {
    RP_ASSIGN_OR_RETURN(decoded.metadata,
                        DecodePlainMetadata(key, stored_metadata));
  } else if (!stored_metadata.empty()) {
    return Status::Corruption(CheckpointRowName(key) +
                              ": its metadata column holds plaintext in an "
                              "encrypted store");
  }
  std::string opened;
  RP_ASSIGN_OR_RETURN(std::string_view plain,
                      OpenCheckpoint(cipher, key, stored_checkpoint, &opened));
  RP_ASSIGN_OR_RETURN(decoded.record, DecodePlainRecord(key, plain));
  if (cipher == nullptr) return decoded;
  decoded.metadata = std::exchange(decoded.record.metadata, Value());
  if (!decoded.metadata.is_map()) {
    return Status::Corruption(CheckpointRowName(key) + ": metadata is a " +
                              Value::KindName(decoded.metadata.kind()) +
                              ", not a map");
  }
  if (decoded.record.header.parent_id != parent_id) return ParentDiffers(key);
  return decoded;
}

Result<serde::CheckpointHeader> DecodeHeader(
    const RecordCipher* cipher, const CheckpointKey& key,
    const std::optional<std::string>& parent_id,
    std::string_view stored_checkpoint) {
  std::string opened;
  RP_ASSIGN_OR_RETURN(std::string_view plain,
                      OpenCheckpoint(cipher, key, stored_checkpoint, &opened));
  Result<serde::CheckpointHeader> header = serde::DecodeCheckpointHeader(plain);
  if (!header.ok()) {
    return NotDecoded(CheckpointRowName(key), "checkpoint", header.status());
  }
  if (cipher != nullptr && header->parent_id != parent_id) {
    return ParentDiffers(key);
  }
  return header;
}

Result<BlobColumns> EncodeBlob(const RecordCipher* cipher, const BlobKey& key,
                               const TypedValue* value) {
  BlobColumns columns;
  if (cipher == nullptr) {
    if (value != nullptr) {
      columns.type = value->type;
      columns.blob = value->bytes;
    }
    return columns;
  }
  serde::BlobRecord record;
  record.empty = value == nullptr;
  if (value != nullptr) {
    record.value = *value;
    columns.type.emplace();  // the clear has-value flag.
  }
  columns.blob.emplace();
  RP_RETURN_IF_ERROR(cipher->Seal(
      BlobName(key), serde::EncodeBlobRecord(record), &*columns.blob));
  return columns;
}

Result<std::optional<TypedValue>> DecodeBlob(
    const RecordCipher* cipher, const BlobKey& key,
    const std::optional<std::string_view>& type,
    const std::optional<std::string_view>& blob) {
  if (cipher == nullptr) {
    if (!type) return std::optional<TypedValue>();  // the "empty" marker.
    return std::optional<TypedValue>(
        TypedValue{std::string(*type), std::string(blob.value_or(""))});
  }
  std::string opened;
  RP_RETURN_IF_ERROR(
      cipher->Open(BlobName(key), blob.value_or(""), "channel value", &opened));
  serde::BlobRecordView record;
  const Status decoded = serde::DecodeBlobRecordView(opened, &record);
  if (!decoded.ok()) return NotDecoded(BlobRowName(key), "value", decoded);
  if (record.empty != !type.has_value() || (type && !type->empty())) {
    return Status::Corruption(BlobRowName(key) +
                              ": its type column does not match the sealed "
                              "record");
  }
  if (record.empty) return std::optional<TypedValue>();
  return std::optional<TypedValue>(
      TypedValue{std::string(record.type), std::string(record.bytes)});
}

Result<WriteColumns> EncodeWrite(const RecordCipher* cipher,
                                 const WriteKey& key, std::string_view channel,
                                 const TypedValue& value) {
  WriteColumns columns;
  if (cipher == nullptr) {
    columns.type = value.type;
    columns.value = value.bytes;
    return columns;
  }
  const serde::WriteRecord record{std::string(channel), value};
  RP_RETURN_IF_ERROR(cipher->Seal(
      WriteName(key), serde::EncodeWriteRecord(record), &columns.value));
  return columns;
}

Result<TypedValue> DecodeWrite(const RecordCipher* cipher, const WriteKey& key,
                               std::string_view channel, std::string_view type,
                               std::string_view value) {
  if (cipher == nullptr) {
    return TypedValue{std::string(type), std::string(value)};
  }
  std::string opened;
  RP_RETURN_IF_ERROR(
      cipher->Open(WriteName(key), value, "pending write", &opened));
  Result<serde::WriteRecord> record = serde::DecodeWriteRecord(opened);
  if (!record.ok())
    return NotDecoded(WriteRowName(key), "write", record.status());
  if (record->channel != channel || !type.empty()) {
    return Status::Corruption(WriteRowName(key) +
                              ": its channel or type column does not match "
                              "the sealed record");
  }
  return std::move(record->value);
}

Result<std::string> ResealCheckpoint(const RecordCipher& cipher,
                                     const CheckpointKey& from,
                                     const CheckpointKey& to,
                                     std::string_view stored) {
  return Reseal(cipher, CheckpointName(from), CheckpointName(to), stored,
                "checkpoint record");
}

Result<std::string> ResealBlob(const RecordCipher& cipher, const BlobKey& from,
                               const BlobKey& to, std::string_view stored) {
  return Reseal(cipher, BlobName(from), BlobName(to), stored, "channel value");
}

Result<std::string> ResealWrite(const RecordCipher& cipher,
                                const WriteKey& from, const WriteKey& to,
                                std::string_view stored) {
  return Reseal(cipher, WriteName(from), WriteName(to), stored,
                "pending write");
}

}  // namespace rockpoint::sqlite_records
