// LocateStore (rockpoint/open.h): a URL's scheme, or a bare path's backend
// recognized by the store's own bytes.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/jsonl/journal_lines.h"
#include "formats/export_header.h"
#include "rockpoint/open.h"

namespace rockpoint {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kSqliteHeader{"SQLite format 3\0", 16};
// A header line is far shorter; a first line longer than this is not one.
constexpr size_t kMaxHeaderBytes = 4096;

// What the first line of a file says it is.
enum class FileKind {
  kSqlite,
  kJournal,
  // Empty, or a beginning of the journal header line without its newline:
  // a journal whose creation stopped early (the backend rewrites it).
  kUnfinishedJournal,
  kExport,
  kOther,  // anything else, or unreadable.
};

// The `format` of a rockpoint header line ("" if `line` is not one).
std::string HeaderFormat(std::string_view line) {
  const auto json =
      nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return "";
  const auto kind = json.find("kind");
  const auto format = json.find("format");
  if (kind == json.end() || *kind != "header" || format == json.end() ||
      !format->is_string()) {
    return "";
  }
  return format->get<std::string>();
}

FileKind ClassifyFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return FileKind::kOther;
  std::string head(kMaxHeaderBytes, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (file.bad()) return FileKind::kOther;
  head.resize(static_cast<size_t>(file.gcount()));
  if (head.starts_with(kSqliteHeader)) return FileKind::kSqlite;
  const size_t newline = head.find('\n');
  if (newline == std::string::npos) {
    return jsonl::IsHeaderStart(head) ? FileKind::kUnfinishedJournal
                                      : FileKind::kOther;
  }
  const std::string format = HeaderFormat(head.substr(0, newline));
  if (format == jsonl::kJournalFormatName) return FileKind::kJournal;
  if (format == formats::kExportFormatName) return FileKind::kExport;
  return FileKind::kOther;
}

Status ExportIsNotAStore(const std::string& path) {
  return Status::InvalidArgument(
      path +
      " is a rockpoint export, not a store (.jsonl stores are journals; "
      "the memory files of older versions were exports): load it into one "
      "with `rockpoint import " +
      path + " --store NEW.jsonl`");
}

Status NotAStore(const std::string& path) {
  return Status::InvalidArgument(
      "not a rockpoint store (neither a RocksDB directory, a SQLite "
      "database nor a rockpoint journal): " +
      path);
}

bool IsDirectory(const std::string& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

bool Exists(const std::string& path) {
  std::error_code error;
  return fs::exists(path, error);
}

// A directory RocksDB may open: one holding a store (its CURRENT file), or
// an empty one a new store goes into.
Status CheckRocksDbDirectory(const std::string& path) {
  std::error_code error;
  if (!IsDirectory(path)) {
    return Status::InvalidArgument("not a RocksDB store (not a directory): " +
                                   path);
  }
  if (fs::exists(fs::path(path) / "CURRENT", error) ||
      fs::is_empty(path, error)) {
    return Status::OK();
  }
  return Status::InvalidArgument("not a RocksDB store (no CURRENT file): " +
                                 path);
}

Status CheckSqliteFile(const std::string& path) {
  std::error_code error;
  if (IsDirectory(path)) {
    return Status::InvalidArgument("not a SQLite database (a directory): " +
                                   path);
  }
  if (ClassifyFile(path) == FileKind::kSqlite ||
      fs::file_size(path, error) == 0) {
    return Status::OK();
  }
  return Status::InvalidArgument("not a SQLite database: " + path);
}

Status CheckJournalFile(const std::string& path) {
  if (IsDirectory(path)) {
    return Status::InvalidArgument("a journal is a file, and " + path +
                                   " is a directory");
  }
  switch (ClassifyFile(path)) {
    case FileKind::kJournal:
    case FileKind::kUnfinishedJournal:
      return Status::OK();
    case FileKind::kExport:
      return ExportIsNotAStore(path);
    case FileKind::kSqlite:
    case FileKind::kOther:
      break;
  }
  return Status::InvalidArgument(
      "not a rockpoint journal (its first line is not a "
      "{\"kind\":\"header\",\"format\":\"rockpoint-journal\",...} line): " +
      path);
}

// The backend of the existing bare `path`.
Result<BackendKind> Recognize(const std::string& path) {
  if (IsDirectory(path)) {
    RP_RETURN_IF_ERROR(CheckRocksDbDirectory(path));
    return BackendKind::kRocksDb;
  }
  switch (ClassifyFile(path)) {
    case FileKind::kSqlite:
      return BackendKind::kSqlite;
    case FileKind::kJournal:
      return BackendKind::kJsonl;
    case FileKind::kExport:
      return ExportIsNotAStore(path);
    case FileKind::kUnfinishedJournal:
    case FileKind::kOther:
      break;
  }
  if (path.ends_with(".jsonl")) {
    RP_RETURN_IF_ERROR(CheckJournalFile(path));
    return BackendKind::kJsonl;
  }
  return NotAStore(path);
}

// The backend a new store at the bare `path` gets, by its name.
BackendKind ByName(const std::string& path) {
  if (path.ends_with(".jsonl")) return BackendKind::kJsonl;
  if (path.ends_with(".db") || path.ends_with(".sqlite") ||
      path.ends_with(".sqlite3")) {
    return BackendKind::kSqlite;
  }
  return BackendKind::kRocksDb;
}

// Checks that the existing `path` is what `backend` opens.
Status CheckKind(BackendKind backend, const std::string& path) {
  switch (backend) {
    case BackendKind::kRocksDb:
      return CheckRocksDbDirectory(path);
    case BackendKind::kSqlite:
      return CheckSqliteFile(path);
    case BackendKind::kJsonl:
      return CheckJournalFile(path);
    case BackendKind::kPostgres:
    case BackendKind::kMemory:
      break;
  }
  return Status::OK();
}

struct Scheme {
  std::string_view prefix;
  BackendKind backend;
};
constexpr Scheme kPathSchemes[] = {
    {"rocksdb:", BackendKind::kRocksDb},
    {"sqlite:", BackendKind::kSqlite},
    {"jsonl:", BackendKind::kJsonl},
};

Result<StoreLocation> AtPath(BackendKind backend, std::string path) {
  StoreLocation location{
      .backend = backend, .target = std::move(path), .exists = false};
  if (location.target.empty()) {
    return Status::InvalidArgument(std::string("the URL ") +
                                   std::string(BackendName(backend)) +
                                   ": names no path");
  }
  location.exists = Exists(location.target);
  // An in-memory SQLite database or a SQLite URI has no file to check.
  const bool sqlite_special =
      backend == BackendKind::kSqlite &&
      (location.target == ":memory:" || location.target.starts_with("file:"));
  if (location.exists && !sqlite_special) {
    RP_RETURN_IF_ERROR(CheckKind(backend, location.target));
  }
  std::error_code error;
  if (backend == BackendKind::kRocksDb && location.exists &&
      fs::is_empty(location.target, error)) {
    location.exists = false;  // an empty directory holds no store yet.
  }
  return location;
}

}  // namespace

Result<StoreLocation> LocateStore(std::string_view url) {
  if (url.empty()) return Status::InvalidArgument("the store URL is empty");
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return StoreLocation{.backend = BackendKind::kPostgres,
                         .target = std::string(url),
                         .exists = true};
  }
  if (url.starts_with("memory:")) {
    if (url != "memory:") {
      return Status::InvalidArgument(
          "memory: takes nothing after the scheme, got " + std::string(url));
    }
    return StoreLocation{
        .backend = BackendKind::kMemory, .target = "", .exists = false};
  }
  for (const Scheme& scheme : kPathSchemes) {
    if (url.starts_with(scheme.prefix)) {
      return AtPath(scheme.backend,
                    std::string(url.substr(scheme.prefix.size())));
    }
  }
  const std::string path(url);
  if (!Exists(path)) {
    return StoreLocation{
        .backend = ByName(path), .target = path, .exists = false};
  }
  RP_ASSIGN_OR_RETURN(const BackendKind backend, Recognize(path));
  return AtPath(backend, path);
}

}  // namespace rockpoint
