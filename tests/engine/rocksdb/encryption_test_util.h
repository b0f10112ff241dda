// Helpers of the RocksDB encryption tests: keys, encrypted store options,
// a store with secrets in every kind of record, and the check that none of
// them is on disk in the clear.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/contract_helpers.h"
#include "engine/rocksdb/encryption_keys.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/encryption.h"

namespace rockpoint::testing::encryption_test {

// Marker strings put in metadata, a value and a write: found in the clear
// on disk only if something was not sealed.
inline constexpr const char* kMetadataSecret = "metadata-secret-7f3a";
inline constexpr const char* kValueSecret = "value-secret-91c2";
inline constexpr const char* kWriteSecret = "write-secret-0d4e";

// Thread `thread`: cp0001 (value kValueSecret, metadata kMetadataSecret and
// run_id "run-<thread>"), cp0002 (a new value), a write on each.
inline void PutSecrets(Checkpointer& store, const std::string& thread) {
  DoPut(store, {.thread = thread,
                .id = CpId(1),
                .values = {{"a", Val(kValueSecret)}},
                .versions = {{"a", int64_t{1}}},
                .metadata = Meta({{"note", Value(kMetadataSecret)},
                                  {"run_id", Value("run-" + thread)}})});
  DoWrites(store, thread, CpId(1), {W("a", kWriteSecret)}, "task");
  DoPut(store, {.thread = thread,
                .id = CpId(2),
                .parent = CpId(1),
                .values = {{"a", Val("second")}},
                .versions = {{"a", int64_t{2}}},
                .metadata = Meta({{"step", Value(int64_t{2})}})});
  DoWrites(store, thread, CpId(2), {W("b", "later")}, "task");
}

// Whether any file under `dir` contains `text`.
inline bool FilesContain(const std::string& dir, const std::string& text) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    if (bytes.find(text) != std::string::npos) return true;
  }
  return false;
}

inline void CheckCorruptionNaming(const Status& status,
                                  const std::string& key) {
  INFO(status.ToString());
  CHECK(status.IsCorruption());
  CHECK(status.message().find(key) != std::string::npos);
}

}  // namespace rockpoint::testing::encryption_test
