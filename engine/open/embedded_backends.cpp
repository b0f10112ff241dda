// The backends both Open libraries have (engine/open/openers.h): RocksDB
// and memory.
#include <memory>

#include "engine/open/openers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint {

Status BackendNotBuilt(BackendKind backend) {
  return Status::NotSupported(
      "this build opens rocksdb: and memory: stores only, not " +
      std::string(BackendName(backend)) +
      " (link rockpoint::open for every backend)");
}

Result<std::unique_ptr<Checkpointer>> OpenRocksDbBackend(
    const StoreLocation& location, const StoreOptions& options) {
  auto rocksdb = SharedOptions<RocksDbOptions>(location, options);
  rocksdb.blob_file_min_bytes = options.rocksdb.blob_file_min_bytes;
  rocksdb.block_cache_bytes = options.rocksdb.block_cache_bytes;
  return AsFront(RocksDbCheckpointer::Open(rocksdb));
}

Result<std::unique_ptr<Checkpointer>> OpenMemoryBackend(
    const StoreOptions& options) {
  if (options.encryption) {
    return Status::InvalidArgument(
        "memory: keeps nothing at rest to encrypt: options.encryption must "
        "be unset");
  }
  if (options.read_only) {
    return Status::InvalidArgument(
        "memory: starts empty, so options.read_only must be false");
  }
  return std::unique_ptr<Checkpointer>(std::make_unique<MemoryCheckpointer>(
      options.limits.value_or(CheckpointerLimits{})));
}

Status RekeyRocksDbBackend(
    const StoreLocation& location, const StoreOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  auto rocksdb = SharedOptions<RocksDbOptions>(location, options);
  rocksdb.create_if_missing = false;
  return RocksDbCheckpointer::Rekey(rocksdb, new_encryption);
}

}  // namespace rockpoint
