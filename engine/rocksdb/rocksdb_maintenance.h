// Maintenance over the raw records of a RocksDB store, for the `rockpoint`
// tool: a full consistency check (verify), table figures (stats), a raw
// dump, and a raw write used by tests to plant a corrupted record. The work
// happens in rocksdb_verify.cpp and rocksdb_raw.cpp.
//
// Thread-safety: like the store's own reads, safe alongside other calls;
// every scan reads one consistent snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/status.h"

namespace rockpoint {

// The column families in layout order: checkpoints, blobs, writes, index,
// meta.
std::vector<std::string> ColumnFamilyNames();

// Calls `visit` for every entry of `column_family` (one of
// ColumnFamilyNames(), or "" for all of them in that order) whose key
// starts with the bytes `key_prefix`, in key order; `visit` returns false to
// stop. InvalidArgument for an unknown family.
Status ScanRaw(RocksDbCheckpointer& store, std::string_view column_family,
               std::string_view key_prefix,
               const std::function<bool(const RawEntry&)>& visit);

// Writes `value` under `key` of `column_family` as is, bypassing every
// check and index. For tests that need a corrupted record.
// REQUIRES: the store is open for writing.
Status PutRawForTesting(RocksDbCheckpointer& store,
                        std::string_view column_family, std::string_view key,
                        std::string_view value);

// Checks, from one snapshot: every key parses and every record decodes
// (checkpoints, blobs, writes; blob and write payloads of type "msgpack"
// decode); every index entry (th, run, ts, hd) points at a record that
// agrees with it, and every record has its index entries (a visible one its
// ts entry and, with a string metadata.run_id, its run entry; a hidden one
// its hd entry and neither of the others); every parent is present (a
// missing parent is a warning: delete_for_runs leaves such links); every
// write belongs to a checkpoint (a warning: put_writes may precede put);
// every (channel, version) a checkpoint names resolves to a value record
// unless no put ever stored it ("value-present", an error: the value was
// lost); meta holds the format version. Returns
// the report; an error only if the store could not be read.
Result<VerifyReport> VerifyStore(RocksDbCheckpointer& store,
                                 const VerifyProgressFn& progress);

Result<std::vector<TableFigures>> TableStats(RocksDbCheckpointer& store);

// The number of hidden checkpoints (kept only for delta histories).
Result<uint64_t> CountHiddenCheckpoints(RocksDbCheckpointer& store);

}  // namespace rockpoint
