// StripedLocks: the per-thread mutexes of the RocksDB backend
// (rocksdb_checkpointer.h, "Concurrency"). Defined in rocksdb_common.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "base/mutex.h"

namespace rockpoint {

// A fixed set of mutexes; a thread id hashes to one stripe. The stripes
// guard no member (what they serialize lives in RocksDB) and which ones a
// call holds depends on its thread ids, so the clang analysis cannot follow
// them: Lock, LockAll and Guard are NO_THREAD_SAFETY_ANALYSIS, and functions
// that need stripes held say so in a REQUIRES: comment.
class StripedLocks {
 public:
  static constexpr size_t kStripes = 64;

  // Holds the stripes it was given, releasing them on destruction.
  class Guard {
   public:
    Guard() = default;
    Guard(Guard&& other) noexcept = default;
    Guard& operator=(Guard&&) = delete;
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard();

   private:
    friend class StripedLocks;
    std::vector<base::Mutex*> held_;
  };

  // Locks the stripes of `threads` (deduplicated, ascending).
  Guard Lock(const std::vector<std::string_view>& threads);
  // Locks every stripe, ascending.
  Guard LockAll();

 private:
  std::array<base::Mutex, kStripes> mutexes_;
};

}  // namespace rockpoint
