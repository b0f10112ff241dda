// BackendName (rockpoint/open.h), beside the engine every backend links, so
// that a backend's messages can name it.
#include "rockpoint/open.h"

namespace rockpoint {

std::string_view BackendName(BackendKind backend) {
  switch (backend) {
    case BackendKind::kRocksDb:
      return "rocksdb";
    case BackendKind::kSqlite:
      return "sqlite";
    case BackendKind::kJsonl:
      return "jsonl";
    case BackendKind::kPostgres:
      return "postgres";
    case BackendKind::kMemory:
      return "memory";
  }
  return "?";
}

}  // namespace rockpoint
