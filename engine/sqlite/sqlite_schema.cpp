// Connection settings, the schema (version kSqliteSchemaVersion) and the
// store's encryption.
//
// Tables (LangGraph's SQL layout). Identifiers and payloads are BLOBs so any
// bytes (NUL, 0xFF, empty, megabytes) round-trip and compare by memcmp. The
// record columns (checkpoint, metadata, blobs' type and blob, writes' type
// and value) hold what sqlite_records.h says: the plaintext below, or in an
// encrypted store the records sealed under their names. Every other column
// is an identifier or a flag and stays in the clear in an encrypted store
// too, so that lookups, ordering and retention run in SQL: the key columns,
// parent_checkpoint_id, run_id (delete_for_runs' index), hidden (the
// partial indexes) and ts (the age retention and list_threads read without
// opening records, like the RocksDB backend's ts index; get_tuple returns
// the sealed record's ts). Those clear columns are authenticated only where
// sqlite_records.h checks them against a record (the parent, the blob's
// has-value flag, the write's channel): a changed hidden, run_id or ts
// column changes what retention and list_threads see, never what a record
// reads as, and a deleted row is noticed only when a header names its
// value (a missing blob row is Corruption).
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
//   rockpoint_meta(name TEXT, value)         since version 2; the store's
//                                            encryption: 'store_id' (16
//                                            random bytes) and 'key_check'
//                                            (RecordCipher::MakeKeyCheck),
//                                            both or neither (plaintext)
//     PK (name)
//
// Small columns precede the large ones so that reading them never walks a
// large value's overflow pages.
#include <optional>
#include <string>
#include <utility>

#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
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

// Version 2's addition (also how a version 1 database is upgraded).
constexpr const char* kCreateMeta = R"sql(
CREATE TABLE IF NOT EXISTS rockpoint_meta (
  name TEXT PRIMARY KEY NOT NULL,
  value BLOB NOT NULL
);
)sql";

// The number of rockpoint tables present: a database without them is new.
constexpr const char* kCountRockpointTables =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
    "('checkpoints', 'checkpoint_blobs', 'checkpoint_writes', "
    "'rockpoint_meta')";

constexpr const char* kHasMeta =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
    "'rockpoint_meta'";
// ?1 the name, bound as bytes: compared (and stored) as TEXT.
constexpr const char* kSelectMeta =
    "SELECT value FROM rockpoint_meta WHERE name = CAST(?1 AS TEXT)";
constexpr const char* kInsertMeta =
    "INSERT INTO rockpoint_meta (name, value) VALUES (CAST(?1 AS TEXT), ?2)";
constexpr const char* kStoreIdName = "store_id";
constexpr const char* kKeyCheckName = "key_check";

// Whether any table holds a record (a row of the three tables).
constexpr const char* kHasRecords =
    "SELECT EXISTS (SELECT 1 FROM checkpoints) OR EXISTS (SELECT 1 FROM "
    "checkpoint_blobs) OR EXISTS (SELECT 1 FROM checkpoint_writes)";

// The value of rockpoint_meta row `name`, nullopt if there is none.
Result<std::optional<std::string>> ReadMeta(Database* db,
                                            std::string_view name) {
  RP_ASSIGN_OR_RETURN(Statement select, db->Prepare(kSelectMeta));
  select.BindBytes(1, name);
  RP_ASSIGN_OR_RETURN(bool found, select.Step());
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(select.ColumnString(0));
}

}  // namespace

Result<StoredEncryption> ReadStoredEncryption(Database* db) {
  RP_ASSIGN_OR_RETURN(int64_t has_meta, db->QueryInt(kHasMeta));
  if (has_meta == 0) return StoredEncryption{};  // version 1: plaintext.
  RP_ASSIGN_OR_RETURN(std::optional<std::string> store_id,
                      ReadMeta(db, kStoreIdName));
  RP_ASSIGN_OR_RETURN(std::optional<std::string> key_check,
                      ReadMeta(db, kKeyCheckName));
  if (!store_id && !key_check) return StoredEncryption{};
  if (!store_id || !key_check || store_id->size() != kStoreIdBytes ||
      key_check->empty()) {
    return Status::Corruption(
        "rockpoint_meta is damaged: an encrypted store keeps both a 16-byte "
        "store_id and a key_check");
  }
  return StoredEncryption{std::move(*store_id), std::move(*key_check)};
}

Status WriteStoredEncryption(Database* db, const StoredEncryption& stored) {
  RP_RETURN_IF_ERROR(db->Exec(
      "DELETE FROM rockpoint_meta WHERE name IN ('store_id', 'key_check')"));
  if (!stored.encrypted()) return Status::OK();
  for (const auto& [name, value] : {std::pair<const char*, const std::string*>{
                                        kStoreIdName, &stored.store_id},
                                    {kKeyCheckName, &stored.key_check}}) {
    RP_ASSIGN_OR_RETURN(Statement insert, db->Prepare(kInsertMeta));
    insert.BindBytes(1, std::string_view(name));
    insert.BindBytes(2, *value);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  return Status::OK();
}

Status SqliteCheckpointer::CheckOpen() const {
  return db_ ? Status::OK() : StoreClosedError();
}

Status SqliteCheckpointer::DoClose() {
  base::MutexLock lock(&mu_);
  if (!db_) return Status::OK();
  Status closed = db_->Close();
  if (closed.IsBusy()) return closed;
  db_.reset();
  return closed;
}

Status SqliteCheckpointer::Initialize() {
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
  if (version == 0) {
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
    RP_RETURN_IF_ERROR(db_->Exec(kCreateMeta));
    RP_RETURN_IF_ERROR(db_->Exec("PRAGMA user_version=" +
                                 std::to_string(kSqliteSchemaVersion)));
  } else if (version < kSqliteSchemaVersion && !read_only) {
    // Version 1 -> 2: rockpoint_meta joins (the store stays plaintext).
    RP_RETURN_IF_ERROR(db_->Exec(kCreateMeta));
    RP_RETURN_IF_ERROR(db_->Exec("PRAGMA user_version=" +
                                 std::to_string(kSqliteSchemaVersion)));
  }
  RP_RETURN_IF_ERROR(SetUpEncryption());
  return txn.Commit();
}

Status SqliteCheckpointer::SetUpEncryption() {
  RP_ASSIGN_OR_RETURN(const StoredEncryption stored,
                      ReadStoredEncryption(db_.get()));
  bool has_records = false;
  if (options_.encryption && !stored.encrypted()) {
    RP_ASSIGN_OR_RETURN(const int64_t any, db_->QueryInt(kHasRecords));
    has_records = any != 0;
  }
  StoredEncryption to_store;
  RP_ASSIGN_OR_RETURN(cipher_, OpenStoreCipher(options_.encryption, stored,
                                               has_records, &to_store));
  store_id_ = stored.store_id;
  if (!to_store.encrypted()) return Status::OK();
  // A new encrypted store: what it keeps is written with the check that it
  // holds no record, in this one transaction, before any record.
  if (options_.read_only) {
    cipher_.reset();
    return Status::InvalidArgument(
        "sqlite database " + sqlite_internal::PrintableBytes(options_.path) +
        " is not encrypted: a read-only open cannot encrypt it (open it "
        "read-write with the key, or read it without one)");
  }
  RP_RETURN_IF_ERROR(WriteStoredEncryption(db_.get(), to_store));
  store_id_ = to_store.store_id;
  return Status::OK();
}

Status SqliteCheckpointer::CheckEncryptionUnchanged() {
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      ReadMeta(db(), kStoreIdName));
  if (stored.value_or("") == store_id_) return Status::OK();
  return Status::Aborted(
      "the store's encryption changed since this handle opened it (a Rekey "
      "through another handle, which needs exclusive access): reopen it");
}

}  // namespace rockpoint
