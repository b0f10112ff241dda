// The hidden count of a namespace: the ("hc", thread, ns) entry that says
// how many hd entries (thread, ns) has (engine/rocksdb/FORMAT.md). Index
// keys carry no checksum, so a damaged hd key could leave its namespace
// unnoticed and turn a hidden checkpoint visible in list_threads; with the
// count beside them, such damage reads as Corruption.
//
// Every change of a namespace's hd entries writes its count in the same
// WriteBatch, under the thread's stripe lock.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <cstdint>
#include <string_view>

#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {

// The hidden count of (thread, ns) read with `read`: 0 when it has no entry;
// Corruption when the entry's value is not a count.
Result<uint64_t> ReadHiddenCount(const RocksDbCheckpointer& backend,
                                 const rocksdb::ReadOptions& read,
                                 std::string_view thread, std::string_view ns);

// Adds to `batch` the hidden count of (thread, ns) set to `count`: its
// entry written, or deleted at 0.
void SetHiddenCount(const RocksDbCheckpointer& backend,
                    rocksdb::WriteBatch& batch, std::string_view thread,
                    std::string_view ns, uint64_t count);

// Adds to `batch` the hidden count of every namespace that has hd entries,
// counted with one scan of the hd entries read with `read`: the upgrade of
// a store whose format kept no counts.
Status AddEveryHiddenCount(const RocksDbCheckpointer& backend,
                           const rocksdb::ReadOptions& read,
                           rocksdb::WriteBatch& batch);

}  // namespace rockpoint
