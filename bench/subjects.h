// Subjects: opening the stores a measurement compares, in fresh directories
// of the scratch area.
//
//   rockpoint    RocksDbCheckpointer, sync_writes as given.
//   sqlite       SqliteCheckpointer (WAL), sync_writes true -> synchronous
//                FULL, false -> NORMAL.
//   jsonl        JsonlCheckpointer (one JSON-lines journal, held in memory),
//                sync_writes as given (true: fdatasync per call), default
//                auto-compaction.
//   postgres     PostgresCheckpointer on the --postgres-url server, in a
//                fresh database per store set (dropped with it); only when a
//                server is given. sync_writes does not apply: durability is
//                the server's (fsync, synchronous_commit).
//   raw-rocksdb  RawRocksDb (default RocksDB options), WriteOptions.sync as
//                given.
//
// Thread-safety: a Scratch is used by the bench's main thread only.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/postgres_server.h"
#include "bench/raw_rocksdb.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"
#include "rockpoint/status.h"

namespace rockpoint::bench {

// A scratch directory; every store gets a fresh subdirectory, removed when
// the store set is closed (Stores::Close) or, at the latest, with the
// Scratch. With a PostgreSQL server, every store set also gets a fresh
// database on it, dropped when the set is closed.
class Scratch {
 public:
  // Creates `root` (or a fresh temp directory when empty), and connects to
  // the server `postgres_url` names unless it is empty.
  static Result<std::unique_ptr<Scratch>> Create(
      std::string root, const std::string& postgres_url);
  ~Scratch();  // removes the root if it created it.

  // A new, empty directory "<root>/<n>-<name>".
  Result<std::string> NewDirectory(std::string_view name);
  const std::string& root() const { return root_; }
  // The server, null when none was given.
  PostgresServer* postgres() const { return postgres_.get(); }

 private:
  Scratch(std::string root, bool owned)
      : root_(std::move(root)), owned_(owned) {}
  std::string root_;
  bool owned_;
  int counter_ = 0;
  std::unique_ptr<PostgresServer> postgres_;
};

struct Stores {
  std::string directory;
  std::unique_ptr<Checkpointer> rockpoint;  // rocksdb:
  std::unique_ptr<Checkpointer> sqlite;
  std::unique_ptr<Checkpointer> jsonl;
  std::unique_ptr<RawRocksDb> raw;  // only when asked for.
  // Only with a server (and when asked for): the store, a plain session on
  // its database (kPostgresRoundTrip, VACUUM), the database's connection
  // string, and the server that drops it.
  std::unique_ptr<Checkpointer> postgres;
  std::unique_ptr<PostgresSession> postgres_session;
  std::string postgres_database;
  PostgresServer* postgres_server = nullptr;

  // The checkpointer subjects this set holds, in report order: kRockpoint,
  // kSqlite, kJsonl, then kPostgres when open.
  std::vector<const char*> Subjects() const;
  // Checkpointer of `subject` (one of Subjects()).
  Checkpointer& Of(std::string_view subject);
  // After a fill, before reads: compacts rockpoint (and raw RocksDB when
  // open) so reads come from table files, and VACUUM ANALYZEs the postgres
  // database so the planner has the statistics a long-lived database has.
  Status Settle();
  // Closes every store, removes the directory and drops the database.
  void Close();
  ~Stores() { Close(); }
};

// Opens rockpoint, sqlite and jsonl (and raw RocksDB when with_raw, and
// postgres in a fresh database when with_postgres and the scratch has a
// server) in a fresh directory named `name`.
Result<std::unique_ptr<Stores>> OpenStores(Scratch& scratch,
                                           std::string_view name,
                                           bool sync_writes, bool with_raw,
                                           bool with_postgres = true);

// Opens the PostgreSQL store `database_url` with `pool_size` connections,
// creating the schema.
Result<std::unique_ptr<Checkpointer>> OpenPostgres(
    const std::string& database_url, size_t pool_size);

}  // namespace rockpoint::bench
