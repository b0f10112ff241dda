// JsonlOptions: how a JSONL journal store is opened (jsonl_checkpointer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"

namespace rockpoint {

struct JsonlOptions {
  // The journal file (conventionally NAME.jsonl). Required.
  std::string path;
  // Create the journal if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only: no lock, nothing written (no torn tail is cut,
  // no compaction); every write call returns InvalidArgument "store opened
  // read-only". Default: false.
  bool read_only = false;
  // fdatasync the journal before a call returns. Default: true.
  bool sync_writes = true;
  // Compact after a call once dead lines exceed live lines and the journal
  // holds at least this many lines; 0 never compacts on its own. Default:
  // 1000.
  uint64_t auto_compact_min_lines = 1000;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
  // Encryption at rest. nullopt: a plaintext store (opening an encrypted
  // journal is InvalidArgument). Set: the store's key; a new journal, or
  // one whose header is its only committed line, becomes an encrypted
  // store. Opening with a wrong key, or a journal holding plaintext lines
  // with a key, is InvalidArgument and changes nothing (Rekey encrypts a
  // plaintext store). Default: nullopt.
  std::optional<EncryptionOptions> encryption;
};

}  // namespace rockpoint
