// StoreBackend: what a Store needs from an engine, an ordered key-value map
// per family with consistent reads and atomic writes. Everything the store
// means (items, namespaces, expiry, vectors) is decided above it, in
// engine/store/ (engine/store/FORMAT.md gives the keys and records), so a
// backend is only storage.
//
// Private to engine/store/. Thread-safety: a backend serves any number of
// readers at once; the Store serializes Write calls.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::store_internal {

// The families a store keeps. Persisted as the RocksDB column family names
// (StoreFamilyName): do not rename.
enum class StoreFamily : uint8_t {
  kItems = 0,       // item key -> item record
  kNamespaces = 1,  // namespace key -> item count
  kExpiry = 2,      // expiry key -> ""
  kVectors = 3,     // vector key -> float32 vector
  kMeta = 4,        // meta name -> value
  kRecent = 5,      // recency key -> ""
};
inline constexpr int kStoreFamilyCount = 6;

// "store.items", "store.namespaces", "store.expiry", "store.vectors",
// "store.meta", "store.recent".
const char* StoreFamilyName(StoreFamily family);

// One change of a write: a put when `value` is set, else a delete.
struct StoreMutation {
  StoreFamily family;
  std::string key;
  std::optional<std::string> value;
};

// Called for each key in order; returns false to stop the scan.
using ScanVisitor =
    std::function<bool(std::string_view key, std::string_view value)>;

// A consistent view of the backend as of its creation.
// REQUIRES: destroyed before its backend.
class StoreReader {
 public:
  virtual ~StoreReader() = default;
  // The value at `key`; nullopt when absent.
  virtual Result<std::optional<std::string>> Read(StoreFamily family,
                                                  std::string_view key) = 0;
  // Every key in [begin, end) in byte order (end empty: to the family's
  // end), until `visit` returns false.
  virtual Status Scan(StoreFamily family, std::string_view begin,
                      std::string_view end, const ScanVisitor& visit) = 0;
};

class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  virtual Result<std::unique_ptr<StoreReader>> NewReader() = 0;
  // Applies every mutation in one atomic write, durable on return when
  // `sync` (RocksDB: the WAL is fsynced).
  virtual Status Write(const std::vector<StoreMutation>& mutations,
                       bool sync) = 0;
  // Releases the storage (RocksDB: closes the database and its lock).
  // Idempotent; no call follows but the destructor.
  virtual Status Close() = 0;
};

// A new, empty backend in process memory.
std::unique_ptr<StoreBackend> NewMemoryStoreBackend();

struct RocksDbStoreSetup {
  std::string path;
  bool create_if_missing = true;
  bool read_only = false;
};
// Opens (or creates) the RocksDB directory `setup.path` as a store. Busy
// when another process holds it; InvalidArgument for a directory that holds
// something else (a checkpoint store, files that are not RocksDB's).
Result<std::unique_ptr<StoreBackend>> OpenRocksDbStoreBackend(
    const RocksDbStoreSetup& setup);

}  // namespace rockpoint::store_internal
