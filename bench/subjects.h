// Subjects: opening the stores a measurement compares, in fresh directories
// of the scratch area.
//
//   rockpoint    RocksDbCheckpointer, sync_writes as given.
//   sqlite       SqliteCheckpointer (WAL), sync_writes true -> synchronous
//                FULL, false -> NORMAL.
//   jsonl        JsonlCheckpointer (one JSON-lines journal, held in memory),
//                sync_writes as given (true: fdatasync per call), default
//                auto-compaction.
//   raw-rocksdb  RawRocksDb (default RocksDB options), WriteOptions.sync as
//                given.
//
// Thread-safety: a Scratch is used by the bench's main thread only.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "bench/raw_rocksdb.h"
#include "rockpoint/jsonl_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"
#include "rockpoint/status.h"

namespace rockpoint::bench {

// A scratch directory; every store gets a fresh subdirectory, removed when
// the store set is closed (Stores::Close) or, at the latest, with the
// Scratch.
class Scratch {
 public:
  // Creates `root` (or a fresh temp directory when empty).
  static Result<std::unique_ptr<Scratch>> Create(std::string root);
  ~Scratch();  // removes the root if it created it.

  // A new, empty directory "<root>/<n>-<name>".
  Result<std::string> NewDirectory(std::string_view name);
  const std::string& root() const { return root_; }

 private:
  Scratch(std::string root, bool owned)
      : root_(std::move(root)), owned_(owned) {}
  std::string root_;
  bool owned_;
  int counter_ = 0;
};

struct Stores {
  std::string directory;
  std::unique_ptr<RocksDbCheckpointer> rockpoint;
  std::unique_ptr<SqliteCheckpointer> sqlite;
  std::unique_ptr<JsonlCheckpointer> jsonl;
  std::unique_ptr<RawRocksDb> raw;  // only when asked for.

  // Checkpointer of `subject` (kRockpoint, kSqlite or kJsonl).
  Checkpointer& Of(std::string_view subject);
  // Closes every store and removes the directory.
  void Close();
  ~Stores() { Close(); }
};

// Opens rockpoint, sqlite and jsonl (and raw RocksDB when with_raw) in a
// fresh directory named `name`.
Result<std::unique_ptr<Stores>> OpenStores(Scratch& scratch,
                                           std::string_view name,
                                           bool sync_writes, bool with_raw);

}  // namespace rockpoint::bench
