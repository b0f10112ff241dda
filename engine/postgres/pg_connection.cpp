// libpq: connecting, preparing, pipelines, and translating server errors.
#include "engine/postgres/pg_connection.h"

#include <libpq-fe.h>

#include <utility>

namespace rockpoint::pg {
namespace {

constexpr int kBinary = 1;

// SQLSTATE classes and codes that mean the session is gone.
bool IsConnectionLoss(std::string_view sqlstate) {
  return sqlstate.starts_with("08") || sqlstate == "57P01" ||
         sqlstate == "57P02" || sqlstate == "57P03";
}

std::string Trimmed(const char* message) {
  std::string text = message != nullptr ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

}  // namespace

Rows::Rows(pg_result* result) : result_(result) {}
Rows::Rows(Rows&& other) noexcept
    : result_(std::exchange(other.result_, nullptr)) {}
Rows& Rows::operator=(Rows&& other) noexcept {
  if (this != &other) {
    if (result_ != nullptr) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}
Rows::~Rows() {
  if (result_ != nullptr) PQclear(result_);
}

int Rows::size() const { return result_ ? PQntuples(result_) : 0; }

bool Rows::IsNull(int row, int column) const {
  return PQgetisnull(result_, row, column) != 0;
}

std::string_view Rows::Get(int row, int column) const {
  if (IsNull(row, column)) return {};
  return std::string_view(PQgetvalue(result_, row, column),
                          PQgetlength(result_, row, column));
}

std::optional<std::string> Rows::GetOptional(int row, int column) const {
  if (IsNull(row, column)) return std::nullopt;
  return GetString(row, column);
}

int64_t Rows::GetInt(int row, int column) const {
  std::string_view bytes = Get(row, column);
  uint64_t value = 0;
  for (unsigned char byte : bytes) value = (value << 8) | byte;
  switch (bytes.size()) {
    case 2:
      return static_cast<int16_t>(value);
    case 4:
      return static_cast<int32_t>(value);
    default:
      return static_cast<int64_t>(value);
  }
}

bool Rows::GetBool(int row, int column) const {
  std::string_view bytes = Get(row, column);
  return !bytes.empty() && bytes[0] != 0;
}

int64_t Rows::Affected() const {
  const char* count = PQcmdTuples(result_);
  return count == nullptr || *count == '\0' ? 0 : std::stoll(count);
}

std::string DescribeUrl(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    if (error != nullptr) PQfreemem(error);
    return url;
  }
  std::string out;
  for (PQconninfoOption* option = options; option->keyword != nullptr;
       ++option) {
    const std::string_view keyword = option->keyword;
    if (option->val == nullptr || *option->val == '\0') continue;
    if (keyword != "host" && keyword != "hostaddr" && keyword != "port" &&
        keyword != "dbname" && keyword != "user") {
      continue;
    }
    if (!out.empty()) out += " ";
    out += std::string(keyword) + "=" + option->val;
  }
  PQconninfoFree(options);
  return out.empty() ? "the default server" : out;
}

std::string TextArrayLiteral(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ",";
    out += '"';
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += "}";
  return out;
}

Result<std::unique_ptr<Connection>> Connection::Connect(const std::string& url,
                                                        int timeout_seconds) {
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(url.c_str(), &parse_error);
  if (parsed == nullptr) {
    std::string message = Trimmed(parse_error);
    if (parse_error != nullptr) PQfreemem(parse_error);
    return Status::InvalidArgument(
        "not a PostgreSQL connection string or URL: " + message);
  }
  PQconninfoFree(parsed);
  const std::string timeout = std::to_string(timeout_seconds);
  const char* keywords[] = {"dbname", "connect_timeout", "client_encoding",
                            "application_name", nullptr};
  const char* values[] = {url.c_str(), timeout.c_str(), "UTF8", "rockpoint",
                          nullptr};
  pg_conn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  std::string description = DescribeUrl(url);
  if (conn == nullptr) {
    return Status::IOError("cannot connect to PostgreSQL (" + description +
                           "): out of memory");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return Status::IOError("cannot connect to PostgreSQL (" + description +
                           "): " + message);
  }
  // Server notices ("relation already exists, skipping") are not errors and
  // not for the caller's stderr.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<Connection>(
      new Connection(conn, std::move(description)));
}

Connection::Connection(pg_conn* conn, std::string description)
    : conn_(conn), description_(std::move(description)) {}

Connection::~Connection() { PQfinish(conn_); }

bool Connection::healthy() const {
  return !lost_ && PQstatus(conn_) == CONNECTION_OK;
}

Status Connection::ErrorOf(pg_result* result) {
  const char* state =
      result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  std::string message = result ? Trimmed(PQresultErrorMessage(result)) : "";
  if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
  if (PQstatus(conn_) != CONNECTION_OK || IsConnectionLoss(sqlstate) ||
      (result == nullptr && sqlstate.empty())) {
    lost_ = true;
    return Status::IOError("PostgreSQL connection lost (" + description_ +
                           "): " + message +
                           "; nothing of this call was committed");
  }
  if (sqlstate == "25006") {
    return Status::InvalidArgument(
        "PostgreSQL refused a write in a read-only "
        "transaction: " +
        message);
  }
  if (sqlstate == "40001" || sqlstate == "40P01") {
    return Status::Busy("PostgreSQL: " + message);
  }
  return Status::IOError("PostgreSQL (" + description_ + ") [" + sqlstate +
                         "]: " + message);
}

Status Connection::SendAll(const std::vector<Query>& queries) {
  for (const Query& query : queries) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats;
    for (const Param& param : query.params) {
      values.push_back(param.value ? param.value->data() : nullptr);
      lengths.push_back(param.value ? static_cast<int>(param.value->size())
                                    : 0);
      formats.push_back(param.binary ? kBinary : 0);
    }
    const int count = static_cast<int>(query.params.size());
    int sent = 0;
    if (query.statement == nullptr) {
      sent = PQsendQueryParams(conn_, query.sql.c_str(), count, nullptr,
                               values.data(), lengths.data(), formats.data(),
                               kBinary);
    } else {
      const Statement& statement = *query.statement;
      sent = PQsendQueryPrepared(conn_, statement.name.c_str(), count,
                                 values.data(), lengths.data(), formats.data(),
                                 kBinary);
    }
    if (sent == 0) return ErrorOf(nullptr);
  }
  return Status::OK();
}

Status Connection::PrepareAll(const std::vector<Query>& queries) {
  for (const Query& query : queries) {
    if (query.statement == nullptr) continue;
    const Statement& statement = *query.statement;
    if (prepared_.contains(statement.name)) continue;
    pg_result* result = PQprepare(conn_, statement.name.c_str(),
                                  statement.sql.c_str(), 0, nullptr);
    const bool ok = result && PQresultStatus(result) == PGRES_COMMAND_OK;
    Status status = ok ? Status::OK() : ErrorOf(result);
    if (result != nullptr) PQclear(result);
    RP_RETURN_IF_ERROR(status);
    prepared_.insert(statement.name);
  }
  return Status::OK();
}

Result<std::vector<Rows>> Connection::Run(const std::vector<Query>& queries) {
  if (!healthy()) {
    lost_ = true;
    return ErrorOf(nullptr);
  }
  RP_RETURN_IF_ERROR(PrepareAll(queries));
  if (PQenterPipelineMode(conn_) == 0) return ErrorOf(nullptr);
  Status status = SendAll(queries);
  if (status.ok() && PQpipelineSync(conn_) == 0) status = ErrorOf(nullptr);
  std::vector<Rows> results;
  if (status.ok()) {
    // Each query: its result (for a Parse first, the Parse's), then NULL;
    // after the last, the Sync's PGRES_PIPELINE_SYNC.
    bool synced = false;
    while (!synced) {
      pg_result* result = PQgetResult(conn_);
      if (result == nullptr) {
        if (PQstatus(conn_) != CONNECTION_OK) {
          if (status.ok()) status = ErrorOf(nullptr);
          break;
        }
        continue;  // end of one query's results.
      }
      const ExecStatusType type = PQresultStatus(result);
      if (type == PGRES_PIPELINE_SYNC) {
        synced = true;
        PQclear(result);
      } else if (type == PGRES_TUPLES_OK || type == PGRES_COMMAND_OK) {
        results.emplace_back(result);
      } else if (type == PGRES_PIPELINE_ABORTED) {
        PQclear(result);
      } else {
        if (status.ok()) status = ErrorOf(result);
        PQclear(result);
      }
    }
  }
  if (PQstatus(conn_) == CONNECTION_OK) PQexitPipelineMode(conn_);
  if (!status.ok()) {
    if (healthy() && PQtransactionStatus(conn_) != PQTRANS_IDLE) {
      PQclear(PQexec(conn_, "ROLLBACK"));
    }
    return status;
  }
  if (results.size() != queries.size()) {
    return Status::IOError("PostgreSQL (" + description_ + ") returned " +
                           std::to_string(results.size()) + " results for " +
                           std::to_string(queries.size()) + " statements");
  }
  return results;
}

Result<Rows> Connection::RunOne(Query query) {
  std::vector<Query> queries;
  queries.push_back(std::move(query));
  RP_ASSIGN_OR_RETURN(std::vector<Rows> results, Run(queries));
  return std::move(results.front());
}

Status Connection::Execute(const std::string& sql) {
  if (!healthy()) {
    lost_ = true;
    return ErrorOf(nullptr);
  }
  pg_result* result = PQexec(conn_, sql.c_str());
  const ExecStatusType type =
      result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  Status status = Status::OK();
  if (type != PGRES_COMMAND_OK && type != PGRES_TUPLES_OK) {
    status = ErrorOf(result);
  }
  if (result != nullptr) PQclear(result);
  return status;
}

}  // namespace rockpoint::pg
