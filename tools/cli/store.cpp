// Store: a CLI command's store, located and opened through rockpoint::Open.
#include "tools/cli/store.h"

#include <filesystem>
#include <iostream>

#include "rockpoint/maintenance.h"

namespace rockpoint::cli {
namespace fs = std::filesystem;
namespace {

Status NoStoreGiven() {
  return Status::InvalidArgument(
      "no store given: pass --store PATH or set ROCKPOINT_STORE");
}

// `path` with --backend NAME: as the URL NAME:PATH (a PostgreSQL
// connection string as it is).
Result<StoreLocation> LocateForced(const std::string& path, Backend forced) {
  if (forced == Backend::kPostgres) {
    return StoreLocation{
        .backend = Backend::kPostgres, .target = path, .exists = true};
  }
  std::error_code error;
  if (forced == Backend::kJsonl && fs::is_directory(path, error)) {
    return Status::InvalidArgument(
        "--backend jsonl needs a journal file, and " + path +
        " is a directory");
  }
  return LocateStore(std::string(BackendName(forced)) + ":" + path);
}

Result<StoreLocation> LocateAny(const std::string& path,
                                std::optional<Backend> forced) {
  if (path.empty()) return NoStoreGiven();
  if (forced) return LocateForced(path, *forced);
  // A schemed URL names its backend; a bare path is recognized.
  return LocateStore(path);
}

// Says on stderr that the open cut a torn tail off the journal: the bytes
// of an append that never finished, gone from the file now.
void ReportTornTailCut(Checkpointer& journal, const std::string& path) {
  const Result<StoreFigures> figures = Figures(journal);
  if (!figures.ok() || !figures->jsonl ||
      figures->jsonl->torn_tail_bytes_cut == 0) {
    return;
  }
  std::cerr << "rockpoint: " << path << ": cut a torn tail of "
            << figures->jsonl->torn_tail_bytes_cut
            << " bytes after the last commit line (an append that never "
               "finished)\n";
}

// The journal's Busy, naming the way out: only writers are kept out.
Status JournalBusy(const Status& busy) {
  return Status::Busy(busy.message() +
                      " (read commands still work; run this one once the "
                      "other writer has closed it)");
}

}  // namespace

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

Result<StoreLocation> Store::Locate(const std::string& path,
                                    std::optional<Backend> forced) {
  RP_ASSIGN_OR_RETURN(StoreLocation location, LocateAny(path, forced));
  if (!location.exists) return Status::NotFound("store not found: " + path);
  return location;
}

Result<std::unique_ptr<Store>> Store::Open(
    const std::string& path, std::optional<Backend> forced, Access access,
    const std::optional<EncryptionOptions>& encryption) {
  RP_ASSIGN_OR_RETURN(const StoreLocation location, LocateAny(path, forced));
  if (location.backend == Backend::kMemory) {
    return Status::InvalidArgument(
        "memory: keeps nothing after the command; pass a store that lasts");
  }
  const bool create = access == Access::kCreate || access == Access::kImport;
  if (!location.exists && !create) {
    std::error_code error;
    if (fs::exists(location.target, error)) {
      return Status::InvalidArgument(
          "not a RocksDB store (an empty directory): " + location.target);
    }
    return Status::NotFound("store not found: " + path);
  }
  std::unique_ptr<Store> store(new Store());
  store->path_ = location.target;
  store->access_ = access;
  store->encryption_ = encryption;
  store->backend_ = location.backend;
  std::error_code error;
  store->created_ = !location.exists &&
                    location.backend != Backend::kPostgres &&
                    !fs::exists(location.target, error);
  if (Status opened = store->OpenAt(location); !opened.ok()) {
    store->Discard();  // removes only what this Open created.
    return opened;
  }
  return store;
}

Status Store::OpenAt(const StoreLocation& location) {
  StoreOptions options;
  options.encryption = encryption_;
  options.read_only = access_ == Access::kRead;
  // PostgreSQL: the tables are created by any command that writes.
  options.create_if_missing =
      location.backend == Backend::kPostgres
          ? !options.read_only
          : access_ == Access::kCreate || access_ == Access::kImport;
  options.sync_writes = access_ != Access::kImport;
  auto opened = rockpoint::Open(location, options);
  if (!opened.ok()) {
    if (location.backend != Backend::kJsonl || !opened.status().IsBusy()) {
      return opened.status();
    }
    // Another process holds the journal, so it is not this Open's to remove
    // (that process created the path first).
    created_ = false;
    return JournalBusy(opened.status());
  }
  checkpointer_ = std::move(opened).value();
  if (backend_ == Backend::kJsonl) ReportTornTailCut(*checkpointer_, path_);
  return Status::OK();
}

Store::~Store() = default;

void Store::Discard() {
  checkpointer_.reset();
  discarded_ = true;
  if (!created_) return;
  // Best effort: the command's own error is what it reports.
  (void)DestroyStore(
      StoreLocation{.backend = backend_, .target = path_, .exists = true});
}

Status Store::CloseAndSync() {
  // Close syncs what the unsynced writes left in the WAL (RocksDB, SQLite)
  // or the journal, and releases the store.
  Status closed = checkpointer_->Close();
  checkpointer_.reset();
  return closed;
}

Status Store::Commit() {
  if (discarded_) return Status::OK();
  return access_ == Access::kImport ? CloseAndSync() : Status::OK();
}

}  // namespace rockpoint::cli
