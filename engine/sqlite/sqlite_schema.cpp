// Connection settings and the schema (version kSqliteSchemaVersion).
//
// Tables (LangGraph's SQL layout). Identifiers and payloads are BLOBs so any
// bytes (NUL, 0xFF, empty, megabytes) round-trip and compare by memcmp.
//
//   checkpoints(thread_id, checkpoint_ns, checkpoint_id,
//               parent_checkpoint_id,        NULL for a root
//               hidden,                      1: kept only for delta safety
//               run_id,                      metadata.run_id if a string
//               ts,                          checkpoint.ts
//               checkpoint,                  serde CheckpointRecord whose
//                                            metadata is empty; its header's
//                                            hidden flag is unused (the
//                                            column is authoritative)
//               metadata)                    msgpack map
//     PK (thread_id, checkpoint_ns, checkpoint_id)
//     checkpoints_by_run        (run_id)             visible rows with a run
//     checkpoints_newest        (checkpoint_id, thread_id, checkpoint_ns)
//     checkpoints_thread_newest (thread_id, checkpoint_id, checkpoint_ns)
//                                                    both visible rows only
//   checkpoint_blobs(thread_id, checkpoint_ns, channel,
//                    version,                    INTEGER or TEXT as given
//                                                (typeless column: 1 and
//                                                "1" stay distinct)
//                    type, blob)                 both NULL: "empty" marker
//     PK (thread_id, checkpoint_ns, channel, version)
//   checkpoint_writes(thread_id, checkpoint_ns, checkpoint_id, task_id, idx,
//                     channel, type, value, task_path)
//     PK (thread_id, checkpoint_ns, checkpoint_id, task_path, task_id, idx)
//
// Small columns precede the large ones so that reading them never walks a
// large value's overflow pages.
#include <string>

#include "engine/sqlite/sqlite_impl.h"
#include "engine/validation.h"

namespace rockpoint {
namespace {

using sqlite_internal::Transaction;

constexpr int kBusyTimeoutMs = 5000;

constexpr const char* kCreateSchema = R"sql(
CREATE TABLE IF NOT EXISTS checkpoints (
  thread_id BLOB NOT NULL,
  checkpoint_ns BLOB NOT NULL,
  checkpoint_id BLOB NOT NULL,
  parent_checkpoint_id BLOB,
  hidden INTEGER NOT NULL DEFAULT 0,
  run_id BLOB,
  ts BLOB NOT NULL,
  checkpoint BLOB NOT NULL,
  metadata BLOB NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);
CREATE INDEX IF NOT EXISTS checkpoints_by_run ON checkpoints (run_id)
  WHERE hidden = 0 AND run_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS checkpoints_newest
  ON checkpoints (checkpoint_id, thread_id, checkpoint_ns) WHERE hidden = 0;
CREATE INDEX IF NOT EXISTS checkpoints_thread_newest
  ON checkpoints (thread_id, checkpoint_id, checkpoint_ns) WHERE hidden = 0;
CREATE TABLE IF NOT EXISTS checkpoint_blobs (
  thread_id BLOB NOT NULL,
  checkpoint_ns BLOB NOT NULL,
  channel BLOB NOT NULL,
  version NOT NULL,
  type BLOB,
  blob BLOB,
  PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
);
CREATE TABLE IF NOT EXISTS checkpoint_writes (
  thread_id BLOB NOT NULL,
  checkpoint_ns BLOB NOT NULL,
  checkpoint_id BLOB NOT NULL,
  task_id BLOB NOT NULL,
  idx INTEGER NOT NULL,
  channel BLOB NOT NULL,
  type BLOB NOT NULL,
  value BLOB NOT NULL,
  task_path BLOB NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_path, task_id,
               idx)
);
)sql";

// The number of rockpoint tables present: a database without them is new.
constexpr const char* kCountRockpointTables =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
    "('checkpoints', 'checkpoint_blobs', 'checkpoint_writes')";

}  // namespace

Status SqliteCheckpointer::Impl::CheckWritable() const {
  if (options_.read_only) {
    return Status::InvalidArgument(
        "store opened read-only: " +
        sqlite_internal::PrintableBytes(options_.path));
  }
  return Status::OK();
}

Status SqliteCheckpointer::Impl::CheckOpen() const {
  return db_ ? Status::OK() : StoreClosedError();
}

Status SqliteCheckpointer::Impl::Close() {
  if (!db_) return Status::OK();
  Status closed = db_->Close();
  if (closed.IsBusy()) return closed;
  db_.reset();
  return closed;
}

Status SqliteCheckpointer::Impl::Initialize() {
  base::MutexLock lock(&mu_);
  sqlite3_busy_timeout(db_->handle(), kBusyTimeoutMs);
  const bool read_only = options_.read_only;
  if (!read_only) {
    // WAL for file databases (":memory:" keeps its own journal mode).
    RP_RETURN_IF_ERROR(db_->Exec("PRAGMA journal_mode=WAL"));
    RP_RETURN_IF_ERROR(db_->Exec(options_.sync_writes
                                     ? "PRAGMA synchronous=FULL"
                                     : "PRAGMA synchronous=NORMAL"));
  }
  // Read-write: reading and creating under one write lock, so that two
  // processes opening a new file at once do not both create the schema.
  // Read-only: no pragma that writes; the schema must be there already.
  RP_ASSIGN_OR_RETURN(Transaction txn,
                      read_only ? Transaction::BeginRead(db_.get())
                                : Transaction::BeginWrite(db_.get()));
  RP_ASSIGN_OR_RETURN(int64_t version, db_->QueryInt("PRAGMA user_version"));
  const std::string name =
      "sqlite database " + sqlite_internal::PrintableBytes(options_.path);
  if (version > kSqliteSchemaVersion) {
    return Status::InvalidArgument(
        name + " has schema version " + std::to_string(version) +
        ", newer than the supported " + std::to_string(kSqliteSchemaVersion));
  }
  if (version < kSqliteSchemaVersion) {
    // A database that holds rockpoint tables lost its schema version (a
    // damaged header): refused, never silently re-stamped.
    RP_ASSIGN_OR_RETURN(int64_t tables, db_->QueryInt(kCountRockpointTables));
    if (tables > 0) {
      return Status::Corruption(
          name +
          " holds rockpoint tables but its schema version (PRAGMA "
          "user_version) is " +
          std::to_string(version) + ", not " +
          std::to_string(kSqliteSchemaVersion) +
          " (a damaged database; not re-stamped)");
    }
    if (read_only) {
      return Status::InvalidArgument(
          name +
          " has no rockpoint schema (opened read-only, so it is not created)");
    }
    RP_RETURN_IF_ERROR(db_->Exec(kCreateSchema));
    RP_RETURN_IF_ERROR(db_->Exec("PRAGMA user_version=" +
                                 std::to_string(kSqliteSchemaVersion)));
  }
  return txn.Commit();
}

}  // namespace rockpoint
