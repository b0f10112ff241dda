// copy_thread: one BEGIN IMMEDIATE transaction. A plaintext store copies the
// rows in SQL (INSERT ... SELECT); an encrypted one re-seals every record
// under its name in the target thread (sqlite_records.h), row by row: the
// source rows are read by one statement while the target rows are inserted
// (SQLite allows inserting into a table a running SELECT reads; the new
// rows never match the SELECT: their thread is the target, never the
// source).
#include <optional>
#include <string>

#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

// ?1 source, ?2 target. Target writes of a checkpoint id the source has
// writes for give way to the source's, as a whole.
constexpr const char* kDeleteReplacedWrites =
    "DELETE FROM checkpoint_writes WHERE thread_id = ?2 AND "
    "(checkpoint_ns, checkpoint_id) IN (SELECT checkpoint_ns, "
    "checkpoint_id FROM checkpoint_writes WHERE thread_id = ?1)";

// A plaintext store's copy: ?1 source, ?2 target.
constexpr const char* kCopyPlain[] = {
    "INSERT INTO checkpoints (thread_id, checkpoint_ns, "
    "checkpoint_id, parent_checkpoint_id, hidden, run_id, ts, "
    "checkpoint, metadata) SELECT ?2, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, hidden, run_id, ts, checkpoint, metadata "
    "FROM checkpoints WHERE thread_id = ?1",
    "INSERT OR REPLACE INTO checkpoint_blobs (thread_id, checkpoint_ns, "
    "channel, version, type, blob) SELECT ?2, checkpoint_ns, channel, "
    "version, type, blob FROM checkpoint_blobs WHERE thread_id = ?1",
    kDeleteReplacedWrites,
    "INSERT INTO checkpoint_writes (thread_id, "
    "checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, "
    "task_path) SELECT ?2, checkpoint_ns, checkpoint_id, task_id, idx, "
    "channel, type, value, task_path FROM checkpoint_writes "
    "WHERE thread_id = ?1"};

void BindNullable(Statement& statement, int index, const Statement& from,
                  int column) {
  if (from.IsNull(column)) {
    statement.BindNull(index);
  } else {
    statement.BindBytes(index, from.ColumnView(column));
  }
}

Status CopySealedCheckpoints(Database* db, const RecordCipher& cipher,
                             std::string_view source, std::string_view target) {
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT checkpoint_ns, checkpoint_id, "
                  "parent_checkpoint_id, hidden, run_id, ts, checkpoint, "
                  "metadata FROM checkpoints WHERE thread_id = ?1"));
  select.BindBytes(1, source);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const std::string ns = select.ColumnString(0);
    const std::string id = select.ColumnString(1);
    RP_ASSIGN_OR_RETURN(
        const std::string sealed,
        sqlite_records::ResealCheckpoint(
            cipher, {source, ns, id}, {target, ns, id}, select.ColumnView(6)));
    RP_ASSIGN_OR_RETURN(
        Statement insert,
        db->Prepare("INSERT INTO checkpoints (thread_id, checkpoint_ns, "
                    "checkpoint_id, parent_checkpoint_id, hidden, run_id, "
                    "ts, checkpoint, metadata) VALUES (?1, ?2, ?3, ?4, ?5, "
                    "?6, ?7, ?8, ?9)"));
    insert.BindBytes(1, target);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, id);
    BindNullable(insert, 4, select, 2);
    insert.BindInt(5, select.ColumnInt(3));
    BindNullable(insert, 6, select, 4);
    insert.BindBytes(7, select.ColumnView(5));
    insert.BindBytes(8, sealed);
    insert.BindBytes(9, select.ColumnView(7));
    RP_RETURN_IF_ERROR(insert.Run());
  }
  return Status::OK();
}

Status CopySealedBlobs(Database* db, const RecordCipher& cipher,
                       std::string_view source, std::string_view target) {
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT checkpoint_ns, channel, version, type, blob "
                  "FROM checkpoint_blobs WHERE thread_id = ?1"));
  select.BindBytes(1, source);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const std::string ns = select.ColumnString(0);
    const std::string channel = select.ColumnString(1);
    RP_ASSIGN_OR_RETURN(const ChannelVersion version, select.ColumnVersion(2));
    RP_ASSIGN_OR_RETURN(
        const std::string sealed,
        sqlite_records::ResealBlob(cipher, {source, ns, channel, version},
                                   {target, ns, channel, version},
                                   select.ColumnView(4)));
    RP_ASSIGN_OR_RETURN(
        Statement insert,
        db->Prepare("INSERT OR REPLACE INTO checkpoint_blobs (thread_id, "
                    "checkpoint_ns, channel, version, type, blob) VALUES "
                    "(?1, ?2, ?3, ?4, ?5, ?6)"));
    insert.BindBytes(1, target);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, channel);
    insert.BindVersion(4, version);
    BindNullable(insert, 5, select, 3);
    insert.BindBytes(6, sealed);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  return Status::OK();
}

Status CopySealedWrites(Database* db, const RecordCipher& cipher,
                        std::string_view source, std::string_view target) {
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT checkpoint_ns, checkpoint_id, task_path, task_id, "
                  "idx, channel, type, value FROM checkpoint_writes "
                  "WHERE thread_id = ?1"));
  select.BindBytes(1, source);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const std::string ns = select.ColumnString(0);
    const std::string id = select.ColumnString(1);
    const std::string task_path = select.ColumnString(2);
    const std::string task_id = select.ColumnString(3);
    const int64_t idx = select.ColumnInt(4);
    RP_ASSIGN_OR_RETURN(
        const std::string sealed,
        sqlite_records::ResealWrite(
            cipher, {source, ns, id, task_path, task_id, idx},
            {target, ns, id, task_path, task_id, idx}, select.ColumnView(7)));
    RP_ASSIGN_OR_RETURN(
        Statement insert,
        db->Prepare("INSERT INTO checkpoint_writes (thread_id, "
                    "checkpoint_ns, checkpoint_id, task_id, idx, channel, "
                    "type, value, task_path) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                    "?7, ?8, ?9)"));
    insert.BindBytes(1, target);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, id);
    insert.BindBytes(4, task_id);
    insert.BindInt(5, idx);
    insert.BindBytes(6, select.ColumnView(5));
    insert.BindBytes(7, select.ColumnView(6));
    insert.BindBytes(8, sealed);
    insert.BindBytes(9, task_path);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  return Status::OK();
}

}  // namespace

Status SqliteCheckpointer::DoCopyThread(std::string_view source,
                                        std::string_view target) {
  base::MutexLock lock(&mu_);
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  RP_RETURN_IF_ERROR(CheckEncryptionUnchanged());
  RP_ASSIGN_OR_RETURN(const bool target_has_checkpoints,
                      HasCheckpoints(target));
  if (target_has_checkpoints) return CopyTargetNotEmpty(target);
  // A thread without checkpoints copied onto itself: nothing changes (the
  // source stays as it was; the loops below assume distinct threads).
  if (source == target) return Status::OK();
  // The target holds no checkpoint; what else it may hold gives way to the
  // source's: values under a copied key are replaced, and so are the writes
  // of every checkpoint id the source has writes for, as a whole.
  if (cipher() == nullptr) {
    for (const char* sql : kCopyPlain) {
      RP_ASSIGN_OR_RETURN(Statement copy, db()->Prepare(sql));
      copy.BindBytes(1, source);
      copy.BindBytes(2, target);
      RP_RETURN_IF_ERROR(copy.Run());
    }
    return txn.Commit();
  }
  RP_RETURN_IF_ERROR(CopySealedCheckpoints(db(), *cipher(), source, target));
  RP_RETURN_IF_ERROR(CopySealedBlobs(db(), *cipher(), source, target));
  {
    RP_ASSIGN_OR_RETURN(Statement remove, db()->Prepare(kDeleteReplacedWrites));
    remove.BindBytes(1, source);
    remove.BindBytes(2, target);
    RP_RETURN_IF_ERROR(remove.Run());
  }
  RP_RETURN_IF_ERROR(CopySealedWrites(db(), *cipher(), source, target));
  return txn.Commit();
}

}  // namespace rockpoint
