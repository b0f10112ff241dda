// Rekey: every record re-written under a new key (or to plaintext, or from
// plaintext) in ONE SQLite write transaction (BEGIN IMMEDIATE) that also
// replaces the store's StoredEncryption in rockpoint_meta. Atomic by
// SQLite's own guarantee: until the commit (the WAL frame that marks it)
// is durable, recovery discards every page the transaction wrote, pages
// spilled to the WAL early included; so after a crash at any point the
// store is entirely under the old key, or entirely under the new one.
//
// Each table is read in rowid order, a batch of rows at a time; a batch is
// opened and decoded under the old key (any record that does not is
// Corruption naming it, and the transaction rolls back: nothing changed),
// re-encoded under the new one, and written back by rowid before the next
// batch is read. Memory stays bounded by the batch.
//
// Old bytes: the connection runs with PRAGMA secure_delete, so the space
// the old records held is overwritten, and after the commit the WAL is
// checkpointed into the database file and truncated (best effort: a
// checkpoint blocked by another connection, which Rekey's exclusive-access
// requirement rules out, leaves them in the WAL until the next one).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

constexpr size_t kBatchRows = 256;
constexpr size_t kBatchBytes = size_t{32} << 20;

// The new record columns of one row (nullopt: NULL).
struct Rewrite {
  int64_t rowid = 0;
  std::optional<std::string> first;
  std::optional<std::string> second;
};

// Re-writes every row of a table. `select_sql` selects rowid first, for
// rowid > ?1 in rowid order; `convert` turns its current row into the new
// columns; `update_sql` sets them: ?1 rowid, ?2 first, ?3 second.
template <typename Convert>
Status RewriteTable(Database* db, const char* select_sql,
                    const char* update_sql, const Convert& convert) {
  int64_t last = std::numeric_limits<int64_t>::min();
  while (true) {
    std::vector<Rewrite> batch;
    size_t bytes = 0;
    {
      RP_ASSIGN_OR_RETURN(Statement select, db->Prepare(select_sql));
      select.BindInt(1, last);
      while (batch.size() < kBatchRows && bytes < kBatchBytes) {
        RP_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row) break;
        RP_ASSIGN_OR_RETURN(Rewrite rewrite, convert(select));
        rewrite.rowid = select.ColumnInt(0);
        bytes += rewrite.first.value_or("").size() +
                 rewrite.second.value_or("").size();
        batch.push_back(std::move(rewrite));
      }
    }  // the select is reset before the updates.
    if (batch.empty()) return Status::OK();
    for (const Rewrite& rewrite : batch) {
      RP_ASSIGN_OR_RETURN(Statement update, db->Prepare(update_sql));
      update.BindInt(1, rewrite.rowid);
      for (const auto& [index, column] :
           {std::pair<int, const std::optional<std::string>*>{2,
                                                              &rewrite.first},
            {3, &rewrite.second}}) {
        if (*column) {
          update.BindBytes(index, **column);
        } else {
          update.BindNull(index);
        }
      }
      RP_RETURN_IF_ERROR(update.Run());
    }
    last = batch.back().rowid;
  }
}

std::optional<std::string> ParentOf(const Statement& row, int column) {
  if (row.IsNull(column)) return std::nullopt;
  return row.ColumnString(column);
}

Status RekeyCheckpoints(Database* db, const RecordCipher* from,
                        const RecordCipher* to) {
  return RewriteTable(
      db,
      "SELECT rowid, thread_id, checkpoint_ns, checkpoint_id, "
      "parent_checkpoint_id, checkpoint, metadata FROM checkpoints "
      "WHERE rowid > ?1 ORDER BY rowid",
      "UPDATE checkpoints SET checkpoint = ?2, metadata = ?3 WHERE rowid = ?1",
      [&](const Statement& row) -> Result<Rewrite> {
        const sqlite_records::CheckpointKey key{
            row.ColumnView(1), row.ColumnView(2), row.ColumnView(3)};
        RP_ASSIGN_OR_RETURN(sqlite_records::DecodedCheckpoint decoded,
                            sqlite_records::DecodeCheckpoint(
                                from, key, ParentOf(row, 4), row.ColumnView(5),
                                row.ColumnView(6)));
        RP_ASSIGN_OR_RETURN(
            sqlite_records::CheckpointColumns columns,
            sqlite_records::EncodeCheckpoint(to, key, std::move(decoded.record),
                                             decoded.metadata));
        return Rewrite{0, std::move(columns.checkpoint),
                       std::move(columns.metadata)};
      });
}

Status RekeyBlobs(Database* db, const RecordCipher* from,
                  const RecordCipher* to) {
  return RewriteTable(
      db,
      "SELECT rowid, thread_id, checkpoint_ns, channel, version, type, blob "
      "FROM checkpoint_blobs WHERE rowid > ?1 ORDER BY rowid",
      "UPDATE checkpoint_blobs SET type = ?2, blob = ?3 WHERE rowid = ?1",
      [&](const Statement& row) -> Result<Rewrite> {
        RP_ASSIGN_OR_RETURN(const ChannelVersion version, row.ColumnVersion(4));
        const sqlite_records::BlobKey key{row.ColumnView(1), row.ColumnView(2),
                                          row.ColumnView(3), version};
        RP_ASSIGN_OR_RETURN(
            const std::optional<TypedValue> value,
            sqlite_records::DecodeBlob(from, key, row.ColumnViewOrNull(5),
                                       row.ColumnViewOrNull(6)));
        RP_ASSIGN_OR_RETURN(
            sqlite_records::BlobColumns columns,
            sqlite_records::EncodeBlob(to, key, value ? &*value : nullptr));
        return Rewrite{0, std::move(columns.type), std::move(columns.blob)};
      });
}

Status RekeyWrites(Database* db, const RecordCipher* from,
                   const RecordCipher* to) {
  return RewriteTable(
      db,
      "SELECT rowid, thread_id, checkpoint_ns, checkpoint_id, task_path, "
      "task_id, idx, channel, type, value FROM checkpoint_writes "
      "WHERE rowid > ?1 ORDER BY rowid",
      "UPDATE checkpoint_writes SET type = ?2, value = ?3 WHERE rowid = ?1",
      [&](const Statement& row) -> Result<Rewrite> {
        const sqlite_records::WriteKey key{row.ColumnView(1), row.ColumnView(2),
                                           row.ColumnView(3), row.ColumnView(4),
                                           row.ColumnView(5), row.ColumnInt(6)};
        RP_ASSIGN_OR_RETURN(
            const TypedValue value,
            sqlite_records::DecodeWrite(from, key, row.ColumnView(7),
                                        row.ColumnView(8), row.ColumnView(9)));
        RP_ASSIGN_OR_RETURN(
            sqlite_records::WriteColumns columns,
            sqlite_records::EncodeWrite(to, key, row.ColumnView(7), value));
        return Rewrite{0, std::move(columns.type), std::move(columns.value)};
      });
}

}  // namespace

Status SqliteCheckpointer::RewriteUnderKey(
    const std::optional<EncryptionOptions>& new_encryption) {
  // The new cipher and what the store keeps for it, as for a new store: a
  // new store id and key check (nothing for a plaintext store).
  StoredEncryption next_stored;
  RP_ASSIGN_OR_RETURN(
      std::unique_ptr<RecordCipher> next,
      OpenStoreCipher(new_encryption, StoredEncryption{},
                      /*store_has_records=*/false, &next_stored));
  RP_RETURN_IF_ERROR(db()->Exec("PRAGMA secure_delete=ON"));
  {
    RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
    RP_RETURN_IF_ERROR(CheckEncryptionUnchanged());
    RP_RETURN_IF_ERROR(RekeyCheckpoints(db(), cipher(), next.get()));
    RP_RETURN_IF_ERROR(RekeyBlobs(db(), cipher(), next.get()));
    RP_RETURN_IF_ERROR(RekeyWrites(db(), cipher(), next.get()));
    RP_RETURN_IF_ERROR(WriteStoredEncryption(db(), next_stored));
    RP_RETURN_IF_ERROR(txn.Commit());
  }
  cipher_ = std::move(next);
  store_id_ = next_stored.store_id;
  // Best effort (see above): the rekey is committed whatever this returns.
  Result<int64_t> blocked = db()->QueryInt("PRAGMA wal_checkpoint(TRUNCATE)");
  (void)blocked;
  return Status::OK();
}

}  // namespace rockpoint
