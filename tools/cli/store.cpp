// Store: backend detection, opening with the right access, memory files.
#include "tools/cli/store.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/durable_file.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace rockpoint::cli {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kSqliteHeader{"SQLite format 3\0", 16};

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

bool HasSqliteHeader(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string head(kSqliteHeader.size(), '\0');
  if (!file.read(head.data(), static_cast<std::streamsize>(head.size()))) {
    return false;
  }
  return head == kSqliteHeader;
}

Result<Backend> Detect(const std::string& path, Access access) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::is_directory(status)) return Backend::kRocksDb;
  if (fs::exists(status)) {
    if (HasSqliteHeader(path)) return Backend::kSqlite;
    if (EndsWith(path, ".jsonl")) return Backend::kMemoryFile;
    return Status::InvalidArgument(
        "not a rockpoint store (neither a RocksDB directory, a SQLite "
        "database nor a .jsonl memory file): " +
        path);
  }
  if (access != Access::kCreate && access != Access::kImport) {
    return Status::NotFound("store not found: " + path);
  }
  if (EndsWith(path, ".jsonl")) return Backend::kMemoryFile;
  if (EndsWith(path, ".db") || EndsWith(path, ".sqlite") ||
      EndsWith(path, ".sqlite3")) {
    return Backend::kSqlite;
  }
  return Backend::kRocksDb;
}

Status LoadMemoryFile(const std::string& path, Checkpointer& target,
                      const ProgressFn& progress) {
  if (std::filesystem::is_directory(path)) {
    return Status::InvalidArgument(
        "--backend memory needs a .jsonl memory file, and " + path +
        " is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read memory file: " + path);
  auto loaded = ImportStore(in, target, progress);
  if (!loaded.ok()) {
    return Status(loaded.status().code() == StatusCode::kInvalidArgument
                      ? Status::Corruption("memory file " + path + ": " +
                                           loaded.status().message())
                      : loaded.status());
  }
  return Status::OK();
}

}  // namespace

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::kRocksDb:
      return "rocksdb";
    case Backend::kSqlite:
      return "sqlite";
    case Backend::kMemoryFile:
      return "memory";
  }
  return "?";
}

Result<Backend> ParseBackend(std::string_view name) {
  if (name == "rocksdb") return Backend::kRocksDb;
  if (name == "sqlite") return Backend::kSqlite;
  if (name == "memory") return Backend::kMemoryFile;
  return Status::InvalidArgument("--backend must be rocksdb, sqlite or memory");
}

Result<std::unique_ptr<Store>> Store::Open(const std::string& path,
                                           std::optional<Backend> forced,
                                           Access access,
                                           const ProgressFn& progress) {
  if (path.empty()) {
    return Status::InvalidArgument(
        "no store given: pass --store PATH or set ROCKPOINT_STORE");
  }
  std::unique_ptr<Store> store(new Store());
  store->path_ = path;
  store->access_ = access;
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
    RP_ASSIGN_OR_RETURN(store->backend_, Detect(path, access));
  }
  switch (store->backend_) {
    case Backend::kRocksDb: {
      if (exists && !fs::exists(fs::path(path) / "CURRENT", error)) {
        return Status::InvalidArgument(
            "not a RocksDB store (no CURRENT file): " + path);
      }
      RocksDbOptions options;
      options.path = path;
      options.read_only = access == Access::kRead;
      options.create_if_missing = create;
      options.sync_writes = access != Access::kImport;
      auto opened = RocksDbCheckpointer::Open(options);
      if (!opened.ok()) {
        store->Discard();
        return opened.status();
      }
      std::unique_ptr<RocksDbCheckpointer> rocksdb = std::move(opened).value();
      store->rocksdb_ = rocksdb.get();
      store->checkpointer_ = std::move(rocksdb);
      break;
    }
    case Backend::kSqlite: {
      if (exists && !HasSqliteHeader(path) && fs::file_size(path, error) > 0) {
        return Status::InvalidArgument("not a SQLite database: " + path);
      }
      SqliteOptions options;
      options.path = path;
      options.read_only = access == Access::kRead;
      options.create_if_missing = create;
      options.sync_writes = access != Access::kImport;
      auto opened = SqliteCheckpointer::Open(options);
      if (!opened.ok()) {
        store->Discard();
        return opened.status();
      }
      std::unique_ptr<SqliteCheckpointer> sqlite = std::move(opened).value();
      store->checkpointer_ = std::move(sqlite);
      break;
    }
    case Backend::kMemoryFile: {
      store->checkpointer_ = std::make_unique<MemoryCheckpointer>();
      if (exists) {
        RP_RETURN_IF_ERROR(
            LoadMemoryFile(path, *store->checkpointer_, progress));
      }
      break;
    }
  }
  return store;
}

Store::~Store() = default;

void Store::Discard() {
  checkpointer_.reset();
  rocksdb_ = nullptr;
  discarded_ = true;
  if (!created_) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  // SQLite's side files (journal, WAL, shared memory) of a created file.
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    fs::remove(path_ + suffix, ignored);
  }
}

Status Store::CloseAndSync() {
  // Close syncs what the unsynced writes left in the WAL (or the SQLite
  // WAL) and releases the store.
  Status closed = checkpointer_->Close();
  checkpointer_.reset();
  rocksdb_ = nullptr;
  return closed;
}

Status Store::Commit(const ProgressFn& progress) {
  if (discarded_) return Status::OK();
  if (backend_ != Backend::kMemoryFile) {
    return access_ == Access::kImport ? CloseAndSync() : Status::OK();
  }
  const std::string temporary =
      path_ + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError("cannot write " + temporary);
    auto exported = ExportStore(*checkpointer_, {}, out, progress);
    out.close();
    if (!exported.ok() || !out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return exported.ok() ? Status::IOError("cannot write " + temporary)
                           : exported.status();
    }
  }
  // The data reaches the disk before the rename makes it the store, and the
  // rename (the directory) before Commit reports success.
  std::error_code error;
  if (Status synced = SyncPath(temporary); !synced.ok()) {
    fs::remove(temporary, error);
    return synced;
  }
  fs::rename(temporary, path_, error);
  if (error) {
    fs::remove(temporary, error);
    return Status::IOError("cannot replace " + path_ + ": " + error.message());
  }
  return SyncParentDirectory(path_);
}

}  // namespace rockpoint::cli
