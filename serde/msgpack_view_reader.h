// A direct msgpack reader for the zero-copy record decoders
// (record_views.h, checkpoint_record_view.h). Internal to serde/.
//
// MsgpackReader reads one msgpack item at a time, of the types the record
// grammar (serde/FORMAT.md) allows at that point, in every length form the
// tree parser accepts. It fails (returns false) on anything else; callers
// then leave the input to the reference decoder in records.cpp, so a reader
// need only be right when it succeeds. Strings point into the input.
//
// Thread-safety: a reader object belongs to one thread; the functions are
// pure.
// REQUIRES: the input outlives the reader and every view taken from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "serde/records.h"

namespace rockpoint::serde::internal {

class MsgpackReader {
 public:
  explicit MsgpackReader(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())),
        end_(p_ + bytes.size()) {}

  bool done() const { return p_ == end_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  // The bytes not read yet.
  std::string_view rest() const {
    return std::string_view(reinterpret_cast<const char*>(p_), left());
  }

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

// Splits a checkpoint record into its header and body bytes, checking the
// frame and header_len as SplitCheckpoint in records.cpp does; false
// where that would return Corruption.
inline bool SplitCheckpointBytes(std::string_view record,
                                 std::string_view* header,
                                 std::string_view* body) {
  if (!OpenRecordFast(record, &record)) return false;
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
  *body = record.substr(length);
  return true;
}

}  // namespace rockpoint::serde::internal
