// Direct decoding of checkpoint headers and write records (record_views.h).
//
// MsgpackReader (serde/msgpack_view_reader.h) reads one msgpack item at a
// time, of the types the record grammar (serde/FORMAT.md) allows at that
// point, in every length form the tree parser accepts. It fails (returns
// false) on anything else; the caller then leaves the input to the reference
// decoder. So the direct path needs only be right when it succeeds: it
// accepts a subset of what the reference accepts, and yields the same values.
// The checks that make the reference reject an input are all repeated here:
// exact field counts, field types, unique map keys, the header_len varint
// rules, no trailing bytes. Element counts are never trusted for allocation
// beyond the bytes left, and a complete parse implies the tree parser's limits
// (each claimed element takes at least one byte; the grammar nests two deep).
#include "serde/record_views.h"

#include <algorithm>

#include "serde/msgpack_view_reader.h"

namespace rockpoint::serde {
namespace {

using internal::MsgpackReader;

// True when the channels of `entries` are unique: ascending (as encoded),
// or else without duplicates once sorted.
bool Unique(const std::vector<std::pair<std::string_view, ChannelVersionView>>&
                entries) {
  bool ascending = true;
  for (size_t i = 1; i < entries.size() && ascending; ++i) {
    ascending = entries[i - 1].first < entries[i].first;
  }
  if (ascending) return true;
  std::vector<std::string_view> sorted;
  sorted.reserve(entries.size());
  for (const auto& entry : entries) sorted.push_back(entry.first);
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

}  // namespace

ChannelVersion ToChannelVersion(const ChannelVersionView& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) return *number;
  return std::string(std::get<std::string_view>(version));
}

const ChannelVersionView* CheckpointHeaderView::FindVersion(
    std::string_view channel) const {
  for (const auto& [name, version] : channel_versions) {
    if (name == channel) return &version;
  }
  return nullptr;
}

CheckpointHeader CheckpointHeaderView::ToOwned() const {
  CheckpointHeader header;
  if (parent_id) header.parent_id.emplace(*parent_id);
  for (const auto& [channel, version] : channel_versions) {
    header.channel_versions.emplace(channel, ToChannelVersion(version));
  }
  header.stored_channels.assign(stored_channels.begin(), stored_channels.end());
  header.hidden = hidden;
  return header;
}

WriteRecord WriteRecordView::ToOwned() const {
  return WriteRecord{std::string(channel),
                     TypedValue{std::string(type), std::string(bytes)}};
}

namespace internal {

bool DirectDecodeCheckpointHeader(std::string_view record,
                                  CheckpointHeaderView* out) {
  std::string_view header;
  std::string_view body;
  if (!internal::SplitCheckpointBytes(record, &header, &body)) return false;
  MsgpackReader reader(header);
  uint32_t fields = 0;
  if (!reader.ArrayHeader(&fields) || fields != 4) return false;

  std::string_view parent;
  if (reader.Nil()) {
    out->parent_id.reset();
  } else if (reader.Str(&parent)) {
    out->parent_id = parent;
  } else {
    return false;
  }

  uint32_t count = 0;
  if (!reader.MapHeader(&count) || count > reader.left()) return false;
  out->channel_versions.clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view channel;
    if (!reader.Str(&channel)) return false;
    const uint8_t type = reader.Peek();
    if (MsgpackReader::IsInt(type)) {
      int64_t number = 0;
      if (!reader.Int(&number)) return false;
      out->channel_versions.emplace_back(channel, number);
    } else if (MsgpackReader::IsStr(type)) {
      std::string_view text;
      if (!reader.Str(&text)) return false;
      out->channel_versions.emplace_back(channel, text);
    } else {
      return false;
    }
  }
  if (!Unique(out->channel_versions)) return false;

  if (!reader.ArrayHeader(&count) || count > reader.left()) return false;
  out->stored_channels.clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view channel;
    if (!reader.Str(&channel)) return false;
    out->stored_channels.push_back(channel);
  }
  return reader.Bool(&out->hidden) && reader.done();
}

bool DirectDecodeWriteRecord(std::string_view record, WriteRecordView* out) {
  std::string_view payload;
  if (!OpenRecordFast(record, &payload)) return false;
  MsgpackReader reader(payload);
  uint32_t fields = 0;
  return reader.ArrayHeader(&fields) && fields == 3 &&
         reader.Str(&out->channel) && reader.Str(&out->type) &&
         reader.Bin(&out->bytes) && reader.done();
}

}  // namespace internal

Status DecodeCheckpointHeaderView(std::string_view record,
                                  CheckpointHeaderView* out) {
  if (internal::DirectDecodeCheckpointHeader(record, out)) return Status::OK();
  RP_ASSIGN_OR_RETURN(out->fallback_storage, DecodeCheckpointHeader(record));
  const CheckpointHeader& owned = out->fallback_storage;
  out->parent_id.reset();
  if (owned.parent_id) out->parent_id = *owned.parent_id;
  out->channel_versions.clear();
  for (const auto& [channel, version] : owned.channel_versions) {
    if (const auto* number = std::get_if<int64_t>(&version)) {
      out->channel_versions.emplace_back(channel, *number);
    } else {
      out->channel_versions.emplace_back(
          channel, std::string_view(std::get<std::string>(version)));
    }
  }
  out->stored_channels.assign(owned.stored_channels.begin(),
                              owned.stored_channels.end());
  out->hidden = owned.hidden;
  return Status::OK();
}

Status DecodeWriteRecordView(std::string_view record, WriteRecordView* out) {
  if (internal::DirectDecodeWriteRecord(record, out)) return Status::OK();
  RP_ASSIGN_OR_RETURN(out->fallback_storage, DecodeWriteRecord(record));
  out->channel = out->fallback_storage.channel;
  out->type = out->fallback_storage.value.type;
  out->bytes = out->fallback_storage.value.bytes;
  return Status::OK();
}

}  // namespace rockpoint::serde
