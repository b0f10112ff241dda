// The record lines of an encrypted journal (engine/jsonl/FORMAT.md,
// "Encrypted journals"). A value, checkpoint or write line keeps in the
// clear the members that name its record (record_names.h) and a checkpoint's
// parent, and carries every other member sealed:
//
//   "sealed": base64 of RecordCipher::Seal(name, text)
//
// where text is the JSON object of those members exactly as the plaintext
// line writes them, and name is the record's name built from the clear
// members. Opening a line gives back the plaintext line (clear members
// first), which the line codec (lines.h) then reads as usual.
//
// Also the header's "encryption" member: the store's StoredEncryption.
//
// Thread-safety: pure functions (RecordCipher is thread-safe).
#pragma once

#include <string_view>

#include "engine/jsonl/json_forms.h"
#include "engine/record_cipher.h"
#include "rockpoint/status.h"

namespace rockpoint::jsonl {

// The only cipher an encrypted journal names in its header.
inline constexpr std::string_view kJournalCipherName = "aes-256-gcm";

// True for the kinds whose lines hold a record: value, checkpoint, write.
bool IsRecordKind(std::string_view kind);

// `line`, a plaintext journal line of a record kind, with its content
// members sealed under its record's name. IOError if sealing fails;
// InvalidArgument if `line` is not a well-formed record line.
Result<Json> SealLine(Json line, const RecordCipher& cipher);

// The plaintext line of the sealed record line `line`. Corruption
// "<kind> at <name>: ..." for a line without "sealed" (a plaintext record),
// a content member in the clear, or a sealed member that does not open
// (changed, truncated, moved from another record or store, another key);
// InvalidArgument naming the member for a malformed clear member.
Result<Json> OpenLine(const Json& line, const RecordCipher& cipher);

// The header's "encryption" member:
//   {"cipher":"aes-256-gcm","store_id":B64,"key_check":B64}
// REQUIRES: stored.encrypted().
Json EncryptionToJson(const StoredEncryption& stored);
// InvalidArgument naming the member (under `field`) otherwise.
Result<StoredEncryption> EncryptionFromJson(const Json& json,
                                            std::string_view field);

}  // namespace rockpoint::jsonl
