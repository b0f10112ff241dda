// Order-preserving composite keys: a subset of FoundationDB's tuple encoding.
//
// A tuple is a sequence of elements (null, byte string, text string, signed
// 64-bit integer). Encode() maps a tuple to bytes such that
//   * byte order of encodings equals element-wise tuple order, and
//   * the keys of every tuple that starts with tuple t (t itself and its
//     extensions) are exactly the keys in [Encode(t),
//     TuplePrefixUpperBound(Encode(t))), so a scan over `cp, "a"` never sees
//     thread "a:b", "a\0" or "a\xff". A plain byte-prefix match is NOT
//     enough: Encode(("a")) is a byte prefix of Encode(("a\0")).
// The byte format is specified, with a test vector per type code, in
// keys/FORMAT.md.
//
// Thread-safety: all functions are pure; TupleWriter/TupleReader objects are
// not shared between threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::keys {

// Type codes. Persisted in every key: do not renumber.
enum class TypeCode : uint8_t {
  kNull = 0x00,
  kBytes = 0x01,
  kString = 0x02,
  // Integers: 0x14 is zero; 0x15..0x1c are positive integers of 1..8
  // big-endian bytes; 0x13..0x0c are negative integers of 1..8 bytes,
  // stored one's-complemented.
  kIntZero = 0x14,
};

// A byte string element (type code 0x01), distinct from a text string.
struct Bytes {
  std::string data;
  friend auto operator<=>(const Bytes&, const Bytes&) = default;
};

// One tuple element. Order between kinds follows the type code.
using Element = std::variant<std::monostate, Bytes, std::string, int64_t>;
using Tuple = std::vector<Element>;

// Appends encoded elements to a key. Cheap to reuse via Clear().
class TupleWriter {
 public:
  TupleWriter() = default;

  TupleWriter& AddNull();
  TupleWriter& AddBytes(std::string_view bytes);
  TupleWriter& AddString(std::string_view text);
  TupleWriter& AddInt(int64_t value);
  TupleWriter& Add(const Element& element);

  const std::string& data() const { return data_; }
  std::string Release() { return std::move(data_); }
  void Clear() { data_.clear(); }

 private:
  std::string data_;
};

// Reads elements back, in order, from an encoded key. Every Read* returns
// Corruption (naming the offset) on a truncated or mistyped element and then
// leaves the reader unchanged.
class TupleReader {
 public:
  explicit TupleReader(std::string_view encoded) : input_(encoded) {}

  bool done() const { return pos_ >= input_.size(); }
  size_t position() const { return pos_; }
  // The type code of the next element. REQUIRES: !done().
  uint8_t PeekTypeCode() const { return static_cast<uint8_t>(input_[pos_]); }

  Status ReadNull();
  Status ReadBytes(std::string* out);
  Status ReadString(std::string* out);
  Status ReadInt(int64_t* out);
  Status Read(Element* out);

 private:
  Status ReadEscaped(uint8_t code, std::string* out);

  std::string_view input_;
  size_t pos_ = 0;
};

std::string Encode(const Tuple& tuple);
// Corruption if `encoded` is not a whole, well-formed tuple.
Result<Tuple> Decode(std::string_view encoded);

// The smallest byte string greater than every string starting with `prefix`,
// or "" if there is none (prefix is empty or all 0xFF). An exclusive upper
// bound for raw byte-prefix scans; for tuple prefixes use
// TuplePrefixUpperBound().
std::string PrefixSuccessor(std::string_view prefix);

// The exclusive upper bound of the keys of all tuples that start with the
// tuple encoded as `encoded_prefix`: encoded_prefix + 0xFF. Those keys are
// followed by a type code (< 0xFF) or nothing; a key that merely continues the
// prefix's last string with a NUL is followed by 0xFF and so is excluded
// (PrefixSuccessor(encoded_prefix) would include it). Also the SeekForPrev
// target for the greatest key of the prefix (a found key below
// encoded_prefix belongs to no tuple of the prefix).
// REQUIRES: encoded_prefix is a whole encoded tuple (e.g. from Encode()).
std::string TuplePrefixUpperBound(std::string_view encoded_prefix);

// Human-readable rendering of a key for dumps and error messages, e.g.
// ("cp", "thread-1", "", "1ef...") ; non-printable bytes as \xNN. Falls back
// to a hex dump if the key does not decode. A string element (or the hex
// dump) longer than `max_element_bytes` shows its first max_element_bytes
// bytes followed by `...(+N bytes)`, so a megabyte-long thread id cannot
// flood an error message; 0 means no limit (full dumps).
inline constexpr size_t kDescribeDefaultMaxBytes = 64;
std::string Describe(std::string_view encoded,
                     size_t max_element_bytes = kDescribeDefaultMaxBytes);

}  // namespace rockpoint::keys
