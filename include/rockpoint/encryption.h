// Encryption at rest: every record a store holds (checkpoint records with
// their metadata, channel values, pending writes) sealed with AES-256-GCM
// under the caller's key. docs/ENCRYPTION.md gives the sealed record format,
// what stays in the clear (identifiers: thread ids, namespaces, checkpoint
// ids, channel names, versions, task ids and paths, run ids) and how a
// store's key is checked and rotated.
//
// Each record is bound to its place: its additional authenticated data is
// the store's random id and the record's full key, so a record that is
// tampered with, moved to another key or another store, truncated, or read
// with the wrong key is Corruption naming its key, and nothing of it is
// returned. In an encrypted store a plaintext record is Corruption too.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint {

// An AES-256 key is 32 bytes; its text form is 64 hex digits.
inline constexpr size_t kEncryptionKeyBytes = 32;
// The environment variable a key is read from when none is given.
inline constexpr const char* kEncryptionKeyEnvironment = "ROCKPOINT_AES_KEY";

struct EncryptionOptions {
  // The AES-256 key: exactly kEncryptionKeyBytes bytes. Empty: the key is
  // read from ROCKPOINT_AES_KEY (64 hex digits) when the store opens, and
  // the open fails with InvalidArgument if it is unset or malformed.
  std::string key;
};

// The key `text` spells: 64 hex digits, surrounding whitespace ignored.
// InvalidArgument otherwise (the message never repeats the text).
Result<std::string> ParseEncryptionKey(std::string_view text);
// The 64 lowercase hex digits of `key`.
std::string FormatEncryptionKey(std::string_view key);
// The key of `options`: options.key, or ROCKPOINT_AES_KEY's. InvalidArgument
// for a key of the wrong size, an unset or malformed variable.
Result<std::string> ResolveEncryptionKey(const EncryptionOptions& options);
// A new key from the operating system's random source.
Result<std::string> GenerateEncryptionKey();
// Overwrites `secret`'s bytes with zeros (in a way the compiler keeps) and
// clears it: for keys and key text once they are no longer needed.
void WipeSecret(std::string& secret);

}  // namespace rockpoint
