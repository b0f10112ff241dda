// Private to engine/sqlite: what the backend's source files share beyond the
// class itself (sqlite_checkpointer.h): the schema version, the row type, the
// stored encryption and the list cursor.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/record_cipher.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "engine/sqlite/sqlite_db.h"
#include "engine/sqlite/sqlite_queries.h"
#include "engine/sqlite/sqlite_records.h"
#include "serde/records.h"

namespace rockpoint {

// Schema version kept in PRAGMA user_version. Persisted: bump on any change
// of the tables (sqlite_schema.cpp), never reuse. 1: the three tables; 2:
// and rockpoint_meta (a version 1 database is upgraded by a read-write open
// and read as a plaintext store by a read-only one).
inline constexpr int64_t kSqliteSchemaVersion = 2;

// One row of `checkpoints` as the readers select it.
struct SqliteCheckpointRow {
  std::string thread_id;
  std::string checkpoint_ns;
  std::string checkpoint_id;
  std::optional<std::string> parent_id;
  std::string record;    // the checkpoint column (sqlite_records.h).
  std::string metadata;  // the metadata column (sqlite_records.h).
  bool hidden = false;
  // In an encrypted store, `record` opened and decoded by DecodeRowMetadata
  // (its metadata moved out), for BuildTuple.
  std::optional<serde::CheckpointRecord> decoded;

  sqlite_records::CheckpointKey key() const {
    return {thread_id, checkpoint_ns, checkpoint_id};
  }
};

// Reads a row selected as sqlite_queries::kCheckpointColumns.
SqliteCheckpointRow ReadCheckpointRow(const sqlite_internal::Statement& stmt);

// "checkpoints row (thread_id=..., checkpoint_ns=..., checkpoint_id=...)",
// for Corruption messages.
std::string CheckpointRowName(std::string_view thread_id,
                              std::string_view checkpoint_ns,
                              std::string_view checkpoint_id);

// What rockpoint_meta holds about the store's encryption (sqlite_schema.cpp):
// empty for a plaintext store, and for a version 1 database (which has no
// rockpoint_meta).
Result<StoredEncryption> ReadStoredEncryption(sqlite_internal::Database* db);
// Replaces it (both empty: a plaintext store). REQUIRES: in a write
// transaction, rockpoint_meta exists.
Status WriteStoredEncryption(sqlite_internal::Database* db,
                             const StoredEncryption& stored);

// The cursor behind DoList (sqlite_list.cpp). It locks store->mu() itself,
// per page.
// REQUIRES: options validated; the cursor is destroyed before `store`.
std::unique_ptr<TupleCursor> MakeSqliteListCursor(SqliteCheckpointer* store,
                                                  ListOptions options);

}  // namespace rockpoint
