// Store: backend detection, and opening each backend with the right access.
#include "tools/cli/store.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "engine/jsonl/journal_file.h"
#include "engine/jsonl/journal_lines.h"
#include "rockpoint/jsonl_checkpointer.h"
#include "rockpoint/postgres_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace rockpoint::cli {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kSqliteHeader{"SQLite format 3\0", 16};
// A header line is far shorter; a first line longer than this is not one.
constexpr size_t kMaxHeaderBytes = 4096;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

bool IsPostgresUrl(std::string_view path) {
  return path.starts_with("postgresql://") || path.starts_with("postgres://");
}

bool HasSqliteHeader(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string head(kSqliteHeader.size(), '\0');
  if (!file.read(head.data(), static_cast<std::streamsize>(head.size()))) {
    return false;
  }
  return head == kSqliteHeader;
}

// The `format` of a rockpoint header line ("" if `line` is not one).
std::string HeaderFormat(std::string_view line) {
  const Json json = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return "";
  const auto kind = json.find("kind");
  const auto format = json.find("format");
  if (kind == json.end() || *kind != "header" || format == json.end() ||
      !format->is_string()) {
    return "";
  }
  return format->get<std::string>();
}

Status NotAStore(const std::string& path) {
  return Status::InvalidArgument(
      "not a rockpoint store (neither a RocksDB directory, a SQLite "
      "database nor a rockpoint journal): " +
      path);
}

// OK if the existing `path` may be opened as a journal. Guards the backend
// against files it was not meant for.
Status CheckJournalFile(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    return Status::InvalidArgument(
        "--backend jsonl needs a journal file, and " + path +
        " is a directory");
  }
  switch (ClassifyJsonlFile(path)) {
    case JsonlFileKind::kJournal:
    case JsonlFileKind::kUnfinishedJournal:
      return Status::OK();
    case JsonlFileKind::kExport:
      return ExportIsNotAStore(path);
    case JsonlFileKind::kOther:
      break;
  }
  return Status::InvalidArgument(
      "not a rockpoint journal (its first line is not a "
      "{\"kind\":\"header\",\"format\":\"rockpoint-journal\",...} line): " +
      path);
}

// The backend of an existing, not forced, non-directory `path`.
Result<Backend> DetectFile(const std::string& path) {
  if (HasSqliteHeader(path)) return Backend::kSqlite;
  const JsonlFileKind kind = ClassifyJsonlFile(path);
  if (kind == JsonlFileKind::kJournal) return Backend::kJsonl;
  if (kind == JsonlFileKind::kExport) return ExportIsNotAStore(path);
  if (EndsWith(path, ".jsonl")) {
    RP_RETURN_IF_ERROR(CheckJournalFile(path));
    return Backend::kJsonl;
  }
  return NotAStore(path);
}

Result<Backend> Detect(const std::string& path, bool exists) {
  std::error_code error;
  if (fs::is_directory(path, error)) return Backend::kRocksDb;
  if (exists) return DetectFile(path);
  if (EndsWith(path, ".jsonl")) return Backend::kJsonl;
  if (EndsWith(path, ".db") || EndsWith(path, ".sqlite") ||
      EndsWith(path, ".sqlite3")) {
    return Backend::kSqlite;
  }
  return Backend::kRocksDb;
}

// Says on stderr that the open cut a torn tail off the journal: the bytes
// of an append that never finished, gone from the file now.
void ReportTornTailCut(JsonlCheckpointer& journal, const std::string& path) {
  const Result<JsonlStats> stats = journal.Stats();
  if (!stats.ok() || stats->torn_tail_bytes_cut == 0) return;
  std::cerr << "rockpoint: " << path << ": cut a torn tail of "
            << stats->torn_tail_bytes_cut
            << " bytes after the last commit line (an append that never "
               "finished)\n";
}

}  // namespace

JsonlFileKind ClassifyJsonlFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return JsonlFileKind::kOther;
  std::string head(kMaxHeaderBytes, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (file.bad()) return JsonlFileKind::kOther;
  head.resize(static_cast<size_t>(file.gcount()));
  const size_t newline = head.find('\n');
  if (newline == std::string::npos) {
    return jsonl::IsHeaderStart(head) ? JsonlFileKind::kUnfinishedJournal
                                      : JsonlFileKind::kOther;
  }
  const std::string format = HeaderFormat(head.substr(0, newline));
  if (format == jsonl::kJournalFormatName) return JsonlFileKind::kJournal;
  if (format == kExportFormatName) return JsonlFileKind::kExport;
  return JsonlFileKind::kOther;
}

Status ExportIsNotAStore(const std::string& path) {
  return Status::InvalidArgument(
      path +
      " is a rockpoint export, not a store (.jsonl stores are journals; "
      "the memory files of older versions were exports): load it into one "
      "with `rockpoint import " +
      path + " --store NEW.jsonl`");
}

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::kRocksDb:
      return "rocksdb";
    case Backend::kSqlite:
      return "sqlite";
    case Backend::kJsonl:
      return "jsonl";
    case Backend::kPostgres:
      return "postgres";
  }
  return "?";
}

Result<Backend> ParseBackend(std::string_view name) {
  if (name == "rocksdb") return Backend::kRocksDb;
  if (name == "sqlite") return Backend::kSqlite;
  if (name == "jsonl") return Backend::kJsonl;
  if (name == "postgres") return Backend::kPostgres;
  if (name == "memory") {
    return Status::InvalidArgument(
        "--backend memory is gone: .jsonl stores are journals now "
        "(--backend jsonl); load an old memory file with `rockpoint import "
        "OLD.jsonl --store NEW.jsonl`");
  }
  return Status::InvalidArgument(
      "--backend must be rocksdb, sqlite, jsonl or postgres");
}

Result<Backend> Store::Locate(const std::string& path,
                              std::optional<Backend> forced) {
  if (path.empty()) {
    return Status::InvalidArgument(
        "no store given: pass --store PATH or set ROCKPOINT_STORE");
  }
  if ((!forced && IsPostgresUrl(path)) || forced == Backend::kPostgres) {
    return Backend::kPostgres;
  }
  std::error_code error;
  if (!fs::exists(path, error)) {
    return Status::NotFound("store not found: " + path);
  }
  if (forced) return *forced;
  return Detect(path, /*exists=*/true);
}

Result<std::unique_ptr<Store>> Store::Open(
    const std::string& path, std::optional<Backend> forced, Access access,
    const std::optional<EncryptionOptions>& encryption) {
  if (path.empty()) {
    return Status::InvalidArgument(
        "no store given: pass --store PATH or set ROCKPOINT_STORE");
  }
  std::unique_ptr<Store> store(new Store());
  store->path_ = path;
  store->access_ = access;
  store->encryption_ = encryption;
  if ((!forced && IsPostgresUrl(path)) || forced == Backend::kPostgres) {
    store->backend_ = Backend::kPostgres;
    RP_RETURN_IF_ERROR(store->OpenPostgres());
    return store;
  }
  std::error_code error;
  const bool exists = fs::exists(path, error);
  const bool create = access == Access::kCreate || access == Access::kImport;
  if (!exists && !create) {
    return Status::NotFound("store not found: " + path);
  }
  store->created_ = !exists;
  if (forced) {
    store->backend_ = *forced;
  } else {
    RP_ASSIGN_OR_RETURN(store->backend_, Detect(path, exists));
  }
  Status opened;
  switch (store->backend_) {
    case Backend::kRocksDb:
      opened = store->OpenRocksDb(exists);
      break;
    case Backend::kSqlite:
      opened = store->OpenSqlite(exists);
      break;
    case Backend::kJsonl:
      // Detection checked the file already; a forced backend did not.
      if (exists && forced) RP_RETURN_IF_ERROR(CheckJournalFile(path));
      opened = store->OpenJsonl();
      break;
    case Backend::kPostgres:
      break;  // opened above.
  }
  if (!opened.ok()) {
    store->Discard();  // removes only what this Open created.
    return opened;
  }
  return store;
}

Status Store::OpenRocksDb(bool exists) {
  std::error_code error;
  if (exists && !fs::exists(fs::path(path_) / "CURRENT", error)) {
    return Status::InvalidArgument("not a RocksDB store (no CURRENT file): " +
                                   path_);
  }
  RocksDbOptions options;
  options.path = path_;
  options.encryption = encryption_;
  options.read_only = access_ == Access::kRead;
  options.create_if_missing = created_;
  options.sync_writes = access_ != Access::kImport;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<RocksDbCheckpointer> rocksdb,
                      RocksDbCheckpointer::Open(options));
  rocksdb_ = rocksdb.get();
  checkpointer_ = std::move(rocksdb);
  return Status::OK();
}

Status Store::OpenSqlite(bool exists) {
  std::error_code error;
  if (exists && !HasSqliteHeader(path_) && fs::file_size(path_, error) > 0) {
    return Status::InvalidArgument("not a SQLite database: " + path_);
  }
  SqliteOptions options;
  options.path = path_;
  options.encryption = encryption_;
  options.read_only = access_ == Access::kRead;
  options.create_if_missing = created_;
  options.sync_writes = access_ != Access::kImport;
  RP_ASSIGN_OR_RETURN(checkpointer_, SqliteCheckpointer::Open(options));
  return Status::OK();
}

Status Store::OpenJsonl() {
  JsonlOptions options;
  options.path = path_;
  options.encryption = encryption_;
  options.read_only = access_ == Access::kRead;
  options.create_if_missing = created_;
  options.sync_writes = access_ != Access::kImport;
  auto opened = JsonlCheckpointer::Open(options);
  if (!opened.ok()) {
    if (!opened.status().IsBusy()) return opened.status();
    // Another process holds the journal, so it is not this Open's to remove
    // (that process created the path first).
    created_ = false;
    // Name the way out: only writers are kept out.
    return Status::Busy(opened.status().message() +
                        " (read commands still work; run this one once the "
                        "other writer has closed it)");
  }
  std::unique_ptr<JsonlCheckpointer> journal = std::move(opened).value();
  ReportTornTailCut(*journal, path_);
  jsonl_ = journal.get();
  checkpointer_ = std::move(journal);
  return Status::OK();
}

Status Store::OpenPostgres() {
  PostgresOptions options;
  options.url = path_;
  options.encryption = encryption_;
  options.read_only = access_ == Access::kRead;
  options.create_if_missing = access_ != Access::kRead;
  RP_ASSIGN_OR_RETURN(checkpointer_, PostgresCheckpointer::Open(options));
  return Status::OK();
}

Store::~Store() = default;

Result<std::vector<WriteLocation>> Store::FindOrphanWrites() {
  Checkpointer* store = checkpointer_.get();
  if (auto* sqlite = dynamic_cast<SqliteCheckpointer*>(store)) {
    return sqlite->FindOrphanWrites();
  }
  if (auto* journal = dynamic_cast<JsonlCheckpointer*>(store)) {
    return journal->FindOrphanWrites();
  }
  if (auto* postgres = dynamic_cast<PostgresCheckpointer*>(store)) {
    return postgres->FindOrphanWrites();
  }
  return Status::InvalidArgument(std::string("no orphan-write scan for a ") +
                                 BackendName(backend_) +
                                 " store (verify checks its raw records)");
}

void Store::Discard() {
  checkpointer_.reset();
  rocksdb_ = nullptr;
  jsonl_ = nullptr;
  discarded_ = true;
  if (!created_) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  // SQLite's side files (journal, WAL, shared memory) of a created file.
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    fs::remove(path_ + suffix, ignored);
  }
  // A journal's compaction file, should one have been left.
  fs::remove(jsonl::CompactionPath(path_), ignored);
}

Status Store::CloseAndSync() {
  // Close syncs what the unsynced writes left in the WAL (RocksDB, SQLite)
  // or the journal, and releases the store.
  Status closed = checkpointer_->Close();
  checkpointer_.reset();
  rocksdb_ = nullptr;
  jsonl_ = nullptr;
  return closed;
}

Status Store::Commit() {
  if (discarded_) return Status::OK();
  return access_ == Access::kImport ? CloseAndSync() : Status::OK();
}

}  // namespace rockpoint::cli
