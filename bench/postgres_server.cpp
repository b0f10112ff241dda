#include "bench/postgres_server.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <cctype>

namespace rockpoint::bench {
namespace {

struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

std::string ErrorText(PGconn* conn) {
  std::string text = conn != nullptr ? PQerrorMessage(conn) : "out of memory";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

// Connects to `url`; IOError naming `what` on failure. No NOTICE lines on
// stderr (DROP DATABASE IF EXISTS of a missing one).
Result<PGconn*> ConnectTo(const std::string& url, std::string_view what) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    const std::string error = ErrorText(conn);
    PQfinish(conn);
    return Status::IOError("postgres " + std::string(what) + ": " + error);
  }
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return conn;
}

// Runs `sql` (no parameters); the status of a command, or the error.
Result<PgResult> Exec(PGconn* conn, const std::string& sql) {
  PgResult result(PQexec(conn, sql.c_str()));
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string error = PQresultErrorMessage(result.get());
    while (!error.empty() && error.back() == '\n') error.pop_back();
    return Status::IOError("postgres: " + sql + ": " + error);
  }
  return result;
}

// The first column of the one row `sql` returns.
Result<std::string> QueryScalar(PGconn* conn, const std::string& sql) {
  RP_ASSIGN_OR_RETURN(PgResult result, Exec(conn, sql));
  if (PQntuples(result.get()) != 1) {
    return Status::IOError("postgres: " + sql + ": not one row");
  }
  return std::string(PQgetvalue(result.get(), 0, 0));
}

// `value` as a single-quoted libpq connection-string value.
std::string QuotedValue(std::string_view value) {
  std::string out = "'";
  for (const char c : value) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

// The connection options `url` gives, as "keyword='value' ..." with dbname
// replaced by `database` (or, when `database` is empty, the dbname given,
// returned in *dbname).
Result<std::string> WithDatabase(const std::string& url,
                                 const std::string& database,
                                 std::string* dbname) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    std::string message = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return Status::InvalidArgument("not a PostgreSQL URL: " + message);
  }
  std::string out;
  for (PQconninfoOption* option = options; option->keyword; ++option) {
    const std::string_view keyword = option->keyword;
    if (keyword == "dbname" && option->val != nullptr && dbname != nullptr) {
      *dbname = option->val;
    }
    if (keyword == "dbname" || option->val == nullptr) continue;
    out += std::string(keyword) + "=" + QuotedValue(option->val) + " ";
  }
  PQconninfoFree(options);
  return out + "dbname=" + QuotedValue(database);
}

std::string Identifier(PGconn* conn, const std::string& name) {
  char* quoted = PQescapeIdentifier(conn, name.data(), name.size());
  if (quoted == nullptr) return "\"" + name + "\"";
  std::string out(quoted);
  PQfreemem(quoted);
  return out;
}

}  // namespace

Result<std::unique_ptr<PostgresServer>> PostgresServer::Connect(
    const std::string& url) {
  RP_RETURN_IF_ERROR(WithDatabase(url, "", nullptr).status());
  RP_ASSIGN_OR_RETURN(PGconn * admin, ConnectTo(url, "server"));
  std::unique_ptr<PostgresServer> server(new PostgresServer(admin, url));
  RP_RETURN_IF_ERROR(server->ReadSettings());
  return server;
}

PostgresServer::~PostgresServer() { PQfinish(admin_); }

Status PostgresServer::ReadSettings() {
  RP_ASSIGN_OR_RETURN(settings_.version,
                      QueryScalar(admin_, "SHOW server_version"));
  RP_ASSIGN_OR_RETURN(settings_.fsync, QueryScalar(admin_, "SHOW fsync"));
  RP_ASSIGN_OR_RETURN(settings_.synchronous_commit,
                      QueryScalar(admin_, "SHOW synchronous_commit"));
  const char* host = PQhost(admin_);
  const char* port = PQport(admin_);
  settings_.where = std::string("host ") + (host != nullptr ? host : "?") +
                    ", port " + (port != nullptr ? port : "?");
  return Status::OK();
}

Result<std::string> PostgresServer::CreateDatabase(std::string_view hint) {
  std::string clean;
  for (const char c : hint) {
    const char lower =
        static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isalnum(static_cast<unsigned char>(lower)) || lower == '_') {
      clean += lower;
    }
  }
  clean = clean.substr(0, 24);
  // A name left by a killed bench with the same PID is skipped over.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = "rpbench_" + clean + "_" +
                             std::to_string(::getpid()) + "_" +
                             std::to_string(counter_++);
    const std::string sql =
        "CREATE DATABASE " + Identifier(admin_, name) + " TEMPLATE template0";
    PgResult result(PQexec(admin_, sql.c_str()));
    if (PQresultStatus(result.get()) == PGRES_COMMAND_OK) {
      return WithDatabase(url_, name, nullptr);
    }
    const char* state = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
    if (state == nullptr || std::string_view(state) != "42P04") {  // exists
      return Status::IOError("postgres: " + sql + ": " +
                             PQresultErrorMessage(result.get()));
    }
  }
  return Status::IOError("postgres: no free database name for " + clean);
}

Status PostgresServer::DropDatabase(const std::string& database_url) {
  std::string name;
  RP_RETURN_IF_ERROR(WithDatabase(database_url, "", &name).status());
  if (name.rfind("rpbench_", 0) != 0) {
    return Status::InvalidArgument("postgres: not a bench database: " + name);
  }
  return Exec(admin_, "DROP DATABASE IF EXISTS " + Identifier(admin_, name) +
                          " WITH (FORCE)")
      .status();
}

Result<std::unique_ptr<PostgresSession>> PostgresSession::Open(
    const std::string& url) {
  RP_ASSIGN_OR_RETURN(PGconn * conn, ConnectTo(url, "session"));
  return std::unique_ptr<PostgresSession>(new PostgresSession(conn));
}

PostgresSession::~PostgresSession() { PQfinish(conn_); }

Status PostgresSession::RoundTrip() {
  RP_ASSIGN_OR_RETURN(PgResult result, Exec(conn_, "SELECT 1"));
  if (PQntuples(result.get()) != 1) {
    return Status::IOError("postgres: SELECT 1: not one row");
  }
  return Status::OK();
}

Status PostgresSession::Execute(const std::string& sql) {
  return Exec(conn_, sql).status();
}

}  // namespace rockpoint::bench
