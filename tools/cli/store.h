// Store: the store a CLI command works on, opened from --store PATH.
//
// Backend detection (unless forced with --backend): a directory is a RocksDB
// store; a file starting with the SQLite header is a SQLite database; a file
// whose first line is a rockpoint journal header is a JSONL store
// (JsonlCheckpointer: one journal file, engine/jsonl/FORMAT.md), as is a
// ".jsonl" file whose creation stopped before its header line was whole. A
// ".jsonl" file that is an export (FORMAT_JSONL.md; the CLI's old "memory
// files" were exports) is refused with the `rockpoint import` command that
// turns it into a store. A path that does not exist is created only with
// Access::kCreate or kImport, as a journal (".jsonl"), a SQLite database
// (".db", ".sqlite", ".sqlite3") or a RocksDB directory (else).
//
// A PostgreSQL connection URL (postgresql://... or postgres://..., or any
// libpq connection string with --backend postgres) is a PostgreSQL store
// (PostgresCheckpointer, on LangGraph's PostgresSaver tables): read commands
// run READ ONLY transactions and create nothing; other commands create
// LangGraph's tables and rockpoint's additive objects when missing. Nothing
// is ever dropped.
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
#include "rockpoint/status.h"
#include "tools/cli/export_format.h"

namespace rockpoint {
class JsonlCheckpointer;
class RocksDbCheckpointer;
}  // namespace rockpoint

namespace rockpoint::cli {

enum class Backend { kRocksDb, kSqlite, kJsonl, kPostgres };
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

const char* BackendName(Backend backend);
// "rocksdb" | "sqlite" | "jsonl" | "postgres"; InvalidArgument otherwise
// ("memory", the old memory files, says how to convert one).
Result<Backend> ParseBackend(std::string_view name);

// What the first line of a file says it is.
enum class JsonlFileKind {
  kJournal,  // a rockpoint journal header (of any version).
  // Empty, or a beginning of the journal header line without its newline:
  // a journal whose creation stopped early (the backend rewrites it).
  kUnfinishedJournal,
  kExport,  // a rockpoint export header.
  kOther,   // anything else, or unreadable.
};
JsonlFileKind ClassifyJsonlFile(const std::string& path);

// InvalidArgument: `path` is an export, not a store; says how to load it.
Status ExportIsNotAStore(const std::string& path);

class Store {
 public:
  // `encryption`: the key of an encrypted store (--key-file or
  // ROCKPOINT_AES_KEY); a store created with one is encrypted.
  static Result<std::unique_ptr<Store>> Open(
      const std::string& path, std::optional<Backend> forced, Access access,
      const std::optional<EncryptionOptions>& encryption);

  // The backend of the existing store at `path` (detected as Open does,
  // unless forced). NotFound for a missing path.
  static Result<Backend> Locate(const std::string& path,
                                std::optional<Backend> forced);
  ~Store();

  Checkpointer& checkpointer() { return *checkpointer_; }
  Backend backend() const { return backend_; }
  const std::string& path() const { return path_; }
  // The RocksDB backend, or nullptr for another backend.
  RocksDbCheckpointer* rocksdb() const { return rocksdb_; }
  // The JSONL backend, or nullptr for another backend.
  JsonlCheckpointer* jsonl() const { return jsonl_; }

  // The writes whose checkpoint the store does not hold, found by the
  // backend (no Checkpointer call reaches them). RocksDB stores report them
  // in VerifyStore instead: InvalidArgument for them.
  Result<std::vector<WriteLocation>> FindOrphanWrites();

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

  Status OpenRocksDb(bool exists);
  Status OpenSqlite(bool exists);
  Status OpenJsonl();
  Status OpenPostgres();

  // Checkpointer::Close: syncs what was written and releases the store.
  Status CloseAndSync();

  std::string path_;
  std::optional<EncryptionOptions> encryption_;
  Backend backend_ = Backend::kRocksDb;
  Access access_ = Access::kRead;
  bool created_ = false;
  bool discarded_ = false;
  std::unique_ptr<Checkpointer> checkpointer_;
  RocksDbCheckpointer* rocksdb_ = nullptr;  // owned by checkpointer_.
  JsonlCheckpointer* jsonl_ = nullptr;      // owned by checkpointer_.
};

}  // namespace rockpoint::cli
