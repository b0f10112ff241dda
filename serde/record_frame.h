// The frame around every stored record: a format version byte, the payload,
// and (from format 2) a checksum of both, so that a record damaged after it
// was encoded (a bad write through the API, a bug, a flipped byte that
// storage checksums did not see) is Corruption, never a different value.
//
//   record := 02 payload checksum    ; checksum: u32, little-endian: the low
//                                    ; 32 bits of XXH3-64 (seed 0) over
//                                    ; 02 payload
//           | 01 payload             ; format 1: no checksum; read, never
//                                    ; written (stores of format 1)
//
// The payload grammars are in serde/FORMAT.md section 2.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::serde {

// The record format version every encoder writes. Persisted: bump on any
// change, never reuse.
inline constexpr uint8_t kRecordFormatVersion = 2;
// The older version decoders still accept: the same payloads, no checksum.
inline constexpr uint8_t kUncheckedRecordFormatVersion = 1;
inline constexpr size_t kRecordChecksumSize = 4;

// The checksum of `bytes` as the frame stores it.
uint32_t RecordChecksum(std::string_view bytes);

// Starts a record: clears *out and writes the version byte.
void BeginRecord(std::string* out);
// Appends the checksum of *out (begun by BeginRecord, payload appended).
void SealRecord(std::string* out);

// The payload of `record`: Corruption naming `what` for an empty record, an
// unknown version, a record too short for its checksum, or a checksum that
// does not match.
Result<std::string_view> OpenRecord(std::string_view record,
                                    std::string_view what);

namespace internal {
// OpenRecord without the message, for the direct decoders' fast path: false
// where OpenRecord returns Corruption.
bool OpenRecordFast(std::string_view record, std::string_view* payload);
}  // namespace internal

}  // namespace rockpoint::serde
