// The keys and store options of the RocksDB encryption tests, without
// doctest (the rekey child includes this too).
#pragma once

#include <optional>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing::encryption_test {

// Two different keys.
inline std::string KeyA() { return std::string(kEncryptionKeyBytes, 'A'); }
inline std::string KeyB() { return std::string(kEncryptionKeyBytes, 'B'); }

// A store at `path` without synced writes, encrypted with `key` if given.
inline RocksDbOptions EncryptedOptions(const std::string& path,
                                       std::optional<std::string> key) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = false;
  options.block_cache_bytes = 4 << 20;
  if (key) options.encryption = EncryptionOptions{*key};
  return options;
}

}  // namespace rockpoint::testing::encryption_test
