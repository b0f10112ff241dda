#include "bench/subjects.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "bench/measure.h"

namespace rockpoint::bench {

namespace fs = std::filesystem;

Result<std::unique_ptr<Scratch>> Scratch::Create(std::string root) {
  bool owned = false;
  if (root.empty()) {
    root = (fs::temp_directory_path() /
            ("rockpoint-bench-" + std::to_string(::getpid())))
               .string();
    owned = true;
  }
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    return Status::IOError("work dir " + root + ": " + error.message());
  }
  return std::unique_ptr<Scratch>(new Scratch(std::move(root), owned));
}

Scratch::~Scratch() {
  std::error_code error;
  if (owned_) fs::remove_all(root_, error);
}

Result<std::string> Scratch::NewDirectory(std::string_view name) {
  const fs::path path =
      fs::path(root_) / (std::to_string(++counter_) + "-" + std::string(name));
  std::error_code error;
  fs::remove_all(path, error);
  fs::create_directories(path, error);
  if (error) {
    return Status::IOError("scratch " + path.string() + ": " + error.message());
  }
  return path.string();
}

Checkpointer& Stores::Of(std::string_view subject) {
  if (subject == kSqlite) return *sqlite;
  if (subject == kJsonl) return *jsonl;
  return *rockpoint;
}

void Stores::Close() {
  rockpoint.reset();
  sqlite.reset();
  jsonl.reset();
  raw.reset();
  if (!directory.empty()) {
    std::error_code error;
    fs::remove_all(directory, error);
    directory.clear();
  }
}

Result<std::unique_ptr<Stores>> OpenStores(Scratch& scratch,
                                           std::string_view name,
                                           bool sync_writes, bool with_raw) {
  auto stores = std::make_unique<Stores>();
  RP_ASSIGN_OR_RETURN(stores->directory, scratch.NewDirectory(name));
  const fs::path dir(stores->directory);

  RocksDbOptions rocks;
  rocks.path = (dir / "rockpoint").string();
  rocks.sync_writes = sync_writes;
  RP_ASSIGN_OR_RETURN(stores->rockpoint, RocksDbCheckpointer::Open(rocks));

  SqliteOptions sqlite;
  sqlite.path = (dir / "sqlite.db").string();
  sqlite.sync_writes = sync_writes;
  RP_ASSIGN_OR_RETURN(stores->sqlite, SqliteCheckpointer::Open(sqlite));

  JsonlOptions jsonl;
  jsonl.path = (dir / "store.jsonl").string();
  jsonl.sync_writes = sync_writes;
  RP_ASSIGN_OR_RETURN(stores->jsonl, JsonlCheckpointer::Open(jsonl));

  if (with_raw) {
    RP_ASSIGN_OR_RETURN(stores->raw,
                        RawRocksDb::Open((dir / "raw").string(), sync_writes));
  }
  return stores;
}

}  // namespace rockpoint::bench
