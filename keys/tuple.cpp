// Tuple key codec (see keys/tuple.h; the format for humans is keys/FORMAT.md).
//
// Grammar of an encoded tuple (all multi-byte integers big-endian):
//
//   tuple    := element*
//   element  := null | bytes | string | int
//   null     := 0x00
//   bytes    := 0x01 escaped 0x00
//   string   := 0x02 escaped 0x00
//   escaped  := ( any byte but 0x00 | 0x00 0xFF )*      ; 0x00 0xFF means 0x00
//   int      := 0x14                                    ; zero
//             | (0x14 + n) b[1..n]                      ; positive, n in 1..8,
//                                                       ;   b[1] != 0x00
//             | (0x14 - n) ~b[1..n]                     ; negative, n in 1..8,
//                                                       ;   ~b[1] != 0xFF
//
// where b[1..n] is the magnitude in the fewest bytes and ~ is the bitwise
// complement. Decoding rejects everything else (unknown code, truncation,
// missing terminator, non-minimal or out-of-range integer) with Corruption, so
// each tuple has exactly one encoding.
#include "keys/tuple.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>
#include <utility>

namespace rockpoint::keys {
namespace {

constexpr uint8_t kIntZero = static_cast<uint8_t>(TypeCode::kIntZero);
constexpr uint8_t kIntMinCode = kIntZero - 8;  // 0x0c: 8-byte negative.
constexpr uint8_t kIntMaxCode = kIntZero + 8;  // 0x1c: 8-byte positive.
constexpr uint8_t kEscapeByte = 0xFF;

bool IsIntCode(uint8_t code) {
  return code >= kIntMinCode && code <= kIntMaxCode;
}

std::string HexByte(uint8_t byte) {
  char buffer[3];
  std::snprintf(buffer, sizeof(buffer), "%02x", byte);
  return buffer;
}

const char* CodeName(uint8_t code) {
  switch (code) {
    case static_cast<uint8_t>(TypeCode::kNull):
      return "null";
    case static_cast<uint8_t>(TypeCode::kBytes):
      return "bytes";
    case static_cast<uint8_t>(TypeCode::kString):
      return "string";
    default:
      return IsIntCode(code) ? "integer" : "unknown";
  }
}

Status CorruptionAt(size_t offset, const std::string& what) {
  return Status::Corruption("tuple: " + what + " at byte offset " +
                            std::to_string(offset));
}

// Appends `raw` escaped (0x00 -> 0x00 0xFF) and the 0x00 terminator.
void AppendEscaped(std::string* out, uint8_t code, std::string_view raw) {
  out->push_back(static_cast<char>(code));
  size_t start = 0;
  while (true) {
    size_t zero = raw.find('\0', start);
    if (zero == std::string_view::npos) {
      out->append(raw.substr(start));
      break;
    }
    out->append(raw.substr(start, zero + 1 - start));
    out->push_back(static_cast<char>(kEscapeByte));
    start = zero + 1;
  }
  out->push_back('\0');
}

void AppendInt(std::string* out, int64_t value) {
  if (value == 0) {
    out->push_back(static_cast<char>(kIntZero));
    return;
  }
  // Unsigned negation is well defined for INT64_MIN (magnitude 2^63).
  const uint64_t magnitude = value > 0 ? static_cast<uint64_t>(value)
                                       : 0 - static_cast<uint64_t>(value);
  const int length = (std::bit_width(magnitude) + 7) / 8;  // 1..8
  const uint64_t payload = value > 0 ? magnitude : ~magnitude;
  out->push_back(
      static_cast<char>(value > 0 ? kIntZero + length : kIntZero - length));
  for (int i = length - 1; i >= 0; --i) {
    out->push_back(static_cast<char>(payload >> (8 * i)));
  }
}

// Appends "...(+N bytes)" when `elided` bytes were left out of a rendering.
void AppendElided(std::string* out, size_t elided) {
  if (elided == 0) return;
  out->append("...(+" + std::to_string(elided) + " bytes)");
}

// Appends `raw` for Describe(): printable ASCII as is, `"` and `\` escaped
// with a backslash, every other byte as \xNN.
void AppendQuoted(std::string* out, std::string_view raw, size_t max_bytes) {
  const size_t shown =
      max_bytes == 0 ? raw.size() : std::min(raw.size(), max_bytes);
  out->push_back('"');
  for (char c : raw.substr(0, shown)) {
    const auto byte = static_cast<uint8_t>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (byte >= 0x20 && byte < 0x7F) {
      out->push_back(c);
    } else {
      out->append("\\x");
      out->append(HexByte(byte));
    }
  }
  out->push_back('"');
  AppendElided(out, raw.size() - shown);
}

}  // namespace

// ---------------------------------------------------------------- TupleWriter

TupleWriter& TupleWriter::AddNull() {
  data_.push_back(static_cast<char>(TypeCode::kNull));
  return *this;
}

TupleWriter& TupleWriter::AddBytes(std::string_view bytes) {
  AppendEscaped(&data_, static_cast<uint8_t>(TypeCode::kBytes), bytes);
  return *this;
}

TupleWriter& TupleWriter::AddString(std::string_view text) {
  AppendEscaped(&data_, static_cast<uint8_t>(TypeCode::kString), text);
  return *this;
}

TupleWriter& TupleWriter::AddInt(int64_t value) {
  AppendInt(&data_, value);
  return *this;
}

TupleWriter& TupleWriter::Add(const Element& element) {
  if (std::holds_alternative<std::monostate>(element)) return AddNull();
  if (const auto* bytes = std::get_if<Bytes>(&element)) {
    return AddBytes(bytes->data);
  }
  if (const auto* text = std::get_if<std::string>(&element)) {
    return AddString(*text);
  }
  return AddInt(std::get<int64_t>(element));
}

// ---------------------------------------------------------------- TupleReader

Status TupleReader::ReadNull() {
  constexpr auto kCode = static_cast<uint8_t>(TypeCode::kNull);
  if (done()) return CorruptionAt(pos_, "expected null, found end of input");
  if (PeekTypeCode() != kCode) {
    return CorruptionAt(pos_, std::string("expected null, found ") +
                                  CodeName(PeekTypeCode()) + " code 0x" +
                                  HexByte(PeekTypeCode()));
  }
  ++pos_;
  return Status::OK();
}

Status TupleReader::ReadBytes(std::string* out) {
  return ReadEscaped(static_cast<uint8_t>(TypeCode::kBytes), out);
}

Status TupleReader::ReadString(std::string* out) {
  return ReadEscaped(static_cast<uint8_t>(TypeCode::kString), out);
}

Status TupleReader::ReadEscaped(uint8_t code, std::string* out) {
  // Messages are built only on failure: this runs once per key element.
  if (done()) {
    return CorruptionAt(pos_, std::string("expected ") + CodeName(code) +
                                  ", found end of input");
  }
  if (PeekTypeCode() != code) {
    return CorruptionAt(pos_, std::string("expected ") + CodeName(code) +
                                  ", found " + CodeName(PeekTypeCode()) +
                                  " code 0x" + HexByte(PeekTypeCode()));
  }
  std::string value;
  size_t start = pos_ + 1;
  while (true) {
    const size_t zero = input_.find('\0', start);
    if (zero == std::string_view::npos) {
      return CorruptionAt(pos_,
                          std::string("unterminated ") + CodeName(code) +
                              " (no 0x00 terminator before end of input)");
    }
    value.append(input_.substr(start, zero - start));
    if (zero + 1 < input_.size() &&
        static_cast<uint8_t>(input_[zero + 1]) == kEscapeByte) {
      value.push_back('\0');
      start = zero + 2;
      continue;
    }
    pos_ = zero + 1;
    break;
  }
  *out = std::move(value);
  return Status::OK();
}

Status TupleReader::ReadInt(int64_t* out) {
  if (done()) {
    return CorruptionAt(pos_, "expected integer, found end of input");
  }
  const uint8_t code = PeekTypeCode();
  if (!IsIntCode(code)) {
    return CorruptionAt(pos_, std::string("expected integer, found ") +
                                  CodeName(code) + " code 0x" + HexByte(code));
  }
  if (code == kIntZero) {
    *out = 0;
    ++pos_;
    return Status::OK();
  }
  const bool negative = code < kIntZero;
  const size_t length = negative ? kIntZero - code : code - kIntZero;
  const size_t available = input_.size() - pos_ - 1;
  if (available < length) {
    return CorruptionAt(pos_, "truncated integer (code 0x" + HexByte(code) +
                                  " needs " + std::to_string(length) +
                                  " bytes, " + std::to_string(available) +
                                  " left)");
  }
  const auto first = static_cast<uint8_t>(input_[pos_ + 1]);
  if (first == (negative ? kEscapeByte : 0x00)) {
    return CorruptionAt(pos_, "non-minimal integer (leading byte 0x" +
                                  HexByte(first) + " after code 0x" +
                                  HexByte(code) + ")");
  }
  uint64_t magnitude = 0;
  for (size_t i = 1; i <= length; ++i) {
    auto byte = static_cast<uint8_t>(input_[pos_ + i]);
    if (negative) byte = static_cast<uint8_t>(~byte);
    magnitude = (magnitude << 8) | byte;
  }
  constexpr auto kMaxPositive =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (magnitude > (negative ? kMaxPositive + 1 : kMaxPositive)) {
    return CorruptionAt(pos_, "integer out of int64 range");
  }
  // 0 - magnitude in uint64 wraps to the two's-complement bit pattern of the
  // negative value (2^63 maps to INT64_MIN).
  *out = static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
  pos_ += 1 + length;
  return Status::OK();
}

Status TupleReader::Read(Element* out) {
  if (done()) return CorruptionAt(pos_, "expected element, found end of input");
  const uint8_t code = PeekTypeCode();
  switch (code) {
    case static_cast<uint8_t>(TypeCode::kNull):
      RP_RETURN_IF_ERROR(ReadNull());
      *out = std::monostate{};
      return Status::OK();
    case static_cast<uint8_t>(TypeCode::kBytes): {
      Bytes bytes;
      RP_RETURN_IF_ERROR(ReadBytes(&bytes.data));
      *out = std::move(bytes);
      return Status::OK();
    }
    case static_cast<uint8_t>(TypeCode::kString): {
      std::string text;
      RP_RETURN_IF_ERROR(ReadString(&text));
      *out = std::move(text);
      return Status::OK();
    }
    default:
      break;
  }
  if (!IsIntCode(code)) {
    return CorruptionAt(pos_, "unknown type code 0x" + HexByte(code));
  }
  int64_t value = 0;
  RP_RETURN_IF_ERROR(ReadInt(&value));
  *out = value;
  return Status::OK();
}

// ------------------------------------------------------------ free functions

std::string Encode(const Tuple& tuple) {
  TupleWriter writer;
  for (const Element& element : tuple) writer.Add(element);
  return writer.Release();
}

Result<Tuple> Decode(std::string_view encoded) {
  TupleReader reader(encoded);
  Tuple tuple;
  while (!reader.done()) {
    Element element;
    RP_RETURN_IF_ERROR(reader.Read(&element));
    tuple.push_back(std::move(element));
  }
  return tuple;
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string successor(prefix);
  while (!successor.empty() &&
         static_cast<uint8_t>(successor.back()) == kEscapeByte) {
    successor.pop_back();
  }
  if (successor.empty()) return successor;
  successor.back() =
      static_cast<char>(static_cast<uint8_t>(successor.back()) + 1);
  return successor;
}

std::string TuplePrefixUpperBound(std::string_view encoded_prefix) {
  std::string bound(encoded_prefix);
  bound.push_back(static_cast<char>(kEscapeByte));
  return bound;
}

std::string Describe(std::string_view encoded, size_t max_element_bytes) {
  Result<Tuple> tuple = Decode(encoded);
  std::string out;
  if (!tuple.ok()) {
    // Not a tuple: every byte as two hex digits, space separated.
    const size_t shown = max_element_bytes == 0
                             ? encoded.size()
                             : std::min(encoded.size(), max_element_bytes);
    out = "<not a tuple:";
    for (char c : encoded.substr(0, shown)) {
      out.push_back(' ');
      out.append(HexByte(static_cast<uint8_t>(c)));
    }
    AppendElided(&out, encoded.size() - shown);
    out.push_back('>');
    return out;
  }
  out.push_back('(');
  bool first = true;
  for (const Element& element : *tuple) {
    if (!first) out.append(", ");
    first = false;
    if (std::holds_alternative<std::monostate>(element)) {
      out.append("null");
    } else if (const auto* bytes = std::get_if<Bytes>(&element)) {
      out.push_back('b');
      AppendQuoted(&out, bytes->data, max_element_bytes);
    } else if (const auto* text = std::get_if<std::string>(&element)) {
      AppendQuoted(&out, *text, max_element_bytes);
    } else {
      out.append(std::to_string(std::get<int64_t>(element)));
    }
  }
  out.push_back(')');
  return out;
}

}  // namespace rockpoint::keys
