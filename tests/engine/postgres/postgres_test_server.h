// The PostgreSQL server of the tests, and a fresh database on it per test.
//
// The server's URL comes from the environment: ROCKPOINT_TEST_POSTGRES_URL
// (a server the caller provides), else ROCKPOINT_TEST_POSTGRES_DEFAULT_URL
// (ctest's throwaway server; rockpoint_requires_postgres in
// tests/CMakeLists.txt sets it). With neither, the test fails: a missing
// server is an error, never a skipped test. The URL may also be a libpq
// key/value string ("host=/path dbname=db").
//
// Thread-safety: each function may be called from any thread.
#pragma once

#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace rockpoint::testing {

namespace postgres_detail {

struct ConnDeleter {
  void operator()(PGconn* conn) const { PQfinish(conn); }
};
struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using Conn = std::unique_ptr<PGconn, ConnDeleter>;
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// Fails the running test with `message`; outside a test, aborts with it.
[[noreturn]] inline void Fail(const std::string& message) {
  if (doctest::is_running_in_test) FAIL(message);
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

inline Conn Connect(const std::string& url) {
  Conn conn(PQconnectdb(url.c_str()));
  if (!conn || PQstatus(conn.get()) != CONNECTION_OK) {
    Fail("cannot connect to the PostgreSQL test server at " + url + ": " +
         (conn ? PQerrorMessage(conn.get()) : "out of memory"));
  }
  // No NOTICE lines on stderr (DROP DATABASE IF EXISTS of a missing one).
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  return conn;
}

// Runs `sql`, a command without rows; fails the test on an error.
inline void Exec(PGconn* conn, const std::string& sql) {
  Result result(PQexec(conn, sql.c_str()));
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    Fail(sql + ": " + PQresultErrorMessage(result.get()));
  }
}

// `name` quoted as an SQL identifier.
inline std::string Identifier(PGconn* conn, const std::string& name) {
  char* quoted = PQescapeIdentifier(conn, name.data(), name.size());
  if (quoted == nullptr) Fail(name + ": " + PQerrorMessage(conn));
  std::string out(quoted);
  PQfreemem(quoted);
  return out;
}

// The database `url` names.
inline std::string DatabaseOf(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    std::string message = error ? error : "out of memory";
    PQfreemem(error);
    Fail("not a PostgreSQL URL: " + url + ": " + message);
  }
  std::string name;
  for (PQconninfoOption* option = options; option->keyword; ++option) {
    if (std::string_view(option->keyword) == "dbname" && option->val) {
      name = option->val;
    }
  }
  PQconninfoFree(options);
  return name;
}

// `url` naming the database `name` instead (a name of [a-z0-9_]).
inline std::string WithDatabase(const std::string& url,
                                const std::string& name) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url + " dbname=" + name;
  // postgresql://[user@][host][/dbname][?params]: the path is between the
  // first '/' or '?' after the authority and the '?'.
  const std::size_t query = url.find('?', scheme + 3);
  const std::size_t path = url.find('/', scheme + 3);
  if (query != std::string::npos &&
      url.find("dbname=", query) != std::string::npos) {
    Fail("the PostgreSQL test URL names its database in the query (" + url +
         "); name it in the path instead");
  }
  const std::size_t path_end = query == std::string::npos ? url.size() : query;
  const std::size_t path_begin =
      path != std::string::npos && path < path_end ? path : path_end;
  return url.substr(0, path_begin) + "/" + name + url.substr(path_end);
}

}  // namespace postgres_detail

// The URL of the tests' server, whose database may be used to create others.
inline std::string PostgresTestUrl() {
  for (const char* variable :
       {"ROCKPOINT_TEST_POSTGRES_URL", "ROCKPOINT_TEST_POSTGRES_DEFAULT_URL"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return value;
  }
  postgres_detail::Fail(
      "no PostgreSQL server for the tests: run them through ctest (which "
      "starts one, tools/pg_server.sh) or set ROCKPOINT_TEST_POSTGRES_URL, "
      "e.g. to the URL `tools/pg_server.sh start build/pg-test` prints");
}

// Creates an empty database on the tests' server, named after `name_hint`
// (lowercased, other characters than [a-z0-9_] dropped), this process and a
// counter, and returns its URL: the server's URL with the database replaced.
// The caller drops it with DropDatabase.
inline std::string FreshDatabase(std::string_view name_hint) {
  static std::atomic<unsigned> counter{0};
  std::string hint;
  for (char c : name_hint) {
    const char lower =
        static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') ||
        lower == '_') {
      hint += lower;
    }
  }
  // 63 bytes at most: the hint, "_", the PID and "_", the counter.
  hint = hint.substr(0, 32);
  if (hint.empty() || (hint[0] >= '0' && hint[0] <= '9')) hint = "t" + hint;
  const std::string admin_url = PostgresTestUrl();
  auto conn = postgres_detail::Connect(admin_url);
  // A name left by a dead process with the same PID is skipped over.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name =
        hint + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    // template0: never connected to, so never "being accessed by other
    // users" while tests create databases in parallel.
    const std::string sql = "CREATE DATABASE " +
                            postgres_detail::Identifier(conn.get(), name) +
                            " TEMPLATE template0";
    postgres_detail::Result result(PQexec(conn.get(), sql.c_str()));
    if (PQresultStatus(result.get()) == PGRES_COMMAND_OK) {
      return postgres_detail::WithDatabase(admin_url, name);
    }
    const char* state = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
    if (state == nullptr || std::string_view(state) != "42P04") {  // exists
      postgres_detail::Fail(sql + ": " + PQresultErrorMessage(result.get()));
    }
  }
  postgres_detail::Fail("no free database name for " + hint);
}

// Drops the database `url` names (made by FreshDatabase), ending its
// sessions; nothing when it does not exist.
inline void DropDatabase(const std::string& url) {
  const std::string admin_url = PostgresTestUrl();
  const std::string name = postgres_detail::DatabaseOf(url);
  if (name.empty() || name == postgres_detail::DatabaseOf(admin_url)) {
    postgres_detail::Fail("DropDatabase(" + url +
                          "): not a database of FreshDatabase");
  }
  auto conn = postgres_detail::Connect(admin_url);
  postgres_detail::Exec(conn.get(),
                        "DROP DATABASE IF EXISTS " +
                            postgres_detail::Identifier(conn.get(), name) +
                            " WITH (FORCE)");
}

}  // namespace rockpoint::testing
