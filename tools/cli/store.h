// Store: the store a CLI command works on, opened from --store PATH.
//
// Backend detection (unless forced with --backend): a directory is a RocksDB
// store; a file starting with the SQLite header is a SQLite database; a path
// ending in ".jsonl" is a "memory file": an export (FORMAT_JSONL.md) loaded
// into a MemoryCheckpointer, and written back (atomically, by rename) by
// Commit() after a command that changes it. A path that does not exist is
// created only with Access::kCreate or kImport, as a memory file (".jsonl"), a
// SQLite database (".db", ".sqlite", ".sqlite3") or a RocksDB directory (else).
//
// Read-only commands open RocksDB read-only (no lock taken, nothing
// written). Errors say what is wrong with the path: missing, locked by
// another process, of a newer format, not a store.
//
// Thread-safety: none; one command at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"
#include "tools/cli/export_format.h"

namespace rockpoint {
class RocksDbCheckpointer;
}

namespace rockpoint::cli {

enum class Backend { kRocksDb, kSqlite, kMemoryFile };
enum class Access {
  kRead,    // never writes; the store must exist.
  kWrite,   // writes; the store must exist.
  kCreate,  // writes; a missing store is created.
  // kCreate for bulk loading: RocksDB and SQLite write without a sync per
  // call; Commit syncs once by closing the store (Checkpointer::Close).
  kImport,
};

const char* BackendName(Backend backend);
// "rocksdb" | "sqlite" | "memory"; InvalidArgument otherwise.
Result<Backend> ParseBackend(std::string_view name);

class Store {
 public:
  static Result<std::unique_ptr<Store>> Open(const std::string& path,
                                             std::optional<Backend> forced,
                                             Access access,
                                             const ProgressFn& progress);
  ~Store();

  Checkpointer& checkpointer() { return *checkpointer_; }
  Backend backend() const { return backend_; }
  const std::string& path() const { return path_; }
  // The RocksDB backend, or nullptr for another backend.
  RocksDbCheckpointer* rocksdb() const { return rocksdb_; }

  // Whether Open created the store (the path did not exist).
  bool created() const { return created_; }

  // Makes the command's changes durable: a memory file is exported to
  // PATH.tmp and renamed over PATH; a store opened with kImport is closed
  // (Checkpointer::Close syncs it); other backends wrote through already. After
  // Discard: does nothing.
  // REQUIRES: opened with kWrite, kCreate or kImport.
  Status Commit(const ProgressFn& progress);

  // Abandons the command's store: closes it, removes it if Open created
  // it, and makes Commit a no-op. checkpointer() must not be used after.
  void Discard();

 private:
  Store() = default;

  // Checkpointer::Close: syncs what was written and releases the store.
  Status CloseAndSync();

  std::string path_;
  Backend backend_ = Backend::kRocksDb;
  Access access_ = Access::kRead;
  bool created_ = false;
  bool discarded_ = false;
  std::unique_ptr<Checkpointer> checkpointer_;
  RocksDbCheckpointer* rocksdb_ = nullptr;  // owned by checkpointer_.
};

}  // namespace rockpoint::cli
