// Private to engine/postgres: PostgresCheckpointer, the connection
// pool and the helpers the operation files share.
//
// Split by concern: pg_connection.cpp (libpq), pg_codec.cpp (JSON and
// version mapping), pg_schema.cpp (open, migrations, schema checks),
// pg_put.cpp (put, put_writes), pg_read.cpp (get_tuple, rows into tuples),
// pg_list.cpp (list cursor, list_threads), pg_retention.cpp (delete_thread,
// delete_for_runs, prune), pg_copy_hide.cpp (copy_thread, hide),
// pg_delta.cpp (get_delta_channel_history), pg_sealed.cpp (an encrypted
// store's rows), pg_encryption.cpp (its stored encryption), pg_rekey.cpp
// (Rekey), pg_copy_sealed.cpp (copy_thread of an encrypted store).
//
// SQL text may name rockpoint's side table as {rp}: Stmt() replaces it with
// rockpoint_checkpoints, or, on a read-only open of a database that has
// none, with an empty derived table of the same columns.
//
// Thread-safety: PostgresCheckpointer is safe to use from many threads; a Lease
// (one connection) is used by one thread at a time.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/postgres/pg_codec.h"
#include "engine/postgres/pg_connection.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/record_cipher.h"
#include "serde/records.h"

namespace rockpoint {

// rockpoint's schema version in rockpoint_migrations. Persisted: bump on
// any change of rockpoint's objects, never reuse. Version 1: the side table
// and the indexes (every database rockpoint opens for writing). Version 2:
// rockpoint_encryption, created with the first encrypted store's stored
// encryption (pg_encryption.cpp), so that a rockpoint without encryption
// refuses an encrypted database while plaintext ones stay at version 1.
inline constexpr int64_t kPostgresSchemaVersion = 2;
// The LangGraph PostgresSaver migrations rockpoint applies (its list, in its
// order: versions 0..kLangGraphMigrations-1).
inline constexpr int64_t kLangGraphMigrations = 10;

// One checkpoints row with its rockpoint_checkpoints columns, as the
// readers select it (postgres_impl columns kCheckpointColumns).
struct PgCheckpointRow {
  std::string thread_id;
  std::string checkpoint_ns;
  std::string checkpoint_id;
  std::optional<std::string> parent_id;
  std::string checkpoint_json;
  std::string metadata_json;
  // rockpoint's side row; null for a checkpoint LangGraph's saver wrote.
  std::optional<std::string> stored_channels_json;
  std::optional<std::string> pending_sends_json;
  bool hidden = false;
};

// The columns of a checkpoint with its side row, over checkpoints `c` LEFT
// JOIN {rp} `r` (kCheckpointFrom), as the CTE `cp` of TupleQueries selects
// them.
inline constexpr const char* kCteColumns =
    "c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, "
    "c.checkpoint, c.metadata, r.stored_channels, r.pending_sends, "
    "coalesce(r.hidden, false) AS hidden";
// The side row is a LATERAL lookup by primary key (OFFSET 0 keeps it one):
// as a plain join, a generic plan reads every side row of the thread.
inline constexpr const char* kCheckpointFrom =
    "checkpoints c LEFT JOIN LATERAL (SELECT * FROM {rp} r0 "
    "WHERE r0.thread_id = c.thread_id AND r0.checkpoint_ns = "
    "c.checkpoint_ns AND r0.checkpoint_id = c.checkpoint_id OFFSET 0) r "
    "ON true";
// The same columns read from `cp`, the order ReadCheckpointRow expects.
inline constexpr const char* kCheckpointColumns =
    "cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, "
    "cp.parent_checkpoint_id, cp.checkpoint::text, cp.metadata::text, "
    "cp.stored_channels::text, cp.pending_sends::text, cp.hidden";

// The three statements that read whole tuples, given `cte`, a SELECT of
// kCteColumns FROM kCheckpointFrom (with its WHERE, ORDER BY, LIMIT):
// [0] the checkpoint rows (kCheckpointColumns, in `order_by`), [1] their
// values, [2] their writes, as BuildTuples reads them. Run inside one
// REPEATABLE READ transaction so that all three see the same rows.
std::vector<std::string> TupleQueries(std::string_view cte,
                                      std::string_view order_by);

// The first statement of a read's pipeline: its statements see one
// snapshot.
inline constexpr const char* kBeginRead =
    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

// `text` with every `from` replaced by `to` (SQL templates).
std::string ReplaceAll(std::string text, std::string_view from,
                       std::string_view to);

// "checkpoints row (thread_id=..., ...)", for Corruption messages.
std::string RowName(std::string_view thread_id, std::string_view checkpoint_ns,
                    std::string_view checkpoint_id);
std::string RowName(const PgCheckpointRow& row);

// Reads row `row` of `rows`, whose first nine columns are
// kCheckpointColumns.
PgCheckpointRow ReadCheckpointRow(const pg::Rows& rows, int row);

// What a checkpoint row says about its own values, for delta walks and
// retention: channel_versions, parent, and the channels its put stored.
// For a row LangGraph wrote (no side row) every channel of
// channel_versions counts as stored, as LangGraph's own delta walk and
// prune read it, with inline values closing a walk by themselves.
struct PgHeader {
  serde::CheckpointHeader header;
  std::string ts;                         // the checkpoint's ts, for retention.
  std::set<std::string> inline_channels;  // LangGraph's inlined values.
  // Channels LangGraph inlined as JSON null (a None value). LangGraph's
  // delta walk does not take them as seeds, so neither does rockpoint's;
  // but a checkpoint reads them as values, so retention needs nothing older
  // for them.
  std::set<std::string> inline_null_channels;
};
Result<PgHeader> DecodeHeader(const PgCheckpointRow& row);

// The statements that make `stored` the database's stored encryption
// (pg_encryption.cpp): rockpoint_encryption (schema version 2) created when
// missing, its row replaced; for a plaintext store (`stored` empty), its row
// deleted. Run inside a transaction.
std::vector<pg::Query> ReplaceStoredEncryption(const StoredEncryption& stored);
// The transaction-scoped form of the advisory lock opens hold while they
// migrate: stored encryptions and Rekey are decided under it.
pg::Query LockSchemaForTransaction();

// Runs `select` (with `params`) as the cursor `cursor` in the transaction
// open on `connection`, a page of rows at a time: `rewrite` turns each page
// into the statements run before the next page is fetched (pg_rekey.cpp).
Status RewritePages(
    pg::Connection& connection, std::string_view cursor,
    std::string_view select, const pg::Params& params,
    const std::function<Result<std::vector<pg::Query>>(const pg::Rows&)>&
        rewrite);

// The cursor behind DoList (pg_list.cpp). REQUIRES: options validated; the
// cursor is destroyed before `backend`.
std::unique_ptr<TupleCursor> MakePostgresListCursor(
    PostgresCheckpointer* backend, ListOptions options);

}  // namespace rockpoint
