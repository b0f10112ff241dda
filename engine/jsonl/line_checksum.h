// The checksum every line of a version 3 journal ends with
// (engine/jsonl/FORMAT.md, "Line checksums"): a last member
// `"crc":"xxxxxxxx"`, eight lowercase hex digits of the CRC-32C of every
// byte of the line before its `,"crc":` (so the line stays one JSON object
// that `cat` shows and `grep` finds). CRC-32C detects every change confined
// to 32 consecutive bits: every single changed byte, always.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::jsonl {

// CRC-32C (Castagnoli, reflected, as iSCSI and ext4 use it) of `bytes`.
uint32_t Crc32c(std::string_view bytes);

// `lines` (JSON objects, each ending "}\n") with the checksum member added
// to each line.
std::string WithLineChecksums(std::string_view lines);

// True if `line` (without its '\n') ends with a checksum member of the
// right shape, whether or not the checksum matches.
bool HasLineChecksum(std::string_view line);

// `line` (without its '\n') as it was before its checksum member was
// added; InvalidArgument if it has no checksum member or the checksum does
// not match its bytes.
Result<std::string> OpenCheckedLine(std::string_view line);

}  // namespace rockpoint::jsonl
