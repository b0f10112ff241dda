// RocksDB options for the rockpoint layout: the column families, their
// table options and the prefix extractors that match the tuple keys
// (engine/rocksdb/FORMAT.md, "Column families", says which of them decide
// how stored bytes are read).
//
//   * checkpoints, blobs: prefix extractor = the first three tuple elements
//     (tag, thread, ns), so a prefix bloom filter answers "does this file
//     hold anything of (thread, ns)" for the latest-checkpoint seek and the
//     delta walk; writes: the first four (with checkpoint_id), so the writes
//     scan of get_tuple skips every file without a write of its checkpoint.
//     Whole-key bloom filters (10 bits/key) serve the point reads (get by
//     id, blob MultiGet); filter and index blocks stay pinned in the block
//     cache while their table is open.
//   * blobs, writes: zstd (when the RocksDB build supports it), and values of
//     at least blob_file_min_bytes go to blob files.
//   * blobs: the "existing value wins" merge operator (a key's base value,
//     else its first Merge operand), which Put relies on to write blobs
//     blind. A store holding unfolded Merge operands can only be read with
//     that operator.
//   * index, meta: no prefix extractor (the ts and run scans cross
//     prefixes); whole-key bloom filters.
//   * memtables: whole-key and prefix blooms (put's record read mostly
//     misses) and insert hints: by (thread, ns) in checkpoints and writes,
//     by (thread, ns, channel) in blobs, by run or by the ts order in index;
//     hints need allow_concurrent_memtable_write = false.
//   * one LRU block cache of block_cache_bytes shared by all families; no
//     rocksdb::Statistics (WriteCounters keeps the figures of `stats`).
//
// Thread-safety: pure functions.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <string>
#include <vector>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/write_counters.h"

namespace rockpoint {

// Column family names, in the order of the handles Open returns.
inline constexpr const char* kCheckpointsFamily = "checkpoints";
inline constexpr const char* kBlobsFamily = "blobs";
inline constexpr const char* kWritesFamily = "writes";
inline constexpr const char* kIndexFamily = "index";
inline constexpr const char* kMetaFamily = "meta";

// Number of leading tuple elements the prefix extractors keep:
// (tag, thread, ns) in checkpoints and blobs; (tag, thread, ns,
// checkpoint_id) in writes, so the prefix bloom filters tell that a
// checkpoint has no pending writes without reading a data block.
inline constexpr int kPrefixElements = 3;
inline constexpr int kWritesPrefixElements = 4;

struct RocksDbSetup {
  rocksdb::DBOptions db;
  // default (unused, required by RocksDB), then the five families above.
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  // The write figures of `stats`, a listener in db.listeners.
  std::shared_ptr<WriteCounters> counters;
};

RocksDbSetup MakeRocksDbSetup(const RocksDbOptions& options);

}  // namespace rockpoint
