// The bench's PostgreSQL server (--postgres-url): a fresh database per store
// set, the server's durability settings for the report header, and a plain
// libpq session for the SELECT 1 round trip the postgres subject's reads are
// reported beside. The one bench file that includes libpq.
//
// Databases are named "rpbench_<hint>_<pid>_<n>" and created from template0
// (never connected to, so never "being accessed by other users"); a bench
// that is killed leaves its databases behind, to be dropped by hand.
//
// Thread-safety: a PostgresServer is used by the bench's main thread only; a
// PostgresSession by one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

struct pg_conn;

namespace rockpoint::bench {

// What the report header says about the server.
struct PostgresSettings {
  std::string version;             // SHOW server_version, e.g. "16.4".
  std::string fsync;               // SHOW fsync: "on" or "off".
  std::string synchronous_commit;  // SHOW synchronous_commit.
  std::string where;               // "host /x/socket port 5432", no password.
};

class PostgresServer {
 public:
  // Connects to `url` (a libpq URL or key/value string; its database is the
  // one CREATE and DROP DATABASE are run from) and reads its settings.
  // IOError when it cannot be reached.
  static Result<std::unique_ptr<PostgresServer>> Connect(
      const std::string& url);
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Creates an empty database named after `hint` ([a-z0-9_] kept, at most
  // 24 bytes) and returns a connection string naming it (the server's URL
  // with its database replaced). The caller drops it with DropDatabase.
  Result<std::string> CreateDatabase(std::string_view hint);
  // DROP DATABASE IF EXISTS ... WITH (FORCE) of a database CreateDatabase
  // made, given its connection string: ends its sessions first.
  Status DropDatabase(const std::string& database_url);

  const PostgresSettings& settings() const { return settings_; }

 private:
  PostgresServer(pg_conn* admin, std::string url)
      : admin_(admin), url_(std::move(url)) {}
  Status ReadSettings();

  pg_conn* admin_;
  std::string url_;
  PostgresSettings settings_;
  unsigned counter_ = 0;
};

// One libpq session on a database, outside any checkpointer.
class PostgresSession {
 public:
  static Result<std::unique_ptr<PostgresSession>> Open(const std::string& url);
  ~PostgresSession();
  PostgresSession(const PostgresSession&) = delete;
  PostgresSession& operator=(const PostgresSession&) = delete;

  // One `SELECT 1` (simple query protocol: one round trip, one row).
  Status RoundTrip();
  // Runs `sql`, a command without rows (e.g. VACUUM ANALYZE).
  Status Execute(const std::string& sql);

 private:
  explicit PostgresSession(pg_conn* conn) : conn_(conn) {}
  pg_conn* conn_;
};

}  // namespace rockpoint::bench
