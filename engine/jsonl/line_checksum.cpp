// Line checksums of a version 3 journal (line_checksum.h).
#include "engine/jsonl/line_checksum.h"

#include <array>
#include <cstdio>

namespace rockpoint::jsonl {
namespace {

// The member a checksummed line ends with: kChecksumOpen, eight hex
// digits, kChecksumClose.
constexpr std::string_view kChecksumOpen = ",\"crc\":\"";
constexpr std::string_view kChecksumClose = "\"}";
constexpr size_t kChecksumDigits = 8;
constexpr size_t kChecksumMemberSize =
    kChecksumOpen.size() + kChecksumDigits + kChecksumClose.size();

constexpr uint32_t kCrc32cPolynomial = 0x82F63B78;  // reflected 0x1EDC6F41.

std::array<uint32_t, 256> MakeCrc32cTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) ? (crc >> 1) ^ kCrc32cPolynomial : crc >> 1;
    }
    table[byte] = crc;
  }
  return table;
}

std::string HexDigits(uint32_t value) {
  char digits[kChecksumDigits + 1];
  std::snprintf(digits, sizeof(digits), "%08x", value);
  return std::string(digits, kChecksumDigits);
}

bool IsLowerHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

}  // namespace

uint32_t Crc32c(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = MakeCrc32cTable();
  uint32_t crc = 0xFFFFFFFF;
  for (const char c : bytes) {
    crc = table[(crc ^ static_cast<uint8_t>(c)) & 0xFF] ^ (crc >> 8);
  }
  return crc ^ 0xFFFFFFFF;
}

std::string WithLineChecksums(std::string_view lines) {
  std::string out;
  out.reserve(lines.size() + kChecksumMemberSize * 4);
  for (size_t start = 0; start < lines.size();) {
    size_t end = lines.find('\n', start);
    if (end == std::string_view::npos) end = lines.size();
    // Every line is a JSON object: its last byte is the closing brace.
    const std::string_view body = lines.substr(start, end - 1 - start);
    out.append(body);
    out.append(kChecksumOpen);
    out.append(HexDigits(Crc32c(body)));
    out.append(kChecksumClose);
    out.push_back('\n');
    start = end + 1;
  }
  return out;
}

bool HasLineChecksum(std::string_view line) {
  if (line.size() < kChecksumMemberSize + 1) return false;
  const std::string_view member =
      line.substr(line.size() - kChecksumMemberSize);
  if (!member.starts_with(kChecksumOpen) || !member.ends_with(kChecksumClose)) {
    return false;
  }
  for (const char c : member.substr(kChecksumOpen.size(), kChecksumDigits)) {
    if (!IsLowerHex(c)) return false;
  }
  return true;
}

Result<std::string> OpenCheckedLine(std::string_view line) {
  if (!HasLineChecksum(line)) {
    return Status::InvalidArgument(
        "the line does not end with its checksum member "
        "(,\"crc\":\"<8 hex digits>\"})");
  }
  const std::string_view body =
      line.substr(0, line.size() - kChecksumMemberSize);
  const std::string_view stored =
      line.substr(body.size() + kChecksumOpen.size(), kChecksumDigits);
  const std::string computed = HexDigits(Crc32c(body));
  if (stored != computed) {
    return Status::InvalidArgument("line checksum mismatch: the line says " +
                                   std::string(stored) + ", its bytes give " +
                                   computed);
  }
  return std::string(body) + "}";
}

}  // namespace rockpoint::jsonl
