// Printable renderings of byte strings (formats/printable.h).
#include "formats/printable.h"

#include <cstdint>

#include "formats/json_text.h"

namespace rockpoint::formats {

namespace {

void AppendHexEscape(uint8_t byte, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kHex[byte >> 4]);
  out->push_back(kHex[byte & 15]);
}

}  // namespace

std::string Printable(std::string_view bytes) {
  if (bytes.empty()) return "\"\"";
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const auto byte = static_cast<uint8_t>(bytes[i]);
    if (byte == '\\') {
      out.append("\\\\");
      ++i;
    } else if (byte == '\n') {
      out.append("\\n");
      ++i;
    } else if (byte == '\t') {
      out.append("\\t");
      ++i;
    } else if (byte < 0x20 || byte == 0x7F) {
      AppendHexEscape(byte, &out);
      ++i;
    } else {
      const size_t length = Utf8SequenceLength(bytes, i);
      if (length == 0) {
        AppendHexEscape(byte, &out);
        ++i;
      } else {
        out.append(bytes.substr(i, length));
        i += length;
      }
    }
  }
  return out;
}

Result<std::string> Unescape(std::string_view text) {
  if (text == "\"\"") return std::string();
  std::string out;
  out.reserve(text.size());
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out.push_back(text[i]);
      continue;
    }
    const char kind = i + 1 < text.size() ? text[i + 1] : '\0';
    if (kind == '\\') {
      out.push_back('\\');
      ++i;
    } else if (kind == 'n') {
      out.push_back('\n');
      ++i;
    } else if (kind == 't') {
      out.push_back('\t');
      ++i;
    } else if (kind == 'x' && i + 3 < text.size() && hex(text[i + 2]) >= 0 &&
               hex(text[i + 3]) >= 0) {
      out.push_back(
          static_cast<char>(hex(text[i + 2]) * 16 + hex(text[i + 3])));
      i += 3;
    } else {
      return Status::InvalidArgument(
          "bad escape at offset " + std::to_string(i) + " in \"" +
          std::string(text) + "\" (use \\\\, \\n, \\t or \\xNN)");
    }
  }
  return out;
}

}  // namespace rockpoint::formats
