// Stored record formats. Grammar (msgpack items as in msgpack_codec.cpp;
// field by field in serde/FORMAT.md):
//
//   checkpoint := version:u8=1 header_len:varint32 header body
//   header     := array(4)[parent_id:(str|nil), channel_versions:vmap,
//                          stored_channels:array(str), hidden:bool]
//                 ; exactly header_len bytes
//   body       := array(6)[v:int, ts:str, versions_seen:map(str -> vmap),
//                          updated_channels:(array(str)|nil),
//                          pending_sends:(array(typed)|nil), metadata:map]
//                 ; runs to the end of the record
//   blob       := version:u8=1 (nil | typed)        ; nil is the empty marker
//   write      := version:u8=1 array(3)[channel:str, type:str, bytes:bin]
//   typed      := array(2)[type:str, bytes:bin]
//   vmap       := map(str -> version)           ; written in key order
//   version    := int | str                        ; 1 and "1" stay distinct
//   varint32   := LEB128, 1-5 bytes, minimal (no trailing zero group)
//
// Decoders check the type of every field and return Corruption naming the
// record and the field; they never return a partial record. Map keys may come
// in any order but must be unique; arrays must have exactly the listed
// fields.
#include "serde/records.h"

#include <cassert>
#include <utility>

#include "rockpoint/msgpack_codec.h"
#include "serde/msgpack_tree.h"
#include "serde/msgpack_writer.h"
#include "serde/record_fields.h"

namespace rockpoint::serde {
namespace {

using internal::AppendArrayHeader;
using internal::AppendBin;
using internal::AppendBool;
using internal::AppendInt;
using internal::AppendMapHeader;
using internal::AppendNil;
using internal::AppendStr;
using internal::ExpectFields;
using internal::Mistyped;
using internal::MsgpackNode;
using internal::MsgpackTree;
using internal::ParseRecordPart;

constexpr std::string_view kCheckpointRecord = "checkpoint record";
constexpr std::string_view kBlobRecord = "blob record";
constexpr std::string_view kWriteRecord = "write record";
constexpr size_t kTypedValueFields = 2;
constexpr size_t kWriteFields = 3;

// ---- Encoding ----

void AppendVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void AppendVersion(const ChannelVersion& version, std::string* out) {
  if (const auto* i = std::get_if<int64_t>(&version)) {
    AppendInt(*i, out);
  } else {
    AppendStr(std::get<std::string>(version), out);
  }
}

void AppendVersionMap(const std::map<std::string, ChannelVersion>& versions,
                      std::string* out) {
  AppendMapHeader(versions.size(), out);
  for (const auto& [channel, version] : versions) {
    AppendStr(channel, out);
    AppendVersion(version, out);
  }
}

void AppendStringList(const std::vector<std::string>& list, std::string* out) {
  AppendArrayHeader(list.size(), out);
  for (const std::string& s : list) AppendStr(s, out);
}

void AppendTypedValue(const TypedValue& value, std::string* out) {
  AppendArrayHeader(kTypedValueFields, out);
  AppendStr(value.type, out);
  AppendBin(value.bytes, out);
}

void AppendHeader(const CheckpointHeader& header, std::string* out) {
  AppendArrayHeader(kCheckpointHeaderFields, out);
  if (header.parent_id) {
    AppendStr(*header.parent_id, out);
  } else {
    AppendNil(out);
  }
  AppendVersionMap(header.channel_versions, out);
  AppendStringList(header.stored_channels, out);
  AppendBool(header.hidden, out);
}

void AppendBody(const CheckpointRecord& record, std::string* out) {
  AppendArrayHeader(kCheckpointBodyFields, out);
  AppendInt(record.v, out);
  AppendStr(record.ts, out);
  AppendMapHeader(record.versions_seen.size(), out);
  for (const auto& [node, versions] : record.versions_seen) {
    AppendStr(node, out);
    AppendVersionMap(versions, out);
  }
  if (record.updated_channels) {
    AppendStringList(*record.updated_channels, out);
  } else {
    AppendNil(out);
  }
  if (record.pending_sends) {
    AppendArrayHeader(record.pending_sends->size(), out);
    for (const TypedValue& send : *record.pending_sends) {
      AppendTypedValue(send, out);
    }
  } else {
    AppendNil(out);
  }
  AppendMsgpack(record.metadata, out);
}

// ---- Decoding ----

Status VarintError(std::string_view what) {
  return Status::Corruption(std::string(kCheckpointRecord) + ": header_len " +
                            std::string(what));
}

// The header and body slices of a checkpoint record.
struct CheckpointParts {
  std::string_view header;
  std::string_view body;
};

Result<CheckpointParts> SplitCheckpoint(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(std::string_view rest,
                      OpenRecord(bytes, kCheckpointRecord));
  uint32_t header_len = 0;
  size_t used = 0;
  for (;; ++used) {
    if (used == rest.size()) return VarintError("varint is truncated");
    uint8_t byte = static_cast<uint8_t>(rest[used]);
    if (used == 4 && byte > 0x0f) return VarintError("exceeds 32 bits");
    header_len |= static_cast<uint32_t>(byte & 0x7f) << (7 * used);
    if ((byte & 0x80) == 0) {
      if (byte == 0 && used > 0) return VarintError("varint is not minimal");
      ++used;
      break;
    }
  }
  rest.remove_prefix(used);
  if (header_len > rest.size()) {
    return VarintError(std::to_string(header_len) + " exceeds the " +
                       std::to_string(rest.size()) + " bytes after it");
  }
  return CheckpointParts{rest.substr(0, header_len), rest.substr(header_len)};
}

Status DecodeHeaderPart(std::string_view bytes, CheckpointHeader* header) {
  constexpr std::string_view r = kCheckpointRecord;
  RP_ASSIGN_OR_RETURN(MsgpackTree tree, ParseRecordPart(bytes, r, "header"));
  const MsgpackNode& root = tree.root();
  RP_RETURN_IF_ERROR(ExpectFields(root, kCheckpointHeaderFields, r, "header"));
  RP_RETURN_IF_ERROR(internal::ReadOptionalString(
      tree.element(root, 0), r, "header.parent_id", &header->parent_id));
  RP_RETURN_IF_ERROR(internal::ReadVersionMap(tree, tree.element(root, 1), r,
                                              "header.channel_versions",
                                              &header->channel_versions));
  RP_RETURN_IF_ERROR(internal::ReadStringList(tree, tree.element(root, 2), r,
                                              "header.stored_channels",
                                              &header->stored_channels));
  return internal::ReadBool(tree.element(root, 3), r, "header.hidden",
                            &header->hidden);
}

Status DecodeBodyPart(std::string_view bytes, CheckpointRecord* record) {
  constexpr std::string_view r = kCheckpointRecord;
  RP_ASSIGN_OR_RETURN(MsgpackTree tree, ParseRecordPart(bytes, r, "body"));
  const MsgpackNode& root = tree.root();
  RP_RETURN_IF_ERROR(ExpectFields(root, kCheckpointBodyFields, r, "body"));
  RP_RETURN_IF_ERROR(
      internal::ReadInt(tree.element(root, 0), r, "v", &record->v));
  RP_RETURN_IF_ERROR(
      internal::ReadString(tree.element(root, 1), r, "ts", &record->ts));

  const MsgpackNode& seen = tree.element(root, 2);
  if (seen.kind != Value::Kind::kMap) {
    return Mistyped(r, "versions_seen", "a map", seen);
  }
  record->versions_seen.clear();
  for (size_t i = 0; i < seen.size; ++i) {
    std::string_view node = tree.key(seen, i).bytes();
    auto [it, inserted] = record->versions_seen.try_emplace(std::string(node));
    if (!inserted) {
      return Status::Corruption(std::string(r) +
                                ": versions_seen has a duplicate key " +
                                Value(node).DebugString());
    }
    RP_RETURN_IF_ERROR(internal::ReadVersionMap(
        tree, tree.value(seen, i), r, internal::Subfield("versions_seen", node),
        &it->second));
  }

  const MsgpackNode& updated = tree.element(root, 3);
  if (updated.kind == Value::Kind::kNull) {
    record->updated_channels.reset();
  } else {
    RP_RETURN_IF_ERROR(
        internal::ReadStringList(tree, updated, r, "updated_channels",
                                 &record->updated_channels.emplace()));
  }

  const MsgpackNode& sends = tree.element(root, 4);
  if (sends.kind == Value::Kind::kNull) {
    record->pending_sends.reset();
  } else if (sends.kind == Value::Kind::kArray) {
    std::vector<TypedValue>& decoded =
        record->pending_sends.emplace(sends.size);
    for (size_t i = 0; i < sends.size; ++i) {
      RP_RETURN_IF_ERROR(internal::ReadTypedValue(
          tree, tree.element(sends, i), r,
          "pending_sends[" + std::to_string(i) + "]", &decoded[i]));
    }
  } else {
    return Mistyped(r, "pending_sends", "an array or nil", sends);
  }

  return internal::ReadValueMap(tree, tree.element(root, 5), r, "metadata",
                                &record->metadata);
}

}  // namespace

std::string EncodeCheckpointRecord(const CheckpointRecord& record) {
  assert(record.metadata.is_map());  // A non-map would never decode.
  std::string header;
  AppendHeader(record.header, &header);
  std::string out;
  out.reserve(header.size() + 64);
  BeginRecord(&out);
  AppendVarint32(static_cast<uint32_t>(header.size()), &out);
  out.append(header);
  AppendBody(record, &out);
  SealRecord(&out);
  return out;
}

Result<CheckpointRecord> DecodeCheckpointRecord(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(CheckpointParts parts, SplitCheckpoint(bytes));
  CheckpointRecord record;
  RP_RETURN_IF_ERROR(DecodeHeaderPart(parts.header, &record.header));
  RP_RETURN_IF_ERROR(DecodeBodyPart(parts.body, &record));
  return record;
}

Result<CheckpointHeader> DecodeCheckpointHeader(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(CheckpointParts parts, SplitCheckpoint(bytes));
  CheckpointHeader header;
  RP_RETURN_IF_ERROR(DecodeHeaderPart(parts.header, &header));
  return header;
}

std::string EncodeBlobRecord(const BlobRecord& record) {
  std::string out;
  BeginRecord(&out);
  if (record.empty) {
    AppendNil(&out);
  } else {
    AppendTypedValue(record.value, &out);
  }
  SealRecord(&out);
  return out;
}

Result<BlobRecord> DecodeBlobRecord(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(std::string_view rest, OpenRecord(bytes, kBlobRecord));
  RP_ASSIGN_OR_RETURN(MsgpackTree tree,
                      ParseRecordPart(rest, kBlobRecord, "value"));
  BlobRecord record;
  const MsgpackNode& root = tree.root();
  if (root.kind == Value::Kind::kNull) {
    record.empty = true;
    return record;
  }
  if (root.kind != Value::Kind::kArray) {
    return Mistyped(kBlobRecord, "value", "nil or an array", root);
  }
  RP_RETURN_IF_ERROR(internal::ReadTypedValue(tree, root, kBlobRecord, "value",
                                              &record.value));
  return record;
}

std::string EncodeWriteRecord(const WriteRecord& record) {
  std::string out;
  BeginRecord(&out);
  AppendArrayHeader(kWriteFields, &out);
  AppendStr(record.channel, &out);
  AppendStr(record.value.type, &out);
  AppendBin(record.value.bytes, &out);
  SealRecord(&out);
  return out;
}

Result<WriteRecord> DecodeWriteRecord(std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(std::string_view rest, OpenRecord(bytes, kWriteRecord));
  RP_ASSIGN_OR_RETURN(MsgpackTree tree,
                      ParseRecordPart(rest, kWriteRecord, "write"));
  const MsgpackNode& root = tree.root();
  RP_RETURN_IF_ERROR(ExpectFields(root, kWriteFields, kWriteRecord, "write"));
  WriteRecord record;
  RP_RETURN_IF_ERROR(internal::ReadString(tree.element(root, 0), kWriteRecord,
                                          "channel", &record.channel));
  RP_RETURN_IF_ERROR(internal::ReadString(tree.element(root, 1), kWriteRecord,
                                          "type", &record.value.type));
  const MsgpackNode& payload = tree.element(root, 2);
  if (payload.kind != Value::Kind::kBytes) {
    return Mistyped(kWriteRecord, "bytes", "bytes", payload);
  }
  record.value.bytes.assign(payload.bytes());
  return record;
}

}  // namespace rockpoint::serde
