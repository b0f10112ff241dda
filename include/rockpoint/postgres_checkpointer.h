// PostgresCheckpointer: the Checkpointer contract over a PostgreSQL server,
// on LangGraph's PostgresSaver schema (engine/postgres/SCHEMA.md), so that
// many processes on many hosts share one store, and a database written by
// LangGraph's saver is read, pruned and verified by rockpoint (and the other
// way round).
//
// Identifiers (thread ids, namespaces, checkpoint ids, channels, task ids and
// paths, type tags, string versions) live in TEXT columns: they must be valid
// UTF-8 without NUL bytes, and at most PostgresOptions::limits.max_id_bytes
// long (the schema's primary keys are B-tree indexed). A write naming another
// id returns InvalidArgument and writes nothing; a read of one finds nothing.
// Writes are keyed as LangGraph keys them: (task_id, idx) per checkpoint, so a
// regular write of a task under another task_path with the same idx is
// ignored, as a repeated write is.
//
// Every call is one transaction; reads run in a REPEATABLE READ READ ONLY
// transaction. Round trips: put, put_writes, get_tuple and a page of list
// one each (libpq's pipeline mode), get_delta_channel_history two.
//
// Thread-safety: safe to call from many threads; each call takes a
// connection from a pool of PostgresOptions::pool_size connections. Many
// processes may use one database at once; changes to one thread are
// serialized by a transaction-scoped advisory lock per thread id.
//
// Faults: a lost connection (server restart, pg_terminate_backend, network)
// fails the call in flight with IOError, and nothing of it is committed; the
// next call reconnects.
//
// Encryption (PostgresOptions::encryption): every checkpoint (with its
// metadata and pending sends), value and write is sealed with AES-256-GCM
// under its record name (engine/postgres/SCHEMA.md, "Encrypted stores").
// An encrypted database is rockpoint's only: LangGraph's saver cannot read
// its sealed rows.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {

// The longest identifier the PostgreSQL backend stores: four of them make a
// primary key entry of checkpoint_blobs or checkpoint_writes, and a B-tree
// entry holds at most 2704 bytes.
inline constexpr size_t kPostgresMaxIdBytes = 512;

struct PostgresOptions {
  // libpq connection string or URL, e.g. "postgresql://user@host/db" or
  // "postgresql:///db?host=/run/postgresql". Required.
  std::string url;
  // Connections kept open (and the most calls served at once). Default: 4.
  size_t pool_size = 4;
  // Create LangGraph's tables (its migrations, in its order) and rockpoint's
  // additive objects when missing. Default: true.
  bool create_if_missing = true;
  // Read only: every connection's transactions are READ ONLY, nothing is
  // created; every write call returns InvalidArgument "store opened
  // read-only". A database that LangGraph's saver wrote and rockpoint never
  // opened for writing is readable this way. Default: false.
  bool read_only = false;
  // Seconds to wait for a connection to the server. Default: 10.
  int connect_timeout_seconds = 10;
  // Input limits. max_id_bytes must be at most kPostgresMaxIdBytes.
  // Default: CheckpointerLimits{} with max_id_bytes = kPostgresMaxIdBytes.
  CheckpointerLimits limits{.max_id_bytes = kPostgresMaxIdBytes};
  // Encrypt every record (docs/ENCRYPTION.md, engine/postgres/SCHEMA.md).
  // An empty database opened with a key becomes an encrypted one (its store
  // id and key check are stored before its first record); an encrypted one
  // needs its key. Opening with a key a database that holds plaintext rows
  // (LangGraph's or rockpoint's) is InvalidArgument: encrypt it with Rekey.
  // Metadata filters of list are applied by rockpoint after decrypting (the
  // GIN index cannot see sealed metadata). Default: nullopt, a plaintext
  // store LangGraph's saver shares.
  std::optional<EncryptionOptions> encryption;
};

class PostgresCheckpointer final : public Checkpointer, public Maintenance {
 public:
  // Connects, then creates or checks the schema: InvalidArgument for a bad
  // option, IOError when the server cannot be reached, Corruption when a
  // table of the schema's name is not LangGraph's or rockpoint's objects
  // were written by a newer rockpoint.
  static Result<std::unique_ptr<PostgresCheckpointer>> Open(
      const PostgresOptions& options);
  ~PostgresCheckpointer() override;

  // Re-seals every row of the database at options.url (opened with
  // options.encryption: nullopt for a plaintext one) under `new_encryption`
  // (nullopt: decrypted back to plaintext, which LangGraph's saver reads
  // again), with a new store id, in ONE transaction: a failure, a lost
  // connection or a server crash at any point rolls all of it back, so the
  // database reads entirely under the old key or entirely under the new
  // one. Side rows left of deleted checkpoints are removed.
  // REQUIRES: exclusive access. Rekey locks LangGraph's tables and
  // rockpoint's (ACCESS EXCLUSIVE) while it runs, so other sessions wait;
  // but a process that opened the database before holds the old key and
  // reads Corruption after: stop every other user first. InvalidArgument for
  // options.read_only, a wrong or missing key; Corruption (nothing changed)
  // when a row does not open under the old key. The replaced row versions
  // stay on disk until VACUUM (and in WAL and backups): VACUUM FULL after
  // encrypting a plaintext database (engine/postgres/SCHEMA.md).
  static Status Rekey(const PostgresOptions& options,
                      const std::optional<EncryptionOptions>& new_encryption);

  // The writes in LangGraph's checkpoint_writes whose checkpoint is not in
  // its checkpoints table (WriteLocation), in key order.
  Result<std::vector<WriteLocation>> FindOrphanWrites() override;
  BackendKind backend() const override { return BackendKind::kPostgres; }

  class Impl;  // postgres/*.cpp only.

 private:
  // The backend hooks (rockpoint/checkpointer.h).
  // DoClose closes every connection. Busy while a cursor is alive.
  ROCKPOINT_CHECKPOINTER_HOOKS(, override)
  Maintenance* DoMaintenance() override { return this; }
  explicit PostgresCheckpointer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint
