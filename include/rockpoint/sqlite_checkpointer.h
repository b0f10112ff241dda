// SqliteCheckpointer: LangGraph's three-table SQL layout (checkpoints, blobs
// per channel version, writes with task_path) on SQLite in WAL mode. A
// portable option and the peer the benchmark compares against.
//
// Encryption at rest (SqliteOptions::encryption, docs/ENCRYPTION.md): every
// record (checkpoint with its metadata, channel value, pending write) is
// sealed with AES-256-GCM under its name; identifiers and the columns
// lookups, ordering and retention need (parent id, run id, hidden flag, ts)
// stay in the clear. The store id and key check live in the table
// rockpoint_meta, written in the transaction that creates the encrypted
// store, before its first record.
//
// Thread-safety: safe to call from many threads (calls are serialized on one
// connection). A second process may open the same file (SQLite locking).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

struct SqliteOptions {
  // Database file; ":memory:" for an in-memory database. Required.
  std::string path;
  // Create the file if it does not exist. Default: true.
  bool create_if_missing = true;
  // Open for reading only (SQLITE_OPEN_READONLY): every write call returns
  // InvalidArgument "store opened read-only", and the file must already
  // hold a rockpoint schema. Other connections may keep writing; reads see
  // their committed changes. Default: false.
  bool read_only = false;
  // PRAGMA synchronous=FULL (true) or NORMAL (false) under WAL. Default: true.
  bool sync_writes = true;
  // Input limits. Default: CheckpointerLimits{}.
  CheckpointerLimits limits;
  // nullopt: a plaintext store. Set: the store is encrypted with this key.
  // A new (empty) store becomes encrypted on open; opening an encrypted
  // store without its key, with a wrong key, or a store holding plaintext
  // records with a key, is InvalidArgument and changes nothing (a
  // plaintext store is encrypted by Rekey). A read-only open reads an
  // encrypted store with its key, but cannot encrypt a plaintext one
  // (InvalidArgument). Default: nullopt.
  std::optional<EncryptionOptions> encryption;
};

class SqliteCheckpointer final : public Checkpointer, public Maintenance {
 public:
  static Result<std::unique_ptr<SqliteCheckpointer>> Open(
      const SqliteOptions& options);
  // Re-writes every record of the store at options.path under
  // `new_encryption` with a new store id (nullopt: decrypted to a plaintext
  // store; a plaintext store is encrypted this way). The store is opened
  // with options.encryption (nullopt: it is plaintext); a missing or wrong
  // key is InvalidArgument, a record that does not open or decode is
  // Corruption naming it, and either changes nothing. Never creates the
  // file (options.create_if_missing is ignored); options.read_only is
  // InvalidArgument; the commit is synced (options.sync_writes is ignored),
  // so once Rekey returns OK the old key may be discarded.
  // Crash-safe and atomic: one SQLite write transaction (BEGIN IMMEDIATE)
  // re-writes every row and the stored encryption, so after a crash at any
  // point the store reads entirely under the old key or entirely under the
  // new one. Old bytes are overwritten (secure_delete) and the WAL is
  // checkpointed and truncated after the commit.
  // REQUIRES exclusive access: no other handle (in any process) may have
  // the store open. One that did would fail with Aborted on its next write
  // of a record, and read Corruption, until reopened.
  static Status Rekey(const SqliteOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);
  ~SqliteCheckpointer() override;

  // The writes whose checkpoint the store does not hold (WriteLocation),
  // in key order; one read transaction.
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kSqlite; }

  class Impl;  // sqlite/*.cpp only.

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose finalizes the cached statements and closes the connection (the last
  // connection checkpoints the WAL into the database file). Busy, leaving
  // it open, while a statement is still open. Safe to call from any thread.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  explicit SqliteCheckpointer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint
