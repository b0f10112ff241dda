// Msgpack items skipped by their headers (msgpack_map_entries.h); the type
// bytes are msgpack's (serde/FORMAT.md, section 1).
#include "serde/msgpack_map_entries.h"

#include <cstdint>

namespace rockpoint::serde {
namespace {

Status Truncated() {
  return Status::Corruption("msgpack: item truncated or malformed");
}

// Reads a big-endian length of `width` bytes at bytes[pos].
bool ReadLength(std::string_view bytes, size_t pos, size_t width,
                uint64_t* out) {
  if (pos + width > bytes.size()) return false;
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    value = (value << 8) | static_cast<uint8_t>(bytes[pos + i]);
  }
  *out = value;
  return true;
}

// The header of the item at bytes[pos]: its header size, the payload bytes
// after it, and how many nested items follow it (array elements, map keys
// and values). False when truncated or not msgpack.
struct Header {
  size_t header = 1;
  uint64_t payload = 0;
  uint64_t children = 0;
};

bool ReadHeader(std::string_view bytes, size_t pos, Header* h) {
  if (pos >= bytes.size()) return false;
  const uint8_t b = static_cast<uint8_t>(bytes[pos]);
  *h = Header{};
  if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
    return true;  // fixint, nil, bool.
  }
  if ((b & 0xf0) == 0x80) return h->children = 2 * (b & 0x0f), true;
  if ((b & 0xf0) == 0x90) return h->children = b & 0x0f, true;
  if ((b & 0xe0) == 0xa0) return h->payload = b & 0x1f, true;
  uint64_t n = 0;
  switch (b) {
    case 0xcc:
    case 0xd0:
      return h->payload = 1, true;
    case 0xcd:
    case 0xd1:
      return h->payload = 2, true;
    case 0xce:
    case 0xd2:
    case 0xca:
      return h->payload = 4, true;
    case 0xcf:
    case 0xd3:
    case 0xcb:
      return h->payload = 8, true;
    case 0xd4:
      return h->payload = 2, true;  // fixext 1 (+ type byte)
    case 0xd5:
      return h->payload = 3, true;
    case 0xd6:
      return h->payload = 5, true;
    case 0xd7:
      return h->payload = 9, true;
    case 0xd8:
      return h->payload = 17, true;
    case 0xc4:
    case 0xd9:
      if (!ReadLength(bytes, pos + 1, 1, &n)) return false;
      return h->header = 2, h->payload = n, true;
    case 0xc5:
    case 0xda:
      if (!ReadLength(bytes, pos + 1, 2, &n)) return false;
      return h->header = 3, h->payload = n, true;
    case 0xc6:
    case 0xdb:
      if (!ReadLength(bytes, pos + 1, 4, &n)) return false;
      return h->header = 5, h->payload = n, true;
    case 0xc7:
    case 0xc8:
    case 0xc9: {  // ext 8/16/32: length, type, data
      const size_t width = b == 0xc7 ? 1 : (b == 0xc8 ? 2 : 4);
      if (!ReadLength(bytes, pos + 1, width, &n)) return false;
      return h->header = 1 + width, h->payload = n + 1, true;
    }
    case 0xdc:
    case 0xdd: {
      const size_t width = b == 0xdc ? 2 : 4;
      if (!ReadLength(bytes, pos + 1, width, &n)) return false;
      return h->header = 1 + width, h->children = n, true;
    }
    case 0xde:
    case 0xdf: {
      const size_t width = b == 0xde ? 2 : 4;
      if (!ReadLength(bytes, pos + 1, width, &n)) return false;
      return h->header = 1 + width, h->children = 2 * n, true;
    }
    default:
      return false;  // 0xc1, never used.
  }
}

}  // namespace

Result<size_t> MsgpackItemLength(std::string_view bytes) {
  size_t pos = 0;
  uint64_t pending = 1;
  while (pending > 0) {
    Header h;
    if (!ReadHeader(bytes, pos, &h)) return Truncated();
    const uint64_t size = h.header + h.payload;
    if (size > bytes.size() - pos) return Truncated();
    pos += size;
    // Each child takes at least one byte: more pending items than bytes
    // left is malformed (and keeps `pending` from overflowing).
    if (h.children > bytes.size() - pos) return Truncated();
    pending = pending - 1 + h.children;
  }
  return pos;
}

Status ForEachMapEntry(
    std::string_view map_bytes,
    const std::function<bool(std::string_view, std::string_view)>& visit) {
  Header map;
  if (!ReadHeader(map_bytes, 0, &map) || map.payload != 0 ||
      (map.children % 2) != 0 || map_bytes.empty() ||
      !((static_cast<uint8_t>(map_bytes[0]) & 0xf0) == 0x80 ||
        static_cast<uint8_t>(map_bytes[0]) == 0xde ||
        static_cast<uint8_t>(map_bytes[0]) == 0xdf)) {
    return Status::Corruption("msgpack: not a map");
  }
  size_t pos = map.header;
  for (uint64_t entry = 0; entry < map.children / 2; ++entry) {
    Header key;
    const uint8_t b =
        pos < map_bytes.size() ? static_cast<uint8_t>(map_bytes[pos]) : 0xc1;
    const bool is_str = (b & 0xe0) == 0xa0 || (b >= 0xd9 && b <= 0xdb);
    if (!is_str || !ReadHeader(map_bytes, pos, &key) ||
        key.header + key.payload > map_bytes.size() - pos) {
      return Status::Corruption("msgpack: map key is not a str");
    }
    const std::string_view name =
        map_bytes.substr(pos + key.header, key.payload);
    pos += key.header + key.payload;
    RP_ASSIGN_OR_RETURN(size_t length,
                        MsgpackItemLength(map_bytes.substr(pos)));
    if (!visit(name, map_bytes.substr(pos, length))) return Status::OK();
    pos += length;
  }
  if (pos != map_bytes.size()) {
    return Status::Corruption("msgpack: bytes after the map");
  }
  return Status::OK();
}

}  // namespace rockpoint::serde
