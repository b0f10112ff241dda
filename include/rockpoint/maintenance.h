// Maintenance: what a store offers beside the checkpointer contract, for
// operators and tools (the `rockpoint` CLI uses nothing else): a soundness
// check, figures, compaction, raw records, orphan writes, re-keying and
// removal.
//
// Each function takes a store from Open (rockpoint/open.h), wrapped or not
// (a ForwardingCheckpointer passes its target's capability on). A backend
// that lacks a capability answers NotSupported naming it:
//
//   capability         rocksdb  sqlite  jsonl  postgres  memory
//   Verify             records  calls   calls  calls     calls
//   Figures            yes      -       yes    -         -
//   Compact            yes      -       yes    -         -
//   ScanRaw            yes      -       -      -         -
//   FindOrphanWrites   -(1)     yes     yes    yes       yes
//   Rekey              yes      yes     yes    yes       -
//
// "records": Verify reads every raw record and index entry; "calls": it
// checks what the Checkpointer calls reach, plus the backend's orphan
// writes. (1) RocksDB reports orphan writes in Verify.
//
// A backend provides the capabilities by implementing Maintenance and
// returning it from its Checkpointer::DoMaintenance hook.
//
// Thread-safety: as the store's reads; each scan reads one consistent
// snapshot where its backend has snapshots (RocksDB).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/open.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint {

// One finding of Verify.
struct VerifyProblem {
  // Persisted in no format; "error" makes the store unsound, "warning"
  // notes something legitimate but worth knowing (e.g. a parent deleted by
  // delete_for_runs).
  std::string severity;
  std::string check;   // short name, e.g. "record-decodes".
  std::string key;     // where: a record's key or a checkpoint's ids.
  std::string detail;  // one line.
};

struct VerifyReport {
  uint64_t checkpoints = 0;         // records read.
  uint64_t hidden_checkpoints = 0;  // of which hidden.
  uint64_t blobs = 0;               // value records (RocksDB).
  uint64_t writes = 0;
  uint64_t index_entries = 0;  // (RocksDB)
  uint64_t errors = 0;
  uint64_t warnings = 0;
  // The first kMaxProblems findings; errors and warnings count them all.
  std::vector<VerifyProblem> problems;
  static constexpr size_t kMaxProblems = 1000;
  bool sound() const { return errors == 0; }
  // Counts a finding and keeps it while fewer than kMaxProblems are kept.
  void Add(std::string severity, std::string check, std::string key,
           std::string detail);
};

// Called now and then with the number of entries (or checkpoints) examined
// so far.
using VerifyProgressFn = std::function<void(uint64_t examined)>;

// A RocksDB column family's figures.
struct ColumnFamilyStats {
  std::string name;
  uint64_t live_sst_bytes = 0;
  uint64_t blob_file_bytes = 0;
  uint64_t estimated_keys = 0;
};

// A RocksDB store's figures.
struct StoreStats {
  std::vector<ColumnFamilyStats> column_families;
  uint64_t total_disk_bytes = 0;  // all files in the store directory.
  // Since the store was opened: the data size of the batches its writes
  // handed to RocksDB, and the table and blob file bytes its compactions
  // wrote (flushes not included).
  uint64_t bytes_written = 0;
  uint64_t compaction_bytes_written = 0;
};

// SST table properties summed per RocksDB column family (memtables not
// included).
struct TableFigures {
  std::string column_family;
  uint64_t sst_files = 0;
  uint64_t entries = 0;
  uint64_t raw_key_bytes = 0;    // uncompressed keys.
  uint64_t raw_value_bytes = 0;  // uncompressed values.
  uint64_t data_bytes = 0;       // data blocks as stored (compressed).
};

// A journal's figures.
struct JsonlStats {
  uint64_t file_bytes = 0;
  uint64_t lines = 0;       // every line of the journal, header included.
  uint64_t live_lines = 0;  // the lines a compaction would write.
  // A torn tail found at open: bytes after the last commit line (what an
  // interrupted append leaves), ignored. 0 when the journal ended cleanly.
  uint64_t torn_tail_bytes = 0;
  // The torn tail this store's open cut off the file (a read-write open
  // cuts it, a read-only one leaves it: 0).
  uint64_t torn_tail_bytes_cut = 0;
  // The journal's format version (engine/jsonl/FORMAT.md): 3 (every line
  // checksummed) for a journal this build created or compacted.
  int64_t format_version = 0;
  uint64_t compactions = 0;  // by this store since it was opened.
  bool encrypted = false;    // the journal's records are sealed.
};

// What Figures reports: its backend's part set, the others empty.
struct StoreFigures {
  BackendKind backend = BackendKind::kMemory;
  std::optional<StoreStats> rocksdb;
  std::vector<TableFigures> rocksdb_tables;    // with `rocksdb`.
  std::optional<uint64_t> hidden_checkpoints;  // with `rocksdb`.
  std::optional<JsonlStats> jsonl;
};

// One raw key/value of a RocksDB store, as bytes.
struct RawEntry {
  std::string column_family;
  std::string key;
  std::string value;
};
using RawVisitor = std::function<bool(const RawEntry& entry)>;

// The capabilities a backend implements; each default is NotSupported.
// REQUIRES (every method): the store is open (else Aborted).
class Maintenance {
 public:
  // Reads every raw record and index entry. NotSupported: Verify checks
  // through the Checkpointer calls instead.
  virtual Result<VerifyReport> VerifyRecords(const VerifyProgressFn& progress);
  virtual Result<StoreFigures> Figures();
  // Rewrites the store's files to drop what is dead.
  virtual Status Compact();
  // Calls `visit` for every entry of `column_family` ("" for every family,
  // in layout order) whose key starts with `key_prefix`, in key order,
  // until `visit` returns false. InvalidArgument for an unknown family.
  virtual Status ScanRaw(std::string_view column_family,
                         std::string_view key_prefix, const RawVisitor& visit);
  // The writes whose checkpoint the store does not hold (put_writes
  // without put, or a lost record), in key order.
  virtual Result<std::vector<WriteLocation>> FindOrphanWrites();

  // The backend, for NotSupported messages and figures.
  virtual BackendKind backend() const = 0;

 protected:
  ~Maintenance() = default;
};

// Is `store` sound? With VerifyRecords where the backend has it; otherwise
// every checkpoint (hidden ones too) is listed and its values and writes of
// type msgpack decoded, every parent looked up (a missing one is a warning:
// delete_for_runs and prune leave such links), each namespace's count from
// ListThreads compared with what List returns, and orphan writes reported
// as warnings. A journal's torn tail is a warning. An error only when the
// store could not be read.
Result<VerifyReport> Verify(Checkpointer& store,
                            const VerifyProgressFn& progress = {});

Result<StoreFigures> Figures(Checkpointer& store);
Status Compact(Checkpointer& store);
Status ScanRaw(Checkpointer& store, std::string_view column_family,
               std::string_view key_prefix, const RawVisitor& visit);
Result<std::vector<WriteLocation>> FindOrphanWrites(Checkpointer& store);

// Re-seals every record of the closed store `location` names (opened with
// options.encryption: nullopt for a plaintext store) under `new_encryption`
// (nullopt: decrypted to plaintext), with a new store id. Atomic and
// crash-safe on every backend: after a crash the store reads entirely
// under the old key or entirely under the new one. Never creates a store
// (options.create_if_missing is ignored); InvalidArgument for
// options.read_only, a missing or wrong key; NotSupported for memory:.
// REQUIRES: no other handle has the store open (see each backend's header
// for what it locks).
Status Rekey(const StoreLocation& location, const StoreOptions& options,
             const std::optional<EncryptionOptions>& new_encryption);

// Removes the store `location` names with every file its backend keeps
// beside it (SQLite's -journal, -wal and -shm files; a journal's compaction
// file), as LevelDB's DestroyDB does. OK when nothing is there.
// NotSupported for PostgreSQL (the server's data is dropped with its own
// tools) and memory:.
// REQUIRES: no handle, in any process, has the store open.
Status DestroyStore(const StoreLocation& location);

}  // namespace rockpoint
