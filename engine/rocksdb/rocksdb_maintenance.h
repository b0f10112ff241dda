// Maintenance over the raw records of a RocksDB store, for the `rockpoint`
// tool: a full consistency check (verify), table figures (stats), a raw
// dump, and a raw write used by tests to plant a corrupted record. No
// RocksDB type appears here; the work happens in rocksdb_verify.cpp and
// rocksdb_raw.cpp through ImplOf (rocksdb_impl.h).
//
// Thread-safety: like the store's own reads, safe alongside other calls;
// every scan reads one consistent snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/status.h"

namespace rockpoint {

// The column families in layout order: checkpoints, blobs, writes, index,
// meta.
std::vector<std::string> ColumnFamilyNames();

// One stored key/value, as bytes.
struct RawEntry {
  std::string column_family;
  std::string key;
  std::string value;
};

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

// One finding of VerifyStore.
struct VerifyProblem {
  // Persisted in no format; "error" makes the store unsound, "warning"
  // notes something legitimate but worth knowing (e.g. a parent deleted by
  // delete_for_runs).
  std::string severity;
  std::string check;   // short name, e.g. "record-decodes".
  std::string key;     // keys::Describe of the key concerned.
  std::string detail;  // one line.
};

struct VerifyReport {
  uint64_t checkpoints = 0;         // records in `checkpoints`.
  uint64_t hidden_checkpoints = 0;  // of which hidden.
  uint64_t blobs = 0;
  uint64_t writes = 0;
  uint64_t index_entries = 0;
  uint64_t errors = 0;
  uint64_t warnings = 0;
  // The first kMaxProblems findings; errors and warnings count them all.
  std::vector<VerifyProblem> problems;
  static constexpr size_t kMaxProblems = 1000;
  bool sound() const { return errors == 0; }
};

// Called now and then with the number of entries examined so far.
using VerifyProgressFn = std::function<void(uint64_t entries)>;

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

// SST table properties summed per column family (memtables not included).
struct TableFigures {
  std::string column_family;
  uint64_t sst_files = 0;
  uint64_t entries = 0;
  uint64_t raw_key_bytes = 0;    // uncompressed keys.
  uint64_t raw_value_bytes = 0;  // uncompressed values.
  uint64_t data_bytes = 0;       // data blocks as stored (compressed).
};
Result<std::vector<TableFigures>> TableStats(RocksDbCheckpointer& store);

// The number of hidden checkpoints (kept only for delta histories).
Result<uint64_t> CountHiddenCheckpoints(RocksDbCheckpointer& store);

}  // namespace rockpoint
