// WriteCounters: the two write figures of `StoreStats`, kept without a
// RocksDB Statistics object (whose per-call tickers cost every read and write
// a few thousand instructions):
//
//   * user bytes: the data size of every batch the store writes, added by
//     the store's write path (RocksDbCheckpointer::Write) after RocksDB
//     accepted it;
//   * compaction bytes: the table and blob file bytes every finished
//     compaction wrote, added by RocksDB's OnCompactionCompleted callback.
//
// Both count since the store was opened.
//
// Thread-safety: safe for concurrent use (relaxed atomics: figures, not
// synchronisation).
#pragma once

#include <rocksdb/listener.h>

#include <atomic>
#include <cstdint>

namespace rockpoint {

class WriteCounters final : public rocksdb::EventListener {
 public:
  const char* Name() const override { return "rockpoint.WriteCounters"; }

  void OnCompactionCompleted(rocksdb::DB* db,
                             const rocksdb::CompactionJobInfo& info) override;

  void AddUserBytes(uint64_t bytes) {
    user_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }
  uint64_t user_bytes() const {
    return user_bytes_.load(std::memory_order_relaxed);
  }
  uint64_t compaction_bytes() const {
    return compaction_bytes_.load(std::memory_order_relaxed);
  }

 private:
  std::atomic<uint64_t> user_bytes_{0};
  std::atomic<uint64_t> compaction_bytes_{0};
};

}  // namespace rockpoint
