#include "serde/record_frame.h"

#define XXH_INLINE_ALL  // header-only use: no link dependency for users
#include <xxhash.h>

#include <cstdio>

namespace rockpoint::serde {
namespace {

uint32_t LoadChecksum(std::string_view record) {
  const auto* p = reinterpret_cast<const unsigned char*>(
      record.data() + record.size() - kRecordChecksumSize);
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

std::string Hex32(uint32_t value) {
  char text[11];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

}  // namespace

uint32_t RecordChecksum(std::string_view bytes) {
  return static_cast<uint32_t>(XXH3_64bits(bytes.data(), bytes.size()));
}

void BeginRecord(std::string* out) {
  out->assign(1, static_cast<char>(kRecordFormatVersion));
}

void SealRecord(std::string* out) {
  const uint32_t checksum = RecordChecksum(*out);
  for (int shift = 0; shift < 32; shift += 8) {
    out->push_back(static_cast<char>((checksum >> shift) & 0xff));
  }
}

Result<std::string_view> OpenRecord(std::string_view record,
                                    std::string_view what) {
  if (record.empty()) {
    return Status::Corruption(std::string(what) + ": empty record");
  }
  const auto version = static_cast<uint8_t>(record[0]);
  if (version == kUncheckedRecordFormatVersion) return record.substr(1);
  if (version != kRecordFormatVersion) {
    return Status::Corruption(std::string(what) +
                              ": unsupported record format version " +
                              std::to_string(version));
  }
  if (record.size() < 1 + kRecordChecksumSize) {
    return Status::Corruption(std::string(what) + ": record of " +
                              std::to_string(record.size()) +
                              " bytes is too short for its checksum");
  }
  const std::string_view sealed =
      record.substr(0, record.size() - kRecordChecksumSize);
  const uint32_t stored = LoadChecksum(record);
  const uint32_t computed = RecordChecksum(sealed);
  if (stored != computed) {
    return Status::Corruption(std::string(what) + ": checksum mismatch (" +
                              "stored " + Hex32(stored) + ", computed " +
                              Hex32(computed) + ")");
  }
  return sealed.substr(1);
}

namespace internal {

bool OpenRecordFast(std::string_view record, std::string_view* payload) {
  if (record.empty()) return false;
  const auto version = static_cast<uint8_t>(record[0]);
  if (version == kUncheckedRecordFormatVersion) {
    *payload = record.substr(1);
    return true;
  }
  if (version != kRecordFormatVersion ||
      record.size() < 1 + kRecordChecksumSize) {
    return false;
  }
  const std::string_view sealed =
      record.substr(0, record.size() - kRecordChecksumSize);
  if (LoadChecksum(record) != RecordChecksum(sealed)) return false;
  *payload = sealed.substr(1);
  return true;
}

}  // namespace internal
}  // namespace rockpoint::serde
