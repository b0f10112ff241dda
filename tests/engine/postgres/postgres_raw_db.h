// Raw access to a test database beneath PostgresCheckpointer: a libpq
// session that reads and changes rows (RawDb), a database dropped when its
// test ends (Database), and what a test compares before and after (Dump,
// StoredEncryptionRow, SchemaVersion).
//
// Thread-safety: test code, one thread per object.
#pragma once

#include <doctest/doctest.h>
#include <libpq-fe.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/postgres/postgres_test_server.h"

namespace rockpoint::testing {

// A database for one case, dropped when the case ends.
class Database {
 public:
  explicit Database(std::string_view hint) : url_(FreshDatabase(hint)) {}
  ~Database() { DropDatabase(url_); }
  const std::string& url() const { return url_; }

 private:
  std::string url_;
};

// A libpq session on a test database, for looking at and changing rows
// beneath the checkpointer. Results are binary: text and bytea columns are
// their bytes.
class RawDb {
 public:
  explicit RawDb(const std::string& url)
      : conn_(postgres_detail::Connect(url)) {}

  // The first column of every row of `sql` (parameters $1... as bytes).
  std::vector<std::string> Column(const std::string& sql,
                                  const std::vector<std::string>& params = {}) {
    postgres_detail::Result result = Exec(sql, params);
    std::vector<std::string> out;
    for (int i = 0; i < PQntuples(result.get()); ++i) {
      out.emplace_back(PQgetvalue(result.get(), i, 0),
                       PQgetlength(result.get(), i, 0));
    }
    return out;
  }
  // The single value of `sql`.
  std::string One(const std::string& sql,
                  const std::vector<std::string>& params = {}) {
    std::vector<std::string> values = Column(sql, params);
    REQUIRE_MESSAGE(values.size() == 1, sql);
    return values.front();
  }
  // Every field of every row of `sql`, concatenated.
  std::string AllBytes(const std::string& sql) {
    postgres_detail::Result result = Exec(sql, {});
    std::string out;
    for (int i = 0; i < PQntuples(result.get()); ++i) {
      for (int j = 0; j < PQnfields(result.get()); ++j) {
        out.append(PQgetvalue(result.get(), i, j),
                   PQgetlength(result.get(), i, j));
        out += '|';
      }
      out += '\n';
    }
    return out;
  }
  void Run(const std::string& sql,
           const std::vector<std::string>& params = {}) {
    Exec(sql, params);
  }
  PGconn* conn() { return conn_.get(); }

 private:
  postgres_detail::Result Exec(const std::string& sql,
                               const std::vector<std::string>& params) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats(params.size(), 1);
    for (const std::string& param : params) {
      values.push_back(param.data());
      lengths.push_back(static_cast<int>(param.size()));
    }
    postgres_detail::Result result(PQexecParams(
        conn_.get(), sql.c_str(), static_cast<int>(params.size()), nullptr,
        values.data(), lengths.data(), formats.data(), /*resultFormat=*/1));
    const ExecStatusType status = PQresultStatus(result.get());
    REQUIRE_MESSAGE(
        (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK),
        sql << ": " << std::string(PQresultErrorMessage(result.get())));
    return result;
  }

  postgres_detail::Conn conn_;
};

// Every row of every table, in key order: equal dumps, equal databases.
inline std::string Dump(const std::string& url) {
  RawDb raw(url);
  std::string out;
  for (const char* sql :
       {"SELECT thread_id, checkpoint_ns, checkpoint_id, "
        "parent_checkpoint_id, checkpoint::text, metadata::text FROM "
        "checkpoints ORDER BY 1, 2, 3",
        "SELECT * FROM checkpoint_blobs ORDER BY 1, 2, 3, 4",
        "SELECT * FROM checkpoint_writes ORDER BY 1, 2, 3, 4, 5",
        "SELECT thread_id, checkpoint_ns, checkpoint_id, hidden, "
        "stored_channels::text, pending_sends::text FROM "
        "rockpoint_checkpoints ORDER BY 1, 2, 3"}) {
    out += raw.AllBytes(sql);
  }
  return out;
}

// The stored encryption's row ("" when none), and rockpoint's schema
// version.
inline std::string StoredEncryptionRow(const std::string& url) {
  RawDb raw(url);
  if (raw.One("SELECT (to_regclass('rockpoint_encryption') IS NULL)::text") ==
      "true") {
    return "";
  }
  return raw.AllBytes("SELECT store_id, key_check FROM rockpoint_encryption");
}
inline std::string SchemaVersion(const std::string& url) {
  return RawDb(url).One("SELECT max(v)::text FROM rockpoint_migrations");
}

}  // namespace rockpoint::testing
