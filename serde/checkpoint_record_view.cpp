// Direct decoding of checkpoint and blob records (checkpoint_record_view.h).
//
// As in record_views.cpp, the direct path accepts a subset of what the
// reference decoder accepts and yields the same values; every check that
// makes the reference reject an input is repeated (exact field counts, field
// types, unique map keys, header_len rules, no trailing bytes). Metadata (a
// free-form map) is read directly for the value kinds it commonly holds; the
// rest, and nesting near kMaxDepth (the reference counts the body array as
// one level), is left to the reference.
#include "serde/checkpoint_record_view.h"

#include <map>
#include <string>
#include <utility>

#include "rockpoint/msgpack_codec.h"
#include "rockpoint/value.h"
#include "serde/msgpack_view_reader.h"

namespace rockpoint::serde {
namespace {

using internal::MsgpackReader;

bool ReadVersion(MsgpackReader& reader, ChannelVersion* out) {
  const uint8_t type = reader.Peek();
  if (MsgpackReader::IsInt(type)) {
    int64_t number = 0;
    if (!reader.Int(&number)) return false;
    *out = number;
    return true;
  }
  std::string_view text;
  if (!MsgpackReader::IsStr(type) || !reader.Str(&text)) return false;
  *out = std::string(text);
  return true;
}

// A vmap; false on a duplicate key, as the reference rejects it.
bool ReadVersionMap(MsgpackReader& reader,
                    std::map<std::string, ChannelVersion>* out) {
  uint32_t count = 0;
  if (!reader.MapHeader(&count) || count > reader.left()) return false;
  out->clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view channel;
    ChannelVersion version;
    if (!reader.Str(&channel) || !ReadVersion(reader, &version)) return false;
    const size_t before = out->size();
    out->emplace_hint(out->end(), channel, std::move(version));
    if (out->size() == before) return false;
  }
  return true;
}

bool ReadStringList(MsgpackReader& reader, std::vector<std::string>* out) {
  uint32_t count = 0;
  if (!reader.ArrayHeader(&count) || count > reader.left()) return false;
  out->clear();
  out->reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view text;
    if (!reader.Str(&text)) return false;
    out->emplace_back(text);
  }
  return true;
}

bool ReadTypedValue(MsgpackReader& reader, TypedValue* out) {
  uint32_t fields = 0;
  std::string_view type;
  std::string_view bytes;
  if (!reader.ArrayHeader(&fields) || fields != 2 || !reader.Str(&type) ||
      !reader.Bin(&bytes)) {
    return false;
  }
  out->type.assign(type);
  out->bytes.assign(bytes);
  return true;
}

// One metadata item, `depth` containers deep, of the kinds metadata
// commonly holds (nil, bool, int64, str, bin, array, map with unique str
// keys); false on anything else (doubles, ext, ints above INT64_MAX) and on
// nesting the reference might reject, leaving those to the reference.
bool ReadValue(MsgpackReader& reader, int depth, Value* out) {
  const uint8_t type = reader.Peek();
  if (reader.Nil()) {
    *out = Value();
    return true;
  }
  if (type == 0xc2 || type == 0xc3) {
    bool flag = false;
    if (!reader.Bool(&flag)) return false;
    *out = Value(flag);
    return true;
  }
  if (MsgpackReader::IsInt(type)) {
    int64_t number = 0;
    if (!reader.Int(&number)) return false;
    *out = Value(number);
    return true;
  }
  std::string_view text;
  if (MsgpackReader::IsStr(type)) {
    if (!reader.Str(&text)) return false;
    *out = Value(std::string(text));
    return true;
  }
  if (type >= 0xc4 && type <= 0xc6) {
    if (!reader.Bin(&text)) return false;
    *out = Value(Bytes{std::string(text)});
    return true;
  }
  // The reference parses metadata inside the body array: one level deeper.
  if (depth + 2 >= kMaxDepth) return false;
  uint32_t count = 0;
  if (reader.ArrayHeader(&count)) {
    if (count > reader.left()) return false;
    Value::Array array(count);
    for (Value& item : array) {
      if (!ReadValue(reader, depth + 1, &item)) return false;
    }
    *out = Value(std::move(array));
    return true;
  }
  if (!reader.MapHeader(&count) || count > reader.left()) return false;
  Value::Map map;
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view key;
    if (!reader.Str(&key)) return false;
    const size_t before = map.size();
    auto it = map.emplace_hint(map.end(), key, Value());
    if (map.size() == before) return false;
    if (!ReadValue(reader, depth + 1, &it->second)) return false;
  }
  *out = Value(std::move(map));
  return true;
}

bool ReadHeader(std::string_view bytes, CheckpointHeader* header) {
  MsgpackReader reader(bytes);
  uint32_t fields = 0;
  if (!reader.ArrayHeader(&fields) || fields != kCheckpointHeaderFields)
    return false;
  std::string_view parent;
  if (reader.Nil()) {
    header->parent_id.reset();
  } else if (reader.Str(&parent)) {
    header->parent_id.emplace(parent);
  } else {
    return false;
  }
  return ReadVersionMap(reader, &header->channel_versions) &&
         ReadStringList(reader, &header->stored_channels) &&
         reader.Bool(&header->hidden) && reader.done();
}

bool ReadBody(std::string_view bytes, CheckpointRecord* record) {
  MsgpackReader reader(bytes);
  uint32_t fields = 0;
  std::string_view ts;
  if (!reader.ArrayHeader(&fields) || fields != kCheckpointBodyFields ||
      !reader.Int(&record->v) || !reader.Str(&ts)) {
    return false;
  }
  record->ts.assign(ts);

  uint32_t nodes = 0;
  if (!reader.MapHeader(&nodes) || nodes > reader.left()) return false;
  record->versions_seen.clear();
  for (uint32_t i = 0; i < nodes; ++i) {
    std::string_view node;
    if (!reader.Str(&node)) return false;
    auto [it, inserted] = record->versions_seen.try_emplace(std::string(node));
    if (!inserted || !ReadVersionMap(reader, &it->second)) return false;
  }

  if (reader.Nil()) {
    record->updated_channels.reset();
  } else if (!ReadStringList(reader, &record->updated_channels.emplace())) {
    return false;
  }

  if (reader.Nil()) {
    record->pending_sends.reset();
  } else {
    uint32_t count = 0;
    if (!reader.ArrayHeader(&count) || count > reader.left()) return false;
    std::vector<TypedValue>& sends = record->pending_sends.emplace(count);
    for (TypedValue& send : sends) {
      if (!ReadTypedValue(reader, &send)) return false;
    }
  }

  // Metadata: a map running to the end of the body.
  uint8_t type = reader.Peek();
  if ((type & 0xf0) != 0x80 && type != 0xde && type != 0xdf) return false;
  return ReadValue(reader, 0, &record->metadata) && reader.done();
}

}  // namespace

BlobRecord BlobRecordView::ToOwned() const {
  BlobRecord record;
  record.empty = empty;
  if (!empty) record.value = TypedValue{std::string(type), std::string(bytes)};
  return record;
}

namespace internal {

bool DirectDecodeCheckpointRecord(std::string_view record,
                                  CheckpointRecord* out) {
  std::string_view header;
  std::string_view body;
  return SplitCheckpointBytes(record, &header, &body) &&
         ReadHeader(header, &out->header) && ReadBody(body, out);
}

bool DirectDecodeBlobRecord(std::string_view record, BlobRecordView* out) {
  std::string_view payload;
  if (!OpenRecordFast(record, &payload)) return false;
  MsgpackReader reader(payload);
  if (reader.Nil()) {
    out->empty = true;
    out->type = {};
    out->bytes = {};
    return reader.done();
  }
  uint32_t fields = 0;
  out->empty = false;
  return reader.ArrayHeader(&fields) && fields == 2 && reader.Str(&out->type) &&
         reader.Bin(&out->bytes) && reader.done();
}

}  // namespace internal

Result<CheckpointRecord> DecodeCheckpointRecordDirect(std::string_view record) {
  CheckpointRecord decoded;
  if (internal::DirectDecodeCheckpointRecord(record, &decoded)) {
    return decoded;
  }
  return DecodeCheckpointRecord(record);
}

Status DecodeBlobRecordView(std::string_view record, BlobRecordView* out) {
  if (internal::DirectDecodeBlobRecord(record, out)) return Status::OK();
  RP_ASSIGN_OR_RETURN(out->fallback_storage, DecodeBlobRecord(record));
  out->empty = out->fallback_storage.empty;
  out->type = out->empty ? std::string_view()
                         : std::string_view(out->fallback_storage.value.type);
  out->bytes = out->empty ? std::string_view()
                          : std::string_view(out->fallback_storage.value.bytes);
  return Status::OK();
}

}  // namespace rockpoint::serde
