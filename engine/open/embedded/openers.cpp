// OpenBackend and RekeyBackend (engine/open/openers.h) of
// rockpoint_open_embedded: RocksDB and memory only.
#include "engine/open/openers.h"

namespace rockpoint {

Result<std::unique_ptr<Checkpointer>> OpenBackend(const StoreLocation& location,
                                                  const StoreOptions& options) {
  switch (location.backend) {
    case BackendKind::kRocksDb:
      return OpenRocksDbBackend(location, options);
    case BackendKind::kMemory:
      return OpenMemoryBackend(options);
    case BackendKind::kSqlite:
    case BackendKind::kJsonl:
    case BackendKind::kPostgres:
      break;
  }
  return BackendNotBuilt(location.backend);
}

Status RekeyBackend(const StoreLocation& location, const StoreOptions& options,
                    const std::optional<EncryptionOptions>& new_encryption) {
  if (location.backend == BackendKind::kRocksDb) {
    return RekeyRocksDbBackend(location, options, new_encryption);
  }
  if (location.backend == BackendKind::kMemory) {
    return Status::NotSupported("rekey is not supported by a memory store");
  }
  return BackendNotBuilt(location.backend);
}

}  // namespace rockpoint
