// Open: one way to open any store, named by a URL.
//
//   rocksdb:PATH         a RocksDB store directory
//   sqlite:PATH          a SQLite database file (sqlite::memory: for one in
//                        memory, sqlite:file:... for a SQLite URI)
//   jsonl:PATH           a journal file (engine/jsonl/FORMAT.md)
//   postgresql://...     a PostgreSQL database on LangGraph's tables (the
//   postgres://...       whole URL goes to libpq)
//   memory:              a new store in process memory
//   PATH                 a bare path: an existing store is recognized by its
//                        content (LocateStore); a new one by its name
//
// A bare path that begins like a scheme ("rocksdb:x") must be written
// "./rocksdb:x". Everything a backend shares is in StoreOptions; what only
// one backend has is in its part (StoreOptions::rocksdb, ::jsonl,
// ::postgres), ignored by the others.
//
// Thread-safety: pure functions; the store Open returns is as safe as its
// backend (rockpoint/checkpointer.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/retention_checkpointer.h"
#include "rockpoint/status.h"

namespace rockpoint {

// The backends. Persisted nowhere.
enum class BackendKind { kRocksDb, kSqlite, kJsonl, kPostgres, kMemory };

// "rocksdb", "sqlite", "jsonl", "postgres" or "memory": the URL scheme of
// each but PostgreSQL (whose URLs are libpq's, "postgresql://...").
std::string_view BackendName(BackendKind backend);

// Only RocksDB has these.
struct RocksDbTuning {
  // Values of at least this many bytes go to RocksDB blob files (0: never).
  // Default: 64 KiB.
  uint64_t blob_file_min_bytes = uint64_t{64} << 10;
  // Shared block cache for all column families. Default: 64 MiB.
  uint64_t block_cache_bytes = uint64_t{64} << 20;
};

// Only the journal has these.
struct JsonlTuning {
  // Compact after a call once dead lines exceed live lines and the journal
  // holds at least this many lines; 0 never compacts on its own. Default:
  // 1000.
  uint64_t auto_compact_min_lines = 1000;
};

// Only PostgreSQL has these.
struct PostgresTuning {
  // Connections kept open (and the most calls served at once). Default: 4.
  size_t pool_size = 4;
  // Seconds to wait for a connection to the server. Default: 10.
  int connect_timeout_seconds = 10;
};

struct StoreOptions {
  // Create the store if it does not exist (PostgreSQL: create LangGraph's
  // tables and rockpoint's objects in an existing database). Default: true.
  bool create_if_missing = true;
  // Open for reading only: no lock taken where the backend can avoid one,
  // nothing written; every write call returns InvalidArgument "store opened
  // read-only: <store>". Default: false.
  bool read_only = false;
  // A write call returns only once its change is durable (RocksDB: WAL
  // fsync, shared by concurrent writers; SQLite: synchronous=FULL; journal:
  // fdatasync; PostgreSQL: the server's commit). Default: true.
  bool sync_writes = true;
  // Input limits. Default: nullopt, the backend's (CheckpointerLimits{};
  // PostgreSQL's max_id_bytes is kPostgresMaxIdBytes).
  std::optional<CheckpointerLimits> limits;
  // Encryption at rest (docs/ENCRYPTION.md): a new store is created
  // encrypted with this key, an encrypted store needs it. Not for memory:.
  // Default: nullopt, a plaintext store.
  std::optional<EncryptionOptions> encryption;
  // Wrap the store in a RetentionCheckpointer with these options, so its
  // policy is applied by a sweeper (rockpoint/retention_checkpointer.h).
  // Default: nullopt, no retention.
  std::optional<RetentionOptions> retention;
  // The backends' own parts. Default: their defaults.
  RocksDbTuning rocksdb;
  JsonlTuning jsonl;
  PostgresTuning postgres;
};

// Where a URL points.
struct StoreLocation {
  BackendKind backend = BackendKind::kMemory;
  // The path (or, for PostgreSQL, the whole URL) the backend opens; empty
  // for memory:.
  std::string target;
  // Whether something is at `target` already (always true for PostgreSQL,
  // false for memory:).
  bool exists = false;
};

// The backend and target of `url`, without opening it. For a bare path:
//   - an existing directory is RocksDB; an existing file is SQLite when it
//     starts with SQLite's header, a journal when its first line is a
//     journal header (or a ".jsonl" file whose header line was never
//     finished); anything else is InvalidArgument "not a rockpoint store",
//     and a rockpoint export says how to import it;
//   - a missing path is a journal for "*.jsonl", SQLite for "*.db",
//     "*.sqlite" and "*.sqlite3", RocksDB otherwise.
// InvalidArgument for an empty URL, an empty path after a scheme, or
// anything after "memory:".
Result<StoreLocation> LocateStore(std::string_view url);

// Opens (or, with create_if_missing, creates) the store `url` names.
// NotFound for a bare or schemed path that does not exist when
// create_if_missing is false; otherwise the errors of the backend's open
// (Busy for a store another process holds or this one has open; a RocksDB
// directory may hold an item store too, rockpoint/store.h, sharing one open
// database in a process; InvalidArgument for a wrong key
// or a newer format, Corruption, IOError).
Result<std::unique_ptr<Checkpointer>> Open(std::string_view url,
                                           const StoreOptions& options = {});
// Open at a location LocateStore returned (or one built by hand).
Result<std::unique_ptr<Checkpointer>> Open(const StoreLocation& location,
                                           const StoreOptions& options = {});

}  // namespace rockpoint
