// An encrypted database's stored encryption (engine/postgres/SCHEMA.md,
// "Encrypted stores"): the one row of rockpoint_encryption, its store id and
// key check (engine/record_cipher.h). Opening reads it and decides the
// store's cipher (OpenStoreCipher); an empty database opened with a key gets
// its row, and the table with schema version 2 when missing, in one
// transaction that first makes sure no record is there.
#include <string>
#include <vector>

#include "engine/postgres/pg_sealed.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {
namespace {

// Schema version 2: the stored encryption, one row at most.
constexpr const char* kCreateEncryptionTable =
    "CREATE TABLE IF NOT EXISTS rockpoint_encryption ("
    "singleton BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton), "
    "store_id BYTEA NOT NULL, key_check BYTEA NOT NULL)";
constexpr const char* kRecordVersion2 =
    "INSERT INTO rockpoint_migrations (v) VALUES (2) ON CONFLICT DO NOTHING";
constexpr const char* kDeleteEncryption =
    "DO $$ BEGIN IF to_regclass('rockpoint_encryption') IS NOT NULL THEN "
    "DELETE FROM rockpoint_encryption; END IF; END $$";
constexpr const char* kInsertEncryption =
    "INSERT INTO rockpoint_encryption (singleton, store_id, key_check) "
    "VALUES (true, $1, $2)";

constexpr const char* kHasEncryptionTable =
    "SELECT to_regclass('rockpoint_encryption') IS NOT NULL";
constexpr const char* kSelectEncryption =
    "SELECT store_id, key_check FROM rockpoint_encryption";
// A database holding any row of LangGraph's tables has records.
constexpr const char* kHasRecords =
    "SELECT EXISTS (SELECT 1 FROM checkpoints) OR "
    "EXISTS (SELECT 1 FROM checkpoint_blobs) OR "
    "EXISTS (SELECT 1 FROM checkpoint_writes)";

// The session lock pg_schema.cpp holds while it migrates, taken for the
// transaction: opens that store an encryption, migrations and Rekey run one
// at a time.
constexpr const char* kLockSchemaForTransaction =
    "SELECT pg_advisory_xact_lock(7262897, 0)";
// New records wait until the stored encryption is committed.
constexpr const char* kLockRecords =
    "LOCK TABLE checkpoints, checkpoint_blobs, checkpoint_writes IN SHARE "
    "MODE";

pg::Query Unprepared(const char* sql) { return pg::Query{nullptr, sql, {}}; }

struct EncryptionState {
  StoredEncryption stored;
  bool has_records = false;
};

// The stored encryption and whether records exist, read in the transaction
// open on `connection` (or each statement in its own when none is).
Result<EncryptionState> ReadState(pg::Connection& connection) {
  RP_ASSIGN_OR_RETURN(pg::Rows table,
                      connection.RunOne(Unprepared(kHasEncryptionTable)));
  std::vector<pg::Query> queries = {Unprepared(kHasRecords)};
  if (table.GetBool(0, 0)) queries.push_back(Unprepared(kSelectEncryption));
  RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> rows, connection.Run(queries));
  EncryptionState state;
  state.has_records = rows[0].GetBool(0, 0);
  if (rows.size() > 1 && rows[1].size() > 0) {
    state.stored = {rows[1].GetString(0, 0), rows[1].GetString(0, 1)};
  }
  return state;
}

}  // namespace

std::vector<pg::Query> ReplaceStoredEncryption(const StoredEncryption& stored) {
  std::vector<pg::Query> queries;
  if (stored.encrypted()) {
    queries.push_back(Unprepared(kCreateEncryptionTable));
    queries.push_back(Unprepared(kRecordVersion2));
  }
  queries.push_back(Unprepared(kDeleteEncryption));
  if (stored.encrypted()) {
    queries.push_back(
        pg::Query{nullptr,
                  kInsertEncryption,
                  {pg::Bytes(stored.store_id), pg::Bytes(stored.key_check)}});
  }
  return queries;
}

pg::Query LockSchemaForTransaction() {
  return Unprepared(kLockSchemaForTransaction);
}

Status PostgresCheckpointer::OpenEncryption(pg::Connection& connection) {
  RP_ASSIGN_OR_RETURN(const EncryptionState state, ReadState(connection));
  StoredEncryption to_store;
  RP_ASSIGN_OR_RETURN(cipher_,
                      OpenStoreCipher(options_.encryption, state.stored,
                                      state.has_records, &to_store));
  if (!to_store.encrypted()) return Status::OK();
  if (options_.read_only) {
    cipher_.reset();
    return Status::InvalidArgument(
        "PostgreSQL database (" + connection.description() +
        ") is not encrypted: an empty database becomes encrypted by a "
        "read-write open with a key");
  }
  if (!has_encryption_table_ && !options_.create_if_missing) {
    cipher_.reset();
    return Status::InvalidArgument(
        "PostgreSQL database (" + connection.description() +
        ") has no rockpoint_encryption table (rockpoint schema version 1) "
        "and create_if_missing is false: it cannot become encrypted");
  }
  // Decided again under the locks: another open may have stored an
  // encryption, or a writer added a record, since the read above.
  RP_RETURN_IF_ERROR(connection.Execute("BEGIN"));
  auto store = [&]() -> Status {
    RP_RETURN_IF_ERROR(
        connection.Run({LockSchemaForTransaction(), Unprepared(kLockRecords)})
            .status());
    RP_ASSIGN_OR_RETURN(const EncryptionState locked, ReadState(connection));
    RP_ASSIGN_OR_RETURN(cipher_,
                        OpenStoreCipher(options_.encryption, locked.stored,
                                        locked.has_records, &to_store));
    if (!to_store.encrypted()) return Status::OK();
    return connection.Run(ReplaceStoredEncryption(to_store)).status();
  };
  Status status = store();
  if (status.ok()) status = connection.Execute("COMMIT");
  if (!status.ok()) {
    cipher_.reset();
    if (connection.healthy()) (void)connection.Execute("ROLLBACK");
    return status;
  }
  has_encryption_table_ = true;
  return Status::OK();
}

Status PostgresCheckpointer::UnsealRow(PgCheckpointRow& row) const {
  if (!cipher_) return Status::OK();
  RP_ASSIGN_OR_RETURN(
      pg::CheckpointColumns plain,
      pg::OpenCheckpoint(
          *cipher_, row.thread_id, row.checkpoint_ns, row.checkpoint_id,
          {row.checkpoint_json, row.metadata_json, row.pending_sends_json}));
  row.checkpoint_json = std::move(plain.checkpoint);
  row.metadata_json = std::move(plain.metadata);
  row.pending_sends_json = std::move(plain.pending_sends);
  return Status::OK();
}

Result<TypedValue> PostgresCheckpointer::StoredValue(
    const std::function<std::string()>& name, std::string_view type,
    std::string_view blob, std::string_view what) const {
  if (!cipher_) return TypedValue{std::string(type), std::string(blob)};
  return pg::OpenValue(*cipher_, name(), blob, what);
}

Result<std::pair<pg::Param, pg::Param>> PostgresCheckpointer::ValueParams(
    const std::function<std::string()>& name, const TypedValue& value) const {
  if (!cipher_) {
    return std::make_pair(pg::Text(value.type), pg::Bytes(value.bytes));
  }
  RP_ASSIGN_OR_RETURN(std::string sealed,
                      pg::SealValue(*cipher_, name(), value));
  return std::make_pair(pg::Text(pg::kSealedType), pg::Bytes(sealed));
}

}  // namespace rockpoint
