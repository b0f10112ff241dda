// The storage-growth study: one simulated conversation of N turns per
// (persistence mode, N), each in a fresh store, measuring
//   * bytes on disk after compaction: RocksDB: Compact(), then the live SST
//     and blob file bytes of Stats() (live_bytes) and every file of the
//     store directory (disk_bytes, including WAL, MANIFEST, LOG, OPTIONS);
//     SQLite: closed (its WAL checkpointed into the file), the database
//     file (live_bytes) and every file of the directory (disk_bytes);
//     JSONL: Compact(), then closed, the journal file (live_bytes) and
//     every file of the directory (disk_bytes);
//   * write amplification: bytes the process caused to be written to disk
//     (/proc/self/io write_bytes) while writing the conversation and
//     compacting / closing, over the user bytes (the serialized messages);
//   * the time to load the latest state: get_tuple (+
//     get_delta_channel_history + replay for delta channels).
// Modes: full snapshots on rockpoint, the delta channel with each snapshot
// frequency K on rockpoint, the delta channel with the geometric snapshot
// policy for each ratio on rockpoint, full snapshots on SQLite and on JSONL.
// See conversation.h for what each turn writes.
//
// Thread-safety: runs on the bench's main thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/subjects.h"
#include "rockpoint/status.h"

namespace rockpoint::bench {

struct GrowthRow {
  // "full-rocksdb", "delta-k10-rocksdb", "delta-geo-rocksdb" (ratio 1;
  // "delta-geo0.5-rocksdb" for another), "full-sqlite", "full-jsonl".
  std::string mode;
  std::string backend;         // "rockpoint", "sqlite" or "jsonl".
  size_t snapshot_every = 0;   // delta-k modes; 0 otherwise.
  double geometric_ratio = 0;  // delta-geo modes; 0 otherwise.
  size_t snapshots = 0;        // checkpoints storing the whole list.
  size_t replay_writes = 0;    // writes a load of the latest state replays.
  size_t turns = 0;
  size_t message_bytes = 0;
  uint64_t user_bytes = 0;           // serialized messages, all turns.
  uint64_t live_bytes = 0;           // data files after compaction.
  uint64_t disk_bytes = 0;           // every file of the store.
  uint64_t io_write_bytes = 0;       // /proc/self/io write_bytes delta.
  uint64_t syscall_write_bytes = 0;  // /proc/self/io wchar delta.
  double load_median_us = 0;
  double load_p99_us = 0;

  // io_write_bytes (or syscall_write_bytes where the kernel gives no
  // write_bytes) over user_bytes.
  double write_amplification() const;
  double live_to_user() const;
};

// The mode name of the geometric policy with `ratio`.
std::string GeometricModeName(double ratio);

// The CSV header and rows of the study (the plot reads this). The geometric
// ratio, snapshots and replay_writes are in the JSON and markdown only (the
// CSV's columns are fixed).
std::string GrowthCsv(const std::vector<GrowthRow>& rows);

Result<std::vector<GrowthRow>> RunStorageGrowth(const BenchOptions& options,
                                                Scratch& scratch);

}  // namespace rockpoint::bench
