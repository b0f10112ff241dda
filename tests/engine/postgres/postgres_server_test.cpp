// The tests' PostgreSQL server (postgres_test_server.h): a fresh database
// answers, is empty and separate from the next, has the server's UTF-8
// encoding and collation, and is gone after DropDatabase.
#include <libpq-fe.h>

#include <cstdlib>
#include <string>

#include "engine/postgres/postgres_test_server.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

// The single value `sql` returns.
std::string Value(PGconn* conn, const std::string& sql) {
  postgres_detail::Result result(PQexec(conn, sql.c_str()));
  REQUIRE_MESSAGE(
      PQresultStatus(result.get()) == PGRES_TUPLES_OK,
      sql << ": " << std::string(PQresultErrorMessage(result.get())));
  REQUIRE(PQntuples(result.get()) == 1);
  return PQgetvalue(result.get(), 0, 0);
}

TEST_CASE("postgres test server: a fresh database answers") {
  const std::string url = FreshDatabase("server test");
  MESSAGE("fresh database: " << url);
  {
    auto conn = postgres_detail::Connect(url);
    CHECK(Value(conn.get(), "select 1") == "1");
    CHECK(Value(conn.get(), "select current_database()") ==
          postgres_detail::DatabaseOf(url));
    const std::string user_tables =
        "select count(*) from pg_tables"
        " where schemaname not in ('pg_catalog', 'information_schema')";
    CHECK(Value(conn.get(), user_tables) == "0");
    CHECK(std::string(PQparameterStatus(conn.get(), "server_encoding")) ==
          "UTF8");
    // tools/pg_server.sh makes the cluster's collation ICU's en-US, where
    // 'a' sorts before 'B' (in byte order it sorts after): the backend is
    // tested against a collation that is not byte order.
    MESSAGE("collation: " << Value(conn.get(),
                                   "select coalesce(daticulocale, datcollate) "
                                   "from pg_database where datname = "
                                   "current_database()"));
    const char* external = std::getenv("ROCKPOINT_TEST_POSTGRES_URL");
    if (external == nullptr || *external == '\0') {
      CHECK(Value(conn.get(), "select 'a' < 'B'") == "t");
    }
  }
  DropDatabase(url);
  auto admin = postgres_detail::Connect(PostgresTestUrl());
  const std::string count =
      "select count(*) from pg_database where datname = '" +
      postgres_detail::DatabaseOf(url) + "'";
  CHECK(Value(admin.get(), count) == "0");
}

TEST_CASE("postgres test server: fresh databases are separate") {
  const std::string first = FreshDatabase("first");
  const std::string second = FreshDatabase("first");
  CHECK(first != second);
  {
    auto conn = postgres_detail::Connect(first);
    postgres_detail::Exec(conn.get(), "create table t (x int)");
    auto other = postgres_detail::Connect(second);
    CHECK(Value(other.get(), "select to_regclass('t') is null") == "t");
  }
  // A session still open is ended by the drop.
  auto open = postgres_detail::Connect(second);
  DropDatabase(first);
  DropDatabase(second);
  DropDatabase(second);  // already gone: nothing
}

TEST_CASE("postgres test server: the URL of a fresh database") {
  CHECK(postgres_detail::WithDatabase("host=/tmp/s dbname=a", "b") ==
        "host=/tmp/s dbname=a dbname=b");
  CHECK(postgres_detail::DatabaseOf("host=/tmp/s dbname=a dbname=b") == "b");
  CHECK(postgres_detail::WithDatabase(
            "postgresql:///rockpoint_test?host=/x/socket", "b") ==
        "postgresql:///b?host=/x/socket");
  CHECK(postgres_detail::WithDatabase("postgresql://u@h:5432", "b") ==
        "postgresql://u@h:5432/b");
  CHECK(postgres_detail::WithDatabase("postgresql://h/db?host=/s", "b") ==
        "postgresql://h/b?host=/s");
  CHECK(postgres_detail::WithDatabase("postgres://h?host=/s", "b") ==
        "postgres://h/b?host=/s");
}

}  // namespace
}  // namespace rockpoint
