// Direct decoding of checkpoint headers and write records (record_views.h).
//
// MsgpackReader reads one msgpack item at a time, of the types the record
// grammar (serde/FORMAT.md) allows at that point, in every length form the
// tree parser accepts. It fails (returns false) on anything else; the caller
// then leaves the input to the reference decoder. So the direct path needs
// only be right when it succeeds: it accepts a subset of what the reference
// accepts, and yields the same values. The checks that make the reference
// reject an input are all repeated here: exact field counts, field types,
// unique map keys, the header_len varint rules, no trailing bytes. Element
// counts are never trusted for allocation beyond the bytes left, and a
// complete parse implies the tree parser's limits (each claimed element
// takes at least one byte; the grammar nests two deep).
#include "serde/record_views.h"

#include <algorithm>
#include <limits>

namespace rockpoint::serde {
namespace {

class MsgpackReader {
 public:
  explicit MsgpackReader(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())),
        end_(p_ + bytes.size()) {}

  bool done() const { return p_ == end_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }

  // The next type byte, or 0xc1 (never valid) at the end.
  uint8_t Peek() const { return p_ < end_ ? *p_ : 0xc1; }

  bool ArrayHeader(uint32_t* size) {
    const uint8_t b = Peek();
    if ((b & 0xf0) == 0x90) return Fixed(b & 0x0f, size);
    if (b == 0xdc) return Length(2, size);
    if (b == 0xdd) return Length(4, size);
    return false;
  }

  bool MapHeader(uint32_t* size) {
    const uint8_t b = Peek();
    if ((b & 0xf0) == 0x80) return Fixed(b & 0x0f, size);
    if (b == 0xde) return Length(2, size);
    if (b == 0xdf) return Length(4, size);
    return false;
  }

  static bool IsStr(uint8_t b) {
    return (b & 0xe0) == 0xa0 || (b >= 0xd9 && b <= 0xdb);
  }

  bool Str(std::string_view* out) {
    const uint8_t b = Peek();
    uint32_t size = 0;
    if ((b & 0xe0) == 0xa0) {
      if (!Fixed(b & 0x1f, &size)) return false;
    } else if (b >= 0xd9 && b <= 0xdb) {
      if (!Length(1 << (b - 0xd9), &size)) return false;
    } else {
      return false;
    }
    return Take(size, out);
  }

  bool Bin(std::string_view* out) {
    const uint8_t b = Peek();
    uint32_t size = 0;
    if (b < 0xc4 || b > 0xc6 || !Length(1 << (b - 0xc4), &size)) return false;
    return Take(size, out);
  }

  // nil: consumes it and returns true; anything else: false, nothing read.
  bool Nil() {
    if (Peek() != 0xc0) return false;
    ++p_;
    return true;
  }

  bool Bool(bool* out) {
    const uint8_t b = Peek();
    if (b != 0xc2 && b != 0xc3) return false;
    *out = b == 0xc3;
    ++p_;
    return true;
  }

  static bool IsInt(uint8_t b) {
    return b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xcf) ||
           (b >= 0xd0 && b <= 0xd3);
  }

  // Any integer form; unsigned values above INT64_MAX fail.
  bool Int(int64_t* out) {
    const uint8_t b = Peek();
    if (b <= 0x7f || b >= 0xe0) {
      *out = static_cast<int8_t>(b);
      ++p_;
      return true;
    }
    if (b >= 0xcc && b <= 0xcf) {
      uint64_t value = 0;
      if (!BigEndian(size_t{1} << (b - 0xcc), &value) ||
          value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return false;
      }
      *out = static_cast<int64_t>(value);
      return true;
    }
    if (b >= 0xd0 && b <= 0xd3) {
      const size_t width = size_t{1} << (b - 0xd0);
      uint64_t value = 0;
      if (!BigEndian(width, &value)) return false;
      // Sign-extend the `width`-byte two's complement value.
      const unsigned shift = 64 - 8 * static_cast<unsigned>(width);
      *out = static_cast<int64_t>(value << shift) >> shift;
      return true;
    }
    return false;
  }

 private:
  bool Fixed(uint32_t size, uint32_t* out) {
    ++p_;
    *out = size;
    return true;
  }

  // A type byte followed by a `width`-byte big-endian length.
  bool Length(size_t width, uint32_t* out) {
    uint64_t value = 0;
    if (!BigEndian(width, &value)) return false;
    *out = static_cast<uint32_t>(value);
    return true;
  }

  // Reads the type byte and the `width` big-endian bytes after it.
  bool BigEndian(size_t width, uint64_t* out) {
    if (left() < 1 + width) return false;
    uint64_t value = 0;
    for (size_t i = 1; i <= width; ++i) value = (value << 8) | p_[i];
    p_ += 1 + width;
    *out = value;
    return true;
  }

  bool Take(uint32_t size, std::string_view* out) {
    if (left() < size) return false;
    *out = std::string_view(reinterpret_cast<const char*>(p_), size);
    p_ += size;
    return true;
  }

  const uint8_t* p_;
  const uint8_t* end_;
};

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

// The header bytes of a checkpoint record (version byte and header_len
// checked as SplitCheckpoint in records.cpp does), or false.
bool HeaderBytes(std::string_view record, std::string_view* header) {
  if (record.empty() ||
      static_cast<uint8_t>(record[0]) != kRecordFormatVersion) {
    return false;
  }
  record.remove_prefix(1);
  uint32_t length = 0;
  size_t used = 0;
  for (;; ++used) {
    if (used == record.size()) return false;
    const uint8_t byte = static_cast<uint8_t>(record[used]);
    if (used == 4 && byte > 0x0f) return false;
    length |= static_cast<uint32_t>(byte & 0x7f) << (7 * used);
    if ((byte & 0x80) == 0) {
      if (byte == 0 && used > 0) return false;
      ++used;
      break;
    }
  }
  record.remove_prefix(used);
  if (length > record.size()) return false;
  *header = record.substr(0, length);
  return true;
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
  if (!HeaderBytes(record, &header)) return false;
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
  if (record.empty() ||
      static_cast<uint8_t>(record[0]) != kRecordFormatVersion) {
    return false;
  }
  MsgpackReader reader(record.substr(1));
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
