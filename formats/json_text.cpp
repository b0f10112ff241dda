// Base64, UTF-8 validation and text fields (see json_text.h).
#include "formats/json_text.h"

#include <array>
#include <cstdint>

namespace rockpoint::formats {
namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of a base64 character, or -1.
constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (int i = 0; i < 64; ++i) {
    table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}
constexpr std::array<int8_t, 256> kDecodeTable = MakeDecodeTable();

}  // namespace

size_t Utf8SequenceLength(std::string_view bytes, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(bytes[k]); };
  const uint8_t lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > bytes.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are invalid.
  static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinimum[length]) return 0;
  if (code >= 0xD800 && code <= 0xDFFF) return 0;
  if (code > 0x10FFFF) return 0;
  return length;
}

std::string Base64Encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  const auto at = [&](size_t k) { return static_cast<uint8_t>(data[k]); };
  for (; i + 3 <= data.size(); i += 3) {
    const uint32_t n = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  const size_t rest = data.size() - i;
  if (rest == 0) return out;
  uint32_t n = at(i) << 16;
  if (rest == 2) n |= at(i + 1) << 8;
  out.push_back(kAlphabet[(n >> 18) & 63]);
  out.push_back(kAlphabet[(n >> 12) & 63]);
  out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
  out.push_back('=');
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    return Status::InvalidArgument("base64 length is not a multiple of 4");
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int padding = 0;
    uint32_t n = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && last && k >= 2) {
        ++padding;
        n <<= 6;
        continue;
      }
      const int8_t bits = kDecodeTable[static_cast<uint8_t>(c)];
      if (bits < 0 || padding > 0) {
        return Status::InvalidArgument("invalid base64 character at offset " +
                                       std::to_string(i + k));
      }
      n = (n << 6) | static_cast<uint32_t>(bits);
    }
    out.push_back(static_cast<char>((n >> 16) & 0xFF));
    if (padding < 2) out.push_back(static_cast<char>((n >> 8) & 0xFF));
    if (padding < 1) out.push_back(static_cast<char>(n & 0xFF));
  }
  // Canonical form only: the bits dropped by padding must be zero, so that
  // every byte string has exactly one encoding.
  if (Base64Encode(out) != text) {
    return Status::InvalidArgument("non-canonical base64 padding");
  }
  return out;
}

bool IsValidUtf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const size_t length = Utf8SequenceLength(bytes, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

Json TextToJson(std::string_view bytes) {
  if (IsValidUtf8(bytes)) return Json(std::string(bytes));
  Json object = Json::object();
  object["b64"] = Base64Encode(bytes);
  return object;
}

Result<std::string> TextFromJson(const Json& json, std::string_view field) {
  if (json.is_string()) return json.get<std::string>();
  if (json.is_object() && json.size() == 1 && json.contains("b64") &&
      json["b64"].is_string()) {
    auto decoded = Base64Decode(json["b64"].get<std::string>());
    if (!decoded.ok()) {
      return Status::InvalidArgument(std::string(field) + ": " +
                                     decoded.status().message());
    }
    return std::move(decoded).value();
  }
  return Status::InvalidArgument(std::string(field) +
                                 " must be a string or {\"b64\": ...}");
}

Result<std::vector<std::string>> TextsFromJson(const Json& json,
                                               std::string_view field) {
  if (!json.is_array()) {
    return Status::InvalidArgument(std::string(field) + ": expected an array");
  }
  std::vector<std::string> texts;
  for (const Json& item : json) {
    RP_ASSIGN_OR_RETURN(std::string text, TextFromJson(item, field));
    texts.push_back(std::move(text));
  }
  return texts;
}

}  // namespace rockpoint::formats
