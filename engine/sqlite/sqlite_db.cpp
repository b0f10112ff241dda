#include "engine/sqlite/sqlite_db.h"

#include <utility>
#include <variant>

namespace rockpoint::sqlite_internal {
namespace {

// sqlite3_bind_blob treats a null pointer as NULL; an empty string_view may
// carry one, so empty byte strings point here instead.
constexpr char kEmpty[1] = {0};

std::string Describe(int code, std::string_view context, sqlite3* db) {
  std::string message = "sqlite: ";
  message += context;
  message += ": ";
  message += sqlite3_errstr(code);
  if (db != nullptr) {
    const char* detail = sqlite3_errmsg(db);
    if (detail != nullptr && std::string_view(detail) != sqlite3_errstr(code)) {
      message += " (";
      message += detail;
      message += ")";
    }
  }
  return message;
}

// The first line of a SQL text, shortened, to name a failing statement.
std::string SqlContext(sqlite3_stmt* stmt) {
  std::string_view sql = stmt != nullptr ? sqlite3_sql(stmt) : "";
  while (!sql.empty() && (sql.front() == ' ' || sql.front() == '\n')) {
    sql.remove_prefix(1);
  }
  if (sql.size() > 60) return std::string(sql.substr(0, 60)) + "...";
  return std::string(sql);
}

}  // namespace

Status SqliteStatus(int code, std::string_view context, sqlite3* db) {
  std::string message = Describe(code, context, db);
  switch (code & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
      return Status::OK();
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Busy(std::move(message));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(std::move(message));
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
      return Status::InvalidArgument(std::move(message));
    case SQLITE_INTERRUPT:
    case SQLITE_ABORT:
      return Status::Aborted(std::move(message));
    default:
      return Status::IOError(std::move(message));
  }
}

std::string PrintableBytes(std::string_view bytes) {
  constexpr size_t kMaxShown = 64;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < bytes.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    }
  }
  out += "\"";
  if (bytes.size() > kMaxShown) {
    out += "...(" + std::to_string(bytes.size()) + " bytes)";
  }
  return out;
}

// ---------------------------------------------------------------- Statement

Statement::Statement(sqlite3* db, sqlite3_stmt* stmt, bool owned)
    : db_(db), stmt_(stmt), owned_(owned) {}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      stmt_(std::exchange(other.stmt_, nullptr)),
      owned_(other.owned_),
      bind_error_(other.bind_error_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    Release();
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
    owned_ = other.owned_;
    bind_error_ = other.bind_error_;
  }
  return *this;
}

Statement::~Statement() { Release(); }

void Statement::Release() {
  if (stmt_ == nullptr) return;
  if (owned_) {
    sqlite3_finalize(stmt_);
  } else {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  stmt_ = nullptr;
}

void Statement::NoteBind(int rc) {
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
}

void Statement::BindBytes(int index, std::string_view bytes) {
  const char* data = bytes.empty() ? kEmpty : bytes.data();
  NoteBind(
      sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_STATIC));
}

void Statement::BindInt(int index, int64_t value) {
  NoteBind(sqlite3_bind_int64(stmt_, index, value));
}

void Statement::BindNull(int index) {
  NoteBind(sqlite3_bind_null(stmt_, index));
}

void Statement::BindVersion(int index, const serde::ChannelVersion& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) {
    BindInt(index, *number);
    return;
  }
  const std::string& text = std::get<std::string>(version);
  const char* data = text.empty() ? kEmpty : text.data();
  NoteBind(sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_STATIC,
                               SQLITE_UTF8));
}

Result<bool> Statement::Step() {
  if (bind_error_ != SQLITE_OK) {
    return SqliteStatus(bind_error_, "binding " + SqlContext(stmt_), db_);
  }
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status status = SqliteStatus(rc, SqlContext(stmt_), db_);
  sqlite3_reset(stmt_);
  return status;
}

Status Statement::Run() {
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

void Statement::Reset() { sqlite3_reset(stmt_); }

bool Statement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::string_view Statement::ColumnView(int column) const {
  // Per the SQLite docs: fetch the pointer first, then the size.
  const void* data = sqlite3_column_blob(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr || size <= 0) return {};
  return {static_cast<const char*>(data), static_cast<size_t>(size)};
}

int64_t Statement::ColumnInt(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

Result<serde::ChannelVersion> Statement::ColumnVersion(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
      return serde::ChannelVersion(ColumnInt(column));
    case SQLITE_TEXT: {
      const auto* data =
          reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
      const int size = sqlite3_column_bytes(stmt_, column);
      return serde::ChannelVersion(data == nullptr ? std::string()
                                                   : std::string(data, size));
    }
    default:
      return Status::Corruption(
          "version column is neither INTEGER nor TEXT in " + SqlContext(stmt_));
  }
}

// ----------------------------------------------------------------- Database

Result<std::unique_ptr<Database>> Database::Open(const std::string& path,
                                                 bool create_if_missing,
                                                 bool read_only) {
  int flags = SQLITE_OPEN_NOMUTEX;
  if (read_only) {
    flags |= SQLITE_OPEN_READONLY;
  } else {
    flags |= SQLITE_OPEN_READWRITE;
    if (create_if_missing) flags |= SQLITE_OPEN_CREATE;
  }
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    Status status = SqliteStatus(rc, "opening " + PrintableBytes(path), db);
    sqlite3_close_v2(db);  // safe on nullptr.
    return status;
  }
  sqlite3_extended_result_codes(db, 1);
  return std::unique_ptr<Database>(new Database(db));
}

Database::~Database() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);  // no-op on nullptr (after Close).
}

Status Database::Close() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  cache_.clear();
  const int rc = sqlite3_close(db_);
  if (rc == SQLITE_BUSY) {
    return Status::Busy("closing the sqlite database: statements are open");
  }
  Status status =
      rc == SQLITE_OK ? Status::OK() : SqliteStatus(rc, "closing", nullptr);
  db_ = nullptr;
  return status;
}

Result<Statement> Database::Prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end() && !sqlite3_stmt_busy(it->second)) {
    return Statement(db_, it->second, /*owned=*/false);
  }
  const bool cache = it == cache_.end();
  sqlite3_stmt* stmt = nullptr;
  const int rc =
      sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                         cache ? SQLITE_PREPARE_PERSISTENT : 0, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return SqliteStatus(rc, "preparing " + sql.substr(0, 60), db_);
  }
  if (!cache) return Statement(db_, stmt, /*owned=*/true);
  cache_.emplace(sql, stmt);
  return Statement(db_, stmt, /*owned=*/false);
}

Status Database::Exec(const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  sqlite3_free(error);
  if (rc != SQLITE_OK) return SqliteStatus(rc, sql.substr(0, 60), db_);
  return Status::OK();
}

Result<int64_t> Database::QueryInt(const std::string& sql) {
  RP_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql));
  RP_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return Status::Corruption("no result from " + sql);
  return stmt.ColumnInt(0);
}

// -------------------------------------------------------------- Transaction

Result<Transaction> Transaction::BeginWrite(Database* db) {
  RP_ASSIGN_OR_RETURN(Statement begin, db->Prepare("BEGIN IMMEDIATE"));
  RP_RETURN_IF_ERROR(begin.Run());
  return Transaction(db);
}

Result<Transaction> Transaction::BeginRead(Database* db) {
  RP_ASSIGN_OR_RETURN(Statement begin, db->Prepare("BEGIN"));
  RP_RETURN_IF_ERROR(begin.Run());
  return Transaction(db);
}

Status Transaction::Commit() {
  RP_ASSIGN_OR_RETURN(Statement commit, db_->Prepare("COMMIT"));
  RP_RETURN_IF_ERROR(commit.Run());
  active_ = false;
  return Status::OK();
}

Transaction::~Transaction() {
  if (!active_) return;
  // A failed statement may already have ended the transaction; ROLLBACK
  // only when one is still open.
  if (sqlite3_get_autocommit(db_->handle()) == 0) {
    auto rollback = db_->Prepare("ROLLBACK");
    if (rollback.ok()) (void)rollback->Run();
  }
}

}  // namespace rockpoint::sqlite_internal
