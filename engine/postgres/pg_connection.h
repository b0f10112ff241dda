// Private to engine/postgres: a libpq connection, its prepared statements,
// and the pipeline that sends a call's statements in one round trip.
//
// Why libpq and not libpqxx: rockpoint needs libpq's pipeline mode (several
// statements, one round trip, one implicit transaction) and binary bytea
// parameters and results; Debian 12's libpqxx 6.4 exposes neither, and its
// API changes across major versions. libpq's C API is stable, and this file
// is the only place that includes it.
//
// Thread-safety: a Connection is used by one thread at a time (the pool
// hands each to one call).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"

struct pg_conn;
struct pg_result;

namespace rockpoint::pg {

// One query parameter: text (format 0, the server infers or the SQL casts
// its type), binary (format 1, for bytea), or NULL.
struct Param {
  std::optional<std::string> value;
  bool binary = false;
};
using Params = std::vector<Param>;

inline Param Text(std::string_view text) { return {std::string(text), false}; }
inline Param Bytes(std::string_view bytes) {
  return {std::string(bytes), true};
}
inline Param Int(int64_t value) { return {std::to_string(value), false}; }
inline Param Null() { return {}; }
inline Param OptionalText(const std::optional<std::string>& text) {
  return text ? Text(*text) : Null();
}

// A statement prepared once per connection under `name` (unique, stable).
struct Statement {
  std::string name;
  std::string sql;
};

// One statement of a pipeline and its parameters. A statement without a
// name runs unprepared (BEGIN, COMMIT, SQL built per call).
struct Query {
  const Statement* statement = nullptr;
  std::string sql;  // used when statement is null.
  Params params;
};

// The rows of one result, columns in binary format: text and bytea columns
// are their bytes, integers big-endian, booleans one byte. Select jsonb as
// ::text.
class Rows {
 public:
  explicit Rows(pg_result* result);
  Rows(Rows&& other) noexcept;
  Rows& operator=(Rows&& other) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows();

  int size() const;
  bool IsNull(int row, int column) const;
  // The column's bytes (empty for NULL).
  std::string_view Get(int row, int column) const;
  std::string GetString(int row, int column) const {
    return std::string(Get(row, column));
  }
  std::optional<std::string> GetOptional(int row, int column) const;
  // An int2, int4 or int8 column; 0 for NULL.
  int64_t GetInt(int row, int column) const;
  // A bool column; false for NULL.
  bool GetBool(int row, int column) const;
  // Rows affected by an INSERT, UPDATE or DELETE.
  int64_t Affected() const;

 private:
  pg_result* result_;
};

class Connection {
 public:
  // Connects to `url` (a libpq connection string or URL). InvalidArgument
  // for a malformed `url`; IOError naming the server when it cannot be
  // reached. The session's client encoding is UTF8.
  static Result<std::unique_ptr<Connection>> Connect(const std::string& url,
                                                     int timeout_seconds);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `queries` as one pipeline: sent together, one Sync, so that
  // statements without an explicit BEGIN form one implicit transaction
  // (all or nothing). Statements are prepared before, on first use. Returns one
  // Rows per query, or the first error (nothing committed; an explicit
  // transaction left open by a failure is rolled back).
  Result<std::vector<Rows>> Run(const std::vector<Query>& queries);
  // Runs one statement (a pipeline of one).
  Result<Rows> RunOne(Query query);
  // Runs `sql` with the simple query protocol (several statements
  // allowed, no parameters, each its own transaction unless it BEGINs).
  Status Execute(const std::string& sql);

  // False once the connection to the server was lost; the pool then
  // replaces it.
  bool healthy() const;
  // The server's description for messages: "host=... port=... dbname=...".
  const std::string& description() const { return description_; }

 private:
  Connection(pg_conn* conn, std::string description);
  // Translates a failed result (or a connection failure when `result` is
  // null) into a Status; marks the connection unhealthy when it is lost.
  Status ErrorOf(pg_result* result);
  // Prepares (one round trip each, once per connection) the statements of
  // `queries` not yet prepared here.
  Status PrepareAll(const std::vector<Query>& queries);
  Status SendAll(const std::vector<Query>& queries);

  pg_conn* conn_;
  const std::string description_;
  std::set<std::string> prepared_;
  bool lost_ = false;
};

// "host=... port=... dbname=... user=..." of a connection string, without
// its password, for messages; the string itself when it does not parse.
std::string DescribeUrl(const std::string& url);

// A PostgreSQL array literal of `items` ('{"a","b"}'), for a text[]
// parameter.
std::string TextArrayLiteral(const std::vector<std::string>& items);
// The text[] parameter of `items`, in their order.
inline Param TextArray(const std::vector<std::string>& items) {
  return Text(TextArrayLiteral(items));
}
inline Param TextArray(const std::set<std::string>& items) {
  return TextArray(std::vector<std::string>(items.begin(), items.end()));
}

}  // namespace rockpoint::pg
