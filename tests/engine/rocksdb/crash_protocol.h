// What the kill case (contract_kill.h) and its child store_writer_main
// agree on: the store options and the chains the child writes (see
// chain_workload.h), and the child's stdout lines.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rocksdb/chain_workload.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint::testing {

// Synced writes; values of 4 KiB and more go to blob files once flushed.
inline RocksDbOptions CrashStoreOptions(const std::string& path) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = true;
  options.blob_file_min_bytes = 4096;
  return options;
}

// Four chains: two namespaces of one thread, a thread id with NUL and 0xFF
// bytes (with `text_ids`, for a backend whose ids are UTF-8 text, one with
// multi-byte characters instead), and a plain one.
inline std::vector<Chain> CrashChains(std::string_view prefix,
                                      bool text_ids = false) {
  std::string p(prefix);
  return {
      {0, p + "-a", ""},
      {1, p + "-a", "sub:1"},
      {2,
       text_ids ? p + "-\xc3\xa9\xe2\x82\xac" : p + std::string("-\0\xff", 3),
       ""},
      {3, p + "-c", ""},
  };
}

// One acknowledgement line of the child: "P <index> <n>" (put) or
// "W <index> <n>" (put_writes).
struct CrashAck {
  char kind = 0;  // 'P' or 'W'.
  int index = 0;
  int64_t n = 0;
};

// The acknowledgement in `line`, nullopt for any other line.
inline std::optional<CrashAck> ParseCrashAck(const std::string& line) {
  CrashAck ack;
  long long n = 0;
  char kind = 0;
  int consumed = 0;
  if (std::sscanf(line.c_str(), "%c %d %lld%n", &kind, &ack.index, &n,
                  &consumed) != 3 ||
      static_cast<size_t>(consumed) != line.size() ||
      (kind != 'P' && kind != 'W')) {
    return std::nullopt;
  }
  ack.kind = kind;
  ack.n = n;
  return ack;
}

}  // namespace rockpoint::testing
