// Value: map lookup, kind names and the human-readable rendering.
//
// DebugString grammar (JSON, plus three conventions):
//   null | true | false | <int> | <double> | "<string>" | [..] | {"k":v,..}
//   - a double always shows a '.', an exponent, NaN, Infinity or -Infinity,
//     so 1.0 renders as 1.0, never as the int 1; -0.0 renders as -0.0;
//   - bytes render as the string "b64:<standard base64 with padding>";
//   - an ext renders as {"$ext":<tag>,"b64":"<base64 of its data>"}.
// Strings are JSON-escaped; a byte that is not part of valid UTF-8 renders as
// \xNN (the one non-JSON escape).
#include "rockpoint/value.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace rockpoint::serde {
namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(std::string_view data, std::string* out) {
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) |
                 (static_cast<uint8_t>(data[i + 1]) << 8) |
                 static_cast<uint8_t>(data[i + 2]);
    out->push_back(kBase64Alphabet[(n >> 18) & 63]);
    out->push_back(kBase64Alphabet[(n >> 12) & 63]);
    out->push_back(kBase64Alphabet[(n >> 6) & 63]);
    out->push_back(kBase64Alphabet[n & 63]);
  }
  size_t rest = data.size() - i;
  if (rest == 0) return;
  uint32_t n = static_cast<uint8_t>(data[i]) << 16;
  if (rest == 2) n |= static_cast<uint8_t>(data[i + 1]) << 8;
  out->push_back(kBase64Alphabet[(n >> 18) & 63]);
  out->push_back(kBase64Alphabet[(n >> 12) & 63]);
  out->push_back(rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=');
  out->push_back('=');
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if none.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t lead = byte(i);
  size_t length;
  uint8_t min_second = 0x80, max_second = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) min_second = 0xa0;  // no overlong forms.
    if (lead == 0xed) max_second = 0x9f;  // no surrogates.
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) min_second = 0x90;  // no overlong forms.
    if (lead == 0xf4) max_second = 0x8f;  // nothing above U+10FFFF.
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return length;
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  char escape[8];
  for (size_t i = 0; i < s.size();) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c >= 0x80) {
      size_t length = Utf8SequenceLength(s, i);
      if (length == 0) {
        std::snprintf(escape, sizeof(escape), "\\x%02x", c);
        out->append(escape);
        ++i;
      } else {
        out->append(s.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          std::snprintf(escape, sizeof(escape), "\\u%04x", c);
          out->append(escape);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

void AppendDouble(double d, std::string* out) {
  if (std::isnan(d)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(d)) {
    out->append(d > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char buf[64];
  // Shortest representation that reads back as the same double.
  auto result = std::to_chars(buf, buf + sizeof(buf), d);
  std::string_view text(buf, result.ptr - buf);
  out->append(text);
  if (text.find_first_of(".e") == std::string_view::npos) out->append(".0");
}

void AppendDebug(const Value& value, std::string* out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kBool:
      out->append(value.as_bool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      out->append(std::to_string(value.as_int()));
      return;
    case Value::Kind::kDouble:
      AppendDouble(value.as_double(), out);
      return;
    case Value::Kind::kString:
      AppendQuoted(value.as_string(), out);
      return;
    case Value::Kind::kBytes:
      out->append("\"b64:");
      AppendBase64(value.as_bytes().data, out);
      out->push_back('"');
      return;
    case Value::Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& element : value.as_array()) {
        if (!first) out->push_back(',');
        first = false;
        AppendDebug(element, out);
      }
      out->push_back(']');
      return;
    }
    case Value::Kind::kMap: {
      out->push_back('{');
      bool first = true;
      for (const auto& [key, element] : value.as_map()) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(key, out);
        out->push_back(':');
        AppendDebug(element, out);
      }
      out->push_back('}');
      return;
    }
    case Value::Kind::kExt:
      out->append("{\"$ext\":");
      out->append(std::to_string(value.as_ext().type));
      out->append(",\"b64\":\"");
      AppendBase64(value.as_ext().data, out);
      out->append("\"}");
      return;
  }
}

}  // namespace

const Value* Value::Find(std::string_view key) const {
  if (!is_map()) return nullptr;
  const Map& map = as_map();
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

const char* Value::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kDouble:
      return "double";
    case Kind::kString:
      return "string";
    case Kind::kBytes:
      return "bytes";
    case Kind::kArray:
      return "array";
    case Kind::kMap:
      return "map";
    case Kind::kExt:
      return "ext";
  }
  return "unknown";
}

std::string Value::DebugString() const {
  std::string out;
  AppendDebug(*this, &out);
  return out;
}

}  // namespace rockpoint::serde
