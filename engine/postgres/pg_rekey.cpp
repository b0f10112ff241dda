// PostgresCheckpointer::Rekey: every row re-sealed under a new key (or
// decrypted, or a plaintext database encrypted) in ONE transaction, so
// PostgreSQL's atomicity is the crash safety: a failure, a lost connection or
// a server crash before COMMIT leaves every row and the stored encryption as
// they were; after COMMIT all of them are the new ones.
//
// The transaction takes the schema's advisory lock (no open stores an
// encryption meanwhile) and ACCESS EXCLUSIVE locks on the tables it
// rewrites, then rewrites, a page of rows at a time through a cursor:
// checkpoints (with their side rows' pending_sends), values, writes; and
// replaces the stored encryption last.
#include <string>
#include <utility>
#include <vector>

#include "engine/postgres/pg_sealed.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/record_names.h"

namespace rockpoint {
namespace {

// Rows per FETCH.
constexpr int kPageRows = 256;

constexpr const char* kLockTables =
    "LOCK TABLE checkpoints, checkpoint_blobs, checkpoint_writes, "
    "rockpoint_checkpoints IN ACCESS EXCLUSIVE MODE";
// Side rows of deleted checkpoints (LangGraph's delete_thread leaves them)
// are read by nothing; they go rather than keep plaintext pending sends in
// an encrypted database.
constexpr const char* kDeleteOrphanSideRows =
    "DELETE FROM rockpoint_checkpoints r WHERE NOT EXISTS (SELECT 1 FROM "
    "checkpoints c WHERE c.thread_id = r.thread_id AND c.checkpoint_ns = "
    "r.checkpoint_ns AND c.checkpoint_id = r.checkpoint_id)";

constexpr const char* kCheckpoints =
    "SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.checkpoint::text, "
    "c.metadata::text, r.pending_sends::text, r.thread_id IS NOT NULL "
    "FROM checkpoints c LEFT JOIN rockpoint_checkpoints r "
    "ON r.thread_id = c.thread_id AND r.checkpoint_ns = c.checkpoint_ns "
    "AND r.checkpoint_id = c.checkpoint_id";
constexpr const char* kUpdateCheckpoint =
    "UPDATE checkpoints SET checkpoint = $4::jsonb, metadata = $5::jsonb "
    "WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3";
constexpr const char* kUpdateSideRow =
    "UPDATE rockpoint_checkpoints SET pending_sends = $4::jsonb "
    "WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3";

// LangGraph's "empty" markers (blob NULL) hold nothing and stay.
constexpr const char* kValues =
    "SELECT thread_id, checkpoint_ns, channel, version, type, blob "
    "FROM checkpoint_blobs WHERE blob IS NOT NULL";
constexpr const char* kUpdateValue =
    "UPDATE checkpoint_blobs SET type = $5, blob = $6 WHERE thread_id = $1 "
    "AND checkpoint_ns = $2 AND channel = $3 AND version = $4";

constexpr const char* kWrites =
    "SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, "
    "task_path, type, blob FROM checkpoint_writes";
constexpr const char* kUpdateWrite =
    "UPDATE checkpoint_writes SET type = $6, blob = $7 WHERE thread_id = $1 "
    "AND checkpoint_ns = $2 AND checkpoint_id = $3 AND task_id = $4 "
    "AND idx = $5";

pg::Query Unprepared(std::string sql, pg::Params params = {}) {
  return pg::Query{nullptr, std::move(sql), std::move(params)};
}

void Wipe(std::string& secret) {
  volatile char* bytes = secret.data();
  for (size_t i = 0; i < secret.size(); ++i) bytes[i] = 0;
  secret.clear();
}

// The rewrite: rows opened with `from`, sealed with `to` (nullptr: a
// plaintext store on that side).
struct Rekeying {
  const RecordCipher* from;
  const RecordCipher* to;

  Result<pg::CheckpointColumns> Checkpoint(
      std::string_view thread, std::string_view ns, std::string_view id,
      const pg::CheckpointColumns& stored) const {
    pg::CheckpointColumns plain = stored;
    if (from != nullptr) {
      RP_ASSIGN_OR_RETURN(plain,
                          pg::OpenCheckpoint(*from, thread, ns, id, stored));
    }
    if (to == nullptr) return plain;
    return pg::SealCheckpoint(*to, thread, ns, id, plain);
  }

  // The (type, blob) of a value or write stored as (type, blob) under
  // `name()`.
  Result<std::pair<pg::Param, pg::Param>> Value(
      const std::function<Result<std::string>()>& name, std::string_view type,
      std::string_view blob, std::string_view what) const {
    std::string record_name;
    if (from != nullptr || to != nullptr) {
      RP_ASSIGN_OR_RETURN(record_name, name());
    }
    TypedValue value{std::string(type), std::string(blob)};
    if (from != nullptr) {
      RP_ASSIGN_OR_RETURN(value, pg::OpenValue(*from, record_name, blob, what));
    }
    if (to == nullptr) {
      return std::make_pair(pg::Text(value.type), pg::Bytes(value.bytes));
    }
    RP_ASSIGN_OR_RETURN(std::string sealed,
                        pg::SealValue(*to, record_name, value));
    return std::make_pair(pg::Text(pg::kSealedType), pg::Bytes(sealed));
  }
};

Status RekeyCheckpoints(pg::Connection& connection, const Rekeying& rekey) {
  const pg::Statement update{"rp_rekey_cp", kUpdateCheckpoint};
  const pg::Statement side{"rp_rekey_side", kUpdateSideRow};
  return RewritePages(
      connection, "rp_rekey_checkpoints", kCheckpoints, {},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string thread = rows.GetString(i, 0);
          const std::string ns = rows.GetString(i, 1);
          const std::string id = rows.GetString(i, 2);
          RP_ASSIGN_OR_RETURN(
              const pg::CheckpointColumns columns,
              rekey.Checkpoint(thread, ns, id,
                               {rows.GetString(i, 3), rows.GetString(i, 4),
                                rows.GetOptional(i, 5)}));
          const pg::Params key = {pg::Text(thread), pg::Text(ns), pg::Text(id)};
          pg::Params params = key;
          params.push_back(pg::Text(columns.checkpoint));
          params.push_back(pg::Text(columns.metadata));
          queries.push_back(pg::Query{&update, "", std::move(params)});
          if (!rows.GetBool(i, 6)) continue;  // no side row.
          params = key;
          params.push_back(pg::OptionalText(columns.pending_sends));
          queries.push_back(pg::Query{&side, "", std::move(params)});
        }
        return queries;
      });
}

Status RekeyValues(pg::Connection& connection, const Rekeying& rekey) {
  const pg::Statement update{"rp_rekey_value", kUpdateValue};
  return RewritePages(
      connection, "rp_rekey_values", kValues, {},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string thread = rows.GetString(i, 0);
          const std::string ns = rows.GetString(i, 1);
          const std::string channel = rows.GetString(i, 2);
          const std::string key = rows.GetString(i, 3);
          auto name = [&]() -> Result<std::string> {
            RP_ASSIGN_OR_RETURN(
                const ChannelVersion version,
                pg::VersionFromKey(
                    key, "checkpoint_blobs row of thread \"" + thread + "\""));
            return record_names::Blob(thread, ns, channel, version);
          };
          RP_ASSIGN_OR_RETURN(
              auto stored,
              rekey.Value(name, rows.Get(i, 4), rows.Get(i, 5), "value"));
          queries.push_back(pg::Query{
              &update,
              "",
              {pg::Text(thread), pg::Text(ns), pg::Text(channel), pg::Text(key),
               std::move(stored.first), std::move(stored.second)}});
        }
        return queries;
      });
}

Status RekeyWrites(pg::Connection& connection, const Rekeying& rekey) {
  const pg::Statement update{"rp_rekey_write", kUpdateWrite};
  return RewritePages(
      connection, "rp_rekey_writes", kWrites, {},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string thread = rows.GetString(i, 0);
          const std::string ns = rows.GetString(i, 1);
          const std::string id = rows.GetString(i, 2);
          const std::string task_id = rows.GetString(i, 3);
          const int64_t idx = rows.GetInt(i, 4);
          auto name = [&]() -> Result<std::string> {
            return record_names::Write(thread, ns, id, rows.Get(i, 5), task_id,
                                       idx);
          };
          RP_ASSIGN_OR_RETURN(
              auto stored,
              rekey.Value(name, rows.Get(i, 6), rows.Get(i, 7), "write"));
          queries.push_back(
              pg::Query{&update,
                        "",
                        {pg::Text(thread), pg::Text(ns), pg::Text(id),
                         pg::Text(task_id), pg::Int(idx),
                         std::move(stored.first), std::move(stored.second)}});
        }
        return queries;
      });
}

}  // namespace

Status RewritePages(
    pg::Connection& connection, std::string_view cursor,
    std::string_view select, const pg::Params& params,
    const std::function<Result<std::vector<pg::Query>>(const pg::Rows&)>&
        rewrite) {
  const std::string name(cursor);
  RP_RETURN_IF_ERROR(
      connection
          .RunOne(Unprepared("DECLARE " + name + " NO SCROLL CURSOR FOR " +
                                 std::string(select),
                             params))
          .status());
  const std::string fetch =
      "FETCH " + std::to_string(kPageRows) + " FROM " + name;
  for (;;) {
    RP_ASSIGN_OR_RETURN(pg::Rows rows, connection.RunOne(Unprepared(fetch)));
    RP_ASSIGN_OR_RETURN(const std::vector<pg::Query> queries, rewrite(rows));
    if (!queries.empty()) RP_RETURN_IF_ERROR(connection.Run(queries).status());
    if (rows.size() < kPageRows) break;
  }
  return connection.RunOne(Unprepared("CLOSE " + name)).status();
}

Status PostgresCheckpointer::RewriteUnderKey(
    const std::optional<EncryptionOptions>& new_encryption) {
  std::unique_ptr<RecordCipher> next;
  StoredEncryption stored;
  if (new_encryption) {
    RP_ASSIGN_OR_RETURN(std::string key, ResolveEncryptionKey(*new_encryption));
    RP_ASSIGN_OR_RETURN(std::string store_id, NewStoreId());
    Result<std::unique_ptr<RecordCipher>> created =
        RecordCipher::Create(key, store_id);
    Wipe(key);
    RP_ASSIGN_OR_RETURN(next, std::move(created));
    RP_ASSIGN_OR_RETURN(stored.key_check, next->MakeKeyCheck());
    stored.store_id = next->store_id();
  }
  if (cipher_ == nullptr && next == nullptr) return Status::OK();  // no-op.
  const Rekeying rekey{cipher_.get(), next.get()};
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  pg::Connection& connection = *lease;
  RP_RETURN_IF_ERROR(connection.Execute("BEGIN"));
  auto rewrite = [&]() -> Status {
    RP_RETURN_IF_ERROR(
        connection
            .Run({LockSchemaForTransaction(), Unprepared(kLockTables),
                  Unprepared(kDeleteOrphanSideRows)})
            .status());
    RP_RETURN_IF_ERROR(RekeyCheckpoints(connection, rekey));
    RP_RETURN_IF_ERROR(RekeyValues(connection, rekey));
    RP_RETURN_IF_ERROR(RekeyWrites(connection, rekey));
    return connection.Run(ReplaceStoredEncryption(stored)).status();
  };
  Status status = rewrite();
  if (status.ok()) status = connection.Execute("COMMIT");
  if (!status.ok()) {
    if (connection.healthy()) (void)connection.Execute("ROLLBACK");
    return status;
  }
  cipher_ = std::move(next);
  return Status::OK();
}

Status PostgresCheckpointer::Rekey(
    const PostgresOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  if (options.url.empty()) {
    return Status::InvalidArgument("options.url is empty");
  }
  if (options.read_only) {
    return Status::InvalidArgument(
        "Rekey rewrites every row: options.read_only must be false");
  }
  PostgresOptions single = options;
  single.pool_size = 1;
  PostgresCheckpointer backend(std::move(single));
  RP_RETURN_IF_ERROR(backend.Initialize());
  Status status = backend.RewriteUnderKey(new_encryption);
  Status closed = backend.Close();
  return status.ok() ? closed : status;
}

}  // namespace rockpoint
