// PostgresCheckpointer against bad URLs, unreachable servers, foreign or
// newer schemas, read-only opens of LangGraph-only databases, and sessions
// the server ends: each a clear error, nothing half-written, and the
// checkpointer usable again once the server is back.
#include <doctest/doctest.h>
#include <libpq-fe.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "engine/contract_helpers.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_raw_db.h"
#include "engine/postgres/postgres_test_server.h"

namespace rockpoint::testing {
namespace {

// Runs `sql` on `url`; returns the first value of its first row ("" if none).
std::string Query(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  PGresult* result = PQexec(conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(result);
  std::string message = PQresultErrorMessage(result);
  std::string value;
  if (status == PGRES_TUPLES_OK && PQntuples(result) > 0) {
    value = PQgetvalue(result, 0, 0);
  }
  PQclear(result);
  PQfinish(conn);
  const std::string failure = sql + ": " + message;
  REQUIRE_MESSAGE((status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK),
                  failure);
  return value;
}

Result<std::unique_ptr<PostgresCheckpointer>> OpenAt(const std::string& url,
                                                     bool read_only = false) {
  PostgresOptions options;
  options.url = url;
  options.pool_size = 1;
  options.read_only = read_only;
  return PostgresCheckpointer::Open(options);
}

TEST_CASE("postgres: a bad URL or an unreachable server is a clear error") {
  Result<std::unique_ptr<PostgresCheckpointer>> malformed =
      OpenAt("postgresql://%zz");
  CHECK(malformed.status().IsInvalidArgument());
  CHECK(malformed.status().message().find("connection string") !=
        std::string::npos);
  Result<std::unique_ptr<PostgresCheckpointer>> refused =
      OpenAt("postgresql:///db?host=/nonexistent-socket-dir");
  CHECK(refused.status().IsIOError());
  CHECK(refused.status().message().find("cannot connect to PostgreSQL") !=
        std::string::npos);
  CHECK(OpenAt("").status().IsInvalidArgument());
}

TEST_CASE(
    "postgres: a foreign table of LangGraph's name is refused, unchanged") {
  Database db("foreign");
  Query(db.url(), "CREATE TABLE checkpoints (id integer PRIMARY KEY)");
  Result<std::unique_ptr<PostgresCheckpointer>> opened = OpenAt(db.url());
  CHECK(opened.status().IsCorruption());
  CHECK(opened.status().message().find(
            "table checkpoints is not LangGraph's PostgresSaver table") !=
        std::string::npos);
  CHECK(Query(db.url(),
              "SELECT count(*) FROM information_schema.columns WHERE "
              "table_name = 'checkpoints'") == "1");
  CHECK(Query(db.url(),
              "SELECT count(*) FROM pg_tables WHERE tablename LIKE "
              "'rockpoint%'") == "0");
}

TEST_CASE("postgres: a schema of a newer rockpoint is refused") {
  Database db("newer");
  RP_REQUIRE_OK(OpenAt(db.url()).status());
  Query(db.url(), "INSERT INTO rockpoint_migrations (v) VALUES (99)");
  Result<std::unique_ptr<PostgresCheckpointer>> opened = OpenAt(db.url());
  CHECK(opened.status().IsInvalidArgument());
  CHECK(opened.status().message().find("newer than the supported") !=
        std::string::npos);
}

TEST_CASE("postgres: read-only opens create nothing and refuse writes") {
  Database db("readonly");
  CHECK(OpenAt(db.url(), /*read_only=*/true).status().IsInvalidArgument());
  // LangGraph's tables alone, as its saver leaves a database.
  Query(db.url(),
        "CREATE TABLE checkpoints (thread_id TEXT NOT NULL, checkpoint_ns "
        "TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
        "parent_checkpoint_id TEXT, type TEXT, checkpoint JSONB NOT NULL, "
        "metadata JSONB NOT NULL DEFAULT '{}', PRIMARY KEY (thread_id, "
        "checkpoint_ns, checkpoint_id)); CREATE TABLE checkpoint_blobs "
        "(thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', "
        "channel TEXT NOT NULL, version TEXT NOT NULL, type TEXT NOT NULL, "
        "blob BYTEA, PRIMARY KEY (thread_id, checkpoint_ns, channel, "
        "version)); CREATE TABLE checkpoint_writes (thread_id TEXT NOT NULL, "
        "checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
        "task_id TEXT NOT NULL, idx INTEGER NOT NULL, channel TEXT NOT NULL, "
        "type TEXT, blob BYTEA NOT NULL, task_path TEXT NOT NULL DEFAULT '', "
        "PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, "
        "idx)); INSERT INTO checkpoints VALUES ('t', '', 'c1', NULL, NULL, "
        "'{\"v\": 4, \"id\": \"c1\", \"ts\": \"x\", \"channel_values\": "
        "{\"s\": \"text\"}, \"channel_versions\": {\"s\": 1}, "
        "\"versions_seen\": {}}', '{\"step\": 1}')");
  std::unique_ptr<PostgresCheckpointer> store =
      Unwrap(OpenAt(db.url(), /*read_only=*/true));
  CheckpointTuple tuple = MustGet(*store, Cfg("t"));
  CHECK(tuple.metadata == Meta({{"step", Value(1)}}));
  // LangGraph's inline "text" comes back as its msgpack encoding.
  CHECK(tuple.checkpoint.channel_values.at("s") ==
        TypedValue{"msgpack", "\xa4text"});
  Status refused =
      store->Put(Cfg("t", CpId(1)), MakeCheckpoint(CpId(2)), Meta(), {})
          .status();
  CHECK(refused.IsInvalidArgument());
  CHECK(refused.message().find("read-only") != std::string::npos);
  CHECK(Query(db.url(),
              "SELECT count(*) FROM pg_tables WHERE tablename LIKE "
              "'rockpoint%'") == "0");
}

TEST_CASE("postgres: a session the server ends fails one call, then recovers") {
  Database db("terminated");
  std::unique_ptr<PostgresCheckpointer> store = Unwrap(OpenAt(db.url()));
  DoPut(*store, {.thread = "t", .id = CpId(1)});
  const std::string terminate =
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
      "datname = current_database() AND application_name = 'rockpoint'";
  CHECK(Query(db.url(), terminate) == "1");
  Result<CheckpointConfig> lost =
      store->Put(Cfg("t", CpId(1)), MakeCheckpoint(CpId(2)), Meta(), {});
  CHECK(lost.status().IsIOError());
  CHECK(lost.status().message().find("connection lost") != std::string::npos);
  CHECK(Query(db.url(), "SELECT count(*) FROM checkpoints") == "1");
  // The next call reconnects.
  DoPut(*store, {.thread = "t", .id = CpId(3), .parent = CpId(1)});
  CHECK(Ids(Collect(*store, ListOf(Cfg("t")))) == "cp0003 cp0001");
  RP_REQUIRE_OK(store->Close());
}

TEST_CASE("postgres: a put the server ends mid-call writes nothing") {
  Database db("midput");
  std::unique_ptr<PostgresCheckpointer> store = Unwrap(OpenAt(db.url()));
  DoPut(*store, {.thread = "t", .id = CpId(1)});
  // Another session holds the thread's advisory lock exclusively, as a
  // prune would, so the put stops inside its transaction on the server.
  PGconn* holder = PQconnectdb(db.url().c_str());
  PQclear(PQexec(holder, "SELECT pg_advisory_lock(7262898, hashtext('t'))"));
  Result<CheckpointConfig> put = Status::OK();
  std::thread writer([&] {
    Checkpoint checkpoint =
        MakeCheckpoint(CpId(2), {{"c", Val("v")}}, {{"c", int64_t{1}}});
    put = store->Put(Cfg("t", CpId(1)), checkpoint, Meta(),
                     checkpoint.channel_versions);
  });
  const std::string waiting =
      "SELECT count(*) FROM pg_stat_activity WHERE datname = "
      "current_database() AND application_name = 'rockpoint' AND "
      "wait_event_type = 'Lock'";
  for (int i = 0; i < 500 && Query(db.url(), waiting) != "1"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(Query(db.url(), waiting) == "1");
  Query(db.url(),
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
        "datname = current_database() AND application_name = 'rockpoint'");
  writer.join();
  PQfinish(holder);
  CHECK(put.status().IsIOError());
  CHECK(Query(db.url(), "SELECT count(*) FROM checkpoints") == "1");
  CHECK(Query(db.url(), "SELECT count(*) FROM checkpoint_blobs") == "0");
  DoPut(*store, {.thread = "t", .id = CpId(2), .parent = CpId(1)});
  CHECK(Ids(Collect(*store, ListOf(Cfg("t")))) == "cp0002 cp0001");
}

TEST_CASE("postgres: a server restart fails the calls meanwhile, then heals") {
  // A server of this case's own, so that restarting it disturbs no other
  // test.
  TempDir dir;
  // The server runs as another user (tools/pg_server.sh), who must reach it.
  std::filesystem::permissions(
      dir.path(),
      std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
      std::filesystem::perm_options::add);
  const std::string script =
      std::string(ROCKPOINT_SOURCE_DIR) + "/tools/pg_server.sh";
  const std::string start = script + " start " + dir.Sub("pg") + " 2>&1";
  FILE* pipe = ::popen(start.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string url;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) url = line;
  REQUIRE(::pclose(pipe) == 0);
  while (!url.empty() && url.back() == '\n') url.pop_back();
  std::unique_ptr<PostgresCheckpointer> store = Unwrap(OpenAt(url));
  DoPut(*store, {.thread = "t", .id = CpId(1)});

  REQUIRE(std::system((script + " stop " + dir.Sub("pg") + " >/dev/null 2>&1")
                          .c_str()) == 0);
  CHECK(store->GetTuple(Cfg("t")).status().IsIOError());
  CHECK(store->Put(Cfg("t", CpId(1)), MakeCheckpoint(CpId(2)), Meta(), {})
            .status()
            .IsIOError());
  REQUIRE(std::system((script + " start " + dir.Sub("pg") + " >/dev/null 2>&1")
                          .c_str()) == 0);
  DoPut(*store, {.thread = "t", .id = CpId(3), .parent = CpId(1)});
  CHECK(Ids(Collect(*store, ListOf(Cfg("t")))) == "cp0003 cp0001");
  RP_REQUIRE_OK(store->Close());
  store.reset();
  CHECK(std::system(
            (script + " stop " + dir.Sub("pg") + " >/dev/null 2>&1").c_str()) ==
        0);
}

}  // namespace
}  // namespace rockpoint::testing
