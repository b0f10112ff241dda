// Store: the store a CLI command works on, opened from --store URL through
// rockpoint::Open (rockpoint/open.h), which recognizes an existing store by
// its content and names a new one by its path ("*.jsonl" a journal, "*.db",
// "*.sqlite", "*.sqlite3" SQLite, anything else RocksDB). --backend NAME
// forces a backend as the URL NAME:PATH would. A path that does not exist
// is created only with Access::kCreate or kImport.
//
// A PostgreSQL connection URL (postgresql://... or postgres://..., or any
// libpq connection string with --backend postgres) is a PostgreSQL store
// (LangGraph's PostgresSaver tables): read commands run READ ONLY
// transactions and create nothing; other commands create LangGraph's tables
// and rockpoint's additive objects when missing. Nothing is ever dropped.
//
// Read-only commands (kRead) open RocksDB, SQLite and journals read-only: no
// lock taken, nothing written, so they work while another process writes.
// A writer opens a journal read-write, which locks it: a second writer is
// told it is "open read-write elsewhere". Errors say what is wrong with the
// path: missing, locked by another process, of a newer format, not a store.
//
// An encrypted store (docs/ENCRYPTION.md) opens with the key of --key-file
// or ROCKPOINT_AES_KEY; without one, or with a wrong one, Open fails with
// the backend's InvalidArgument.
//
// Thread-safety: none; one command at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/open.h"
#include "rockpoint/status.h"

namespace rockpoint::cli {

using Backend = BackendKind;

enum class Access {
  // The command opens no store through Store::Open: it needs none (keygen)
  // or opens it itself (rekey, which needs it closed).
  kNone,
  kRead,    // never writes; the store must exist.
  kWrite,   // writes; the store must exist.
  kCreate,  // writes; a missing store is created.
  // kCreate for bulk loading: every backend writes without a sync per call;
  // Commit syncs once by closing the store (Checkpointer::Close).
  kImport,
};

// "rocksdb" | "sqlite" | "jsonl" | "postgres"; InvalidArgument otherwise
// ("memory", the old memory files, says how to convert one).
Result<Backend> ParseBackend(std::string_view name);

class Store {
 public:
  // `encryption`: the key of an encrypted store (--key-file or
  // ROCKPOINT_AES_KEY); a store created with one is encrypted.
  static Result<std::unique_ptr<Store>> Open(
      const std::string& path, std::optional<Backend> forced, Access access,
      const std::optional<EncryptionOptions>& encryption);

  // The existing store at `path` (detected as Open does, unless forced).
  // NotFound for a missing path.
  static Result<StoreLocation> Locate(const std::string& path,
                                      std::optional<Backend> forced);
  ~Store();

  Checkpointer& checkpointer() { return *checkpointer_; }
  Backend backend() const { return backend_; }
  const std::string& path() const { return path_; }
  // Whether Open created the store (the path did not exist; never for
  // PostgreSQL).
  bool created() const { return created_; }

  // Makes the command's changes durable: a store opened with kImport is
  // closed (Checkpointer::Close syncs it); otherwise every backend wrote
  // through already. After Discard: does nothing.
  // REQUIRES: opened with kWrite, kCreate or kImport.
  Status Commit();

  // Abandons the command's store: closes it, removes it if Open created
  // it, and makes Commit a no-op. checkpointer() must not be used after.
  void Discard();

 private:
  Store() = default;

  // Opens `location` with the options of access_.
  Status OpenAt(const StoreLocation& location);

  // Checkpointer::Close: syncs what was written and releases the store.
  Status CloseAndSync();

  std::string path_;
  std::optional<EncryptionOptions> encryption_;
  Backend backend_ = Backend::kRocksDb;
  Access access_ = Access::kRead;
  bool created_ = false;
  bool discarded_ = false;
  std::unique_ptr<Checkpointer> checkpointer_;
};

}  // namespace rockpoint::cli
