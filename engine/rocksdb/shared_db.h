// One RocksDB database per directory and process: the checkpoint store
// (RocksDbCheckpointer) and the item store (engine/store/rocksdb) that live
// in one directory share one open database, so one LOCK file and one WAL
// cover both, and opening either while the other is open in this process
// attaches to it instead of failing with Busy.
//
// Each holder claims a part of the directory (the checkpoint store, the
// item store), which one holder at a time may have: a second claim of it is
// Busy, as a second process is. A read-write acquire of a directory that is
// already open read-write in this process returns that database, after
// creating the column families the caller names that it lacks (with the
// options the database was opened with). Otherwise the database is opened
// with every family on disk and every family named (created when missing):
// the checkpoint families with MakeRocksDbSetup(tuning)'s options (one block
// cache), `default` and the item store's with RocksDB's defaults, and the
// DB-wide options of `tuning`; a family of any other name is InvalidArgument
// (not a rockpoint directory). A read-only acquire opens the named families
// only, on a database of its own, never shared.
//
// The database stays open while any holder keeps the pointer Acquire gave
// it; ReleaseSharedDb drops a holder, and the last one closes the database
// (its handles released, RocksDB's Close, whose status it returns).
//
// Thread-safety: every function is thread-safe. The handles are valid until
// the caller's ReleaseSharedDb.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/write_counters.h"
#include "rockpoint/status.h"

namespace rockpoint {

// Whether `family` is one of an item store's column families
// (engine/store/FORMAT.md: "store." and the family's name).
inline bool IsItemStoreFamily(std::string_view family) {
  return family.substr(0, 6) == "store.";
}

// The claims of the directory's two parts.
inline constexpr const char* kCheckpointStoreClaim = "checkpoint store";
inline constexpr const char* kItemStoreClaim = "item store";

struct SharedDbRequest {
  std::string path;
  // The part of the directory the caller opens (e.g. "checkpoint store").
  std::string claim;
  // The column families the caller uses, created when missing (read-write).
  std::vector<std::string> families;
  bool read_only = false;
  bool create_if_missing = true;
  // Whether the caller's records are encrypted (a checkpoint store opened
  // with a key). An encrypted checkpoint store and an item store, whose
  // records are not, never share a directory: either acquire is
  // InvalidArgument then, before anything is created.
  bool encrypted = false;
  // The DB-wide options and the checkpoint families' options when this
  // acquire opens the database (the first holder's tuning applies); null:
  // RocksDbOptions's defaults. Only its tuning fields are read.
  const RocksDbOptions* tuning = nullptr;
  // The Env to open with (nullptr: the default). A shared database keeps
  // the first holder's.
  rocksdb::Env* env = nullptr;
};

struct SharedDbHandle {
  // Keeps the database open; give it back with ReleaseSharedDb.
  std::shared_ptr<rocksdb::DB> db;
  // The request's families, in its order.
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  // The write figures of the database (a listener since it opened).
  std::shared_ptr<WriteCounters> counters;
};

// Returns the database at request.path: RocksDB's errors as Status, Busy
// when another process holds the directory's lock or a holder in this
// process has request.claim.
Result<SharedDbHandle> AcquireSharedDb(const SharedDbRequest& request);

// Drops one holder's pointer (it is null afterwards) and its claim; the
// last holder closes the database and returns the status of closing it.
Status ReleaseSharedDb(std::shared_ptr<rocksdb::DB>& db,
                       const std::string& claim);

}  // namespace rockpoint
