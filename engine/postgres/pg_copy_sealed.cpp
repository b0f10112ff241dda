// copy_thread of an encrypted store: the rows pg_copy_hide.cpp's kCopyThread
// copies, with the same effect on the target, but each record opened under
// its source name and sealed under its target name (a sealed record copied
// as it is would not open there). Runs inside CopyThread's transaction,
// under its locks, once the target is known to hold no checkpoint; a page
// of source rows at a time.
#include <string>
#include <vector>

#include "engine/postgres/pg_sealed.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/record_names.h"

namespace rockpoint {
namespace {

// The source's checkpoints ($1) with their side rows.
constexpr const char* kSourceCheckpoints =
    "SELECT c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, "
    "c.type, c.checkpoint::text, c.metadata::text, r.pending_sends::text, "
    "r.thread_id IS NOT NULL, coalesce(r.hidden, false), "
    "r.stored_channels::text FROM checkpoints c LEFT JOIN {rp} r "
    "ON r.thread_id = c.thread_id AND r.checkpoint_ns = c.checkpoint_ns "
    "AND r.checkpoint_id = c.checkpoint_id WHERE c.thread_id = $1";
constexpr const char* kInsertCheckpoint =
    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, type, checkpoint, metadata) "
    "VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)";
constexpr const char* kInsertSideRow =
    "INSERT INTO {rp} (thread_id, checkpoint_ns, checkpoint_id, hidden, "
    "stored_channels, pending_sends) "
    "VALUES ($1, $2, $3, $4::boolean, $5::jsonb, NULL)";

// The source's values ($1); a value under a copied key replaces the
// target's.
constexpr const char* kSourceValues =
    "SELECT checkpoint_ns, channel, version, type, blob FROM checkpoint_blobs "
    "WHERE thread_id = $1";
constexpr const char* kUpsertValue =
    "INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, "
    "version, type, blob) VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (thread_id, checkpoint_ns, channel, version) "
    "DO UPDATE SET type = EXCLUDED.type, blob = EXCLUDED.blob";

// The writes of every checkpoint id the source ($1) has writes for are
// replaced in the target ($2) as a whole.
constexpr const char* kDeleteTargetWrites =
    "DELETE FROM checkpoint_writes WHERE thread_id = $2 AND "
    "(checkpoint_ns, checkpoint_id) IN (SELECT checkpoint_ns, checkpoint_id "
    "FROM checkpoint_writes WHERE thread_id = $1)";
constexpr const char* kSourceWrites =
    "SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, "
    "type, blob FROM checkpoint_writes WHERE thread_id = $1";
constexpr const char* kInsertWrite =
    "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, "
    "task_id, task_path, idx, channel, type, blob) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

Status CopyCheckpoints(PostgresCheckpointer& backend,
                       pg::Connection& connection, const std::string& source,
                       const std::string& target) {
  const RecordCipher& cipher = *backend.cipher();
  const pg::Statement& insert = backend.Stmt("rp_copy_cp", kInsertCheckpoint);
  const pg::Statement& side = backend.Stmt("rp_copy_side", kInsertSideRow);
  return RewritePages(
      connection, "rp_copy_checkpoints", backend.Sql(kSourceCheckpoints),
      {pg::Text(source)},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string ns = rows.GetString(i, 0);
          const std::string id = rows.GetString(i, 1);
          RP_ASSIGN_OR_RETURN(
              const pg::CheckpointColumns plain,
              pg::OpenCheckpoint(cipher, source, ns, id,
                                 {rows.GetString(i, 4), rows.GetString(i, 5),
                                  rows.GetOptional(i, 6)}));
          RP_ASSIGN_OR_RETURN(
              const pg::CheckpointColumns sealed,
              pg::SealCheckpoint(cipher, target, ns, id, plain));
          queries.push_back(pg::Query{
              &insert,
              "",
              {pg::Text(target), pg::Text(ns), pg::Text(id),
               pg::OptionalText(rows.GetOptional(i, 2)),
               pg::OptionalText(rows.GetOptional(i, 3)),
               pg::Text(sealed.checkpoint), pg::Text(sealed.metadata)}});
          if (!rows.GetBool(i, 7)) continue;  // no side row.
          queries.push_back(
              pg::Query{&side,
                        "",
                        {pg::Text(target), pg::Text(ns), pg::Text(id),
                         pg::Text(rows.GetBool(i, 8) ? "true" : "false"),
                         pg::OptionalText(rows.GetOptional(i, 9))}});
        }
        return queries;
      });
}

Status CopyValues(PostgresCheckpointer& backend, pg::Connection& connection,
                  const std::string& source, const std::string& target) {
  const RecordCipher& cipher = *backend.cipher();
  const pg::Statement& upsert = backend.Stmt("rp_copy_value", kUpsertValue);
  return RewritePages(
      connection, "rp_copy_values", kSourceValues, {pg::Text(source)},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string ns = rows.GetString(i, 0);
          const std::string channel = rows.GetString(i, 1);
          const std::string key = rows.GetString(i, 2);
          pg::Params params = {pg::Text(target),         pg::Text(ns),
                               pg::Text(channel),        pg::Text(key),
                               pg::Text(rows.Get(i, 3)), pg::Null()};
          if (!rows.IsNull(i, 4)) {  // else the "empty" marker: no record.
            RP_ASSIGN_OR_RETURN(
                const ChannelVersion version,
                pg::VersionFromKey(
                    key, "checkpoint_blobs row of thread \"" + source + "\""));
            RP_ASSIGN_OR_RETURN(
                const TypedValue value,
                pg::OpenValue(cipher,
                              record_names::Blob(source, ns, channel, version),
                              rows.Get(i, 4), "value"));
            RP_ASSIGN_OR_RETURN(
                std::string sealed,
                pg::SealValue(cipher,
                              record_names::Blob(target, ns, channel, version),
                              value));
            params[5] = pg::Bytes(sealed);
          }
          queries.push_back(pg::Query{&upsert, "", std::move(params)});
        }
        return queries;
      });
}

Status CopyWrites(PostgresCheckpointer& backend, pg::Connection& connection,
                  const std::string& source, const std::string& target) {
  const RecordCipher& cipher = *backend.cipher();
  RP_RETURN_IF_ERROR(
      connection
          .RunOne(pg::Query{
              &backend.Stmt("rp_copy_delete_writes", kDeleteTargetWrites),
              "",
              {pg::Text(source), pg::Text(target)}})
          .status());
  const pg::Statement& insert = backend.Stmt("rp_copy_write", kInsertWrite);
  return RewritePages(
      connection, "rp_copy_writes", kSourceWrites, {pg::Text(source)},
      [&](const pg::Rows& rows) -> Result<std::vector<pg::Query>> {
        std::vector<pg::Query> queries;
        for (int i = 0; i < rows.size(); ++i) {
          const std::string ns = rows.GetString(i, 0);
          const std::string id = rows.GetString(i, 1);
          const std::string task_id = rows.GetString(i, 2);
          const std::string task_path = rows.GetString(i, 3);
          const int64_t idx = rows.GetInt(i, 4);
          RP_ASSIGN_OR_RETURN(
              const TypedValue value,
              pg::OpenValue(
                  cipher,
                  record_names::Write(source, ns, id, task_path, task_id, idx),
                  rows.Get(i, 7), "write"));
          RP_ASSIGN_OR_RETURN(
              std::string sealed,
              pg::SealValue(
                  cipher,
                  record_names::Write(target, ns, id, task_path, task_id, idx),
                  value));
          queries.push_back(pg::Query{
              &insert,
              "",
              {pg::Text(target), pg::Text(ns), pg::Text(id), pg::Text(task_id),
               pg::Text(task_path), pg::Int(idx), pg::Text(rows.Get(i, 5)),
               pg::Text(pg::kSealedType), pg::Bytes(sealed)}});
        }
        return queries;
      });
}

}  // namespace

Status PostgresCheckpointer::CopySealedThread(pg::Connection& connection,
                                              std::string_view source,
                                              std::string_view target) {
  const std::string from(source);
  const std::string to(target);
  RP_RETURN_IF_ERROR(CopyCheckpoints(*this, connection, from, to));
  RP_RETURN_IF_ERROR(CopyValues(*this, connection, from, to));
  return CopyWrites(*this, connection, from, to);
}

}  // namespace rockpoint
