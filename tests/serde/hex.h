// Hex helpers for golden-byte tests. Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rockpoint::serde::testing {

// Bytes from hex digits; spaces are ignored: "c0 ff" -> "\xc0\xff".
// REQUIRES: an even number of hex digits.
inline std::string Hex(std::string_view spaced) {
  std::string hex;
  for (char c : spaced) {
    if (c != ' ') hex.push_back(c);
  }
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
  };
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  }
  return out;
}

// Lowercase hex of `bytes`.
inline std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kDigits[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}

// `piece` repeated `count` times.
inline std::string Repeat(std::string_view piece, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out.append(piece);
  return out;
}

}  // namespace rockpoint::serde::testing
