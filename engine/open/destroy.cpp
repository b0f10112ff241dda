// DestroyStore (rockpoint/maintenance.h): a store's files, with those its
// backend keeps beside the main one.
#include <filesystem>
#include <string>
#include <system_error>

#include "engine/jsonl/journal_file.h"
#include "rockpoint/maintenance.h"

namespace rockpoint {
namespace {

namespace fs = std::filesystem;

// Removes `path` (a directory with everything in it); OK when it is gone.
Status RemovePath(const std::string& path) {
  std::error_code error;
  fs::remove_all(path, error);
  if (error) {
    return Status::IOError("cannot remove " + path + ": " + error.message());
  }
  return Status::OK();
}

}  // namespace

Status DestroyStore(const StoreLocation& location) {
  const std::string& path = location.target;
  switch (location.backend) {
    case BackendKind::kRocksDb:
      return RemovePath(path);
    case BackendKind::kSqlite:
      // The database, then its journal, WAL and shared-memory files.
      for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
        RP_RETURN_IF_ERROR(RemovePath(path + suffix));
      }
      return Status::OK();
    case BackendKind::kJsonl:
      RP_RETURN_IF_ERROR(RemovePath(path));
      return RemovePath(jsonl::CompactionPath(path));
    case BackendKind::kPostgres:
      return Status::NotSupported(
          "a PostgreSQL store is not destroyed by rockpoint: drop its "
          "tables or database with the server's tools");
    case BackendKind::kMemory:
      break;
  }
  return Status::NotSupported("a memory: store has nothing to destroy");
}

}  // namespace rockpoint
