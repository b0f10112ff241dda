// What the RocksDB backend's .cpp files share beyond the class itself
// (rocksdb_checkpointer.h): the opener that takes a test's Env, the format
// versions, the encryption set-up, the translation of RocksDB statuses and
// scoped snapshots. Private to engine/rocksdb/ and its tests.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/record_cipher.h"
#include "engine/rocksdb/prefix_scan.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_status.h"
#include "engine/rocksdb/write_counters.h"
#include "serde/records.h"

namespace rockpoint {

// Opens a store on the file system of `env`: RocksDbCheckpointer::Open
// passes nullptr (the default Env); a test passes an Env over a
// fault-injecting rocksdb::FileSystem. Every file and directory the store
// creates, its own directory included, goes through that file system.
// REQUIRES: `env` (when given) outlives the store.
class RocksDbOpener {
 public:
  static Result<std::unique_ptr<RocksDbCheckpointer>> Open(
      const RocksDbOptions& options, rocksdb::Env* env);
};

// Store format versions (engine/rocksdb/FORMAT.md "Format version and
// Open"): 3 and 5 are encrypted stores; 4 and 5 keep hidden counts
// (hidden_counts.h).
inline constexpr int64_t kEncryptedFormatWithoutHiddenCounts = 3;
constexpr bool IsEncryptedFormat(int64_t version) {
  return version == kEncryptedFormatWithoutHiddenCounts ||
         version == RocksDbCheckpointer::kEncryptedFormatVersion;
}
constexpr bool KeepsHiddenCounts(int64_t version) {
  return version >= RocksDbCheckpointer::kFormatVersion;
}

// Sets backend.cipher from backend.options.encryption and what the store's
// `meta` keeps (engine/rocksdb/FORMAT.md "Encryption"): writes the store id,
// key check and the encrypted format version into a new encrypted store;
// InvalidArgument for a missing or wrong key, or a key given for a plaintext
// store with data. `format_version` is the store's, as Open found or wrote it.
Status SetUpEncryption(RocksDbCheckpointer& backend, int64_t format_version);

// A RocksDB snapshot of the store's database, released on destruction,
// counted in backend.live_snapshots while it lives (Close is Busy until
// none is left).
// REQUIRES: destroyed before the store is closed.
class ScopedSnapshot {
 public:
  explicit ScopedSnapshot(const RocksDbCheckpointer& backend)
      : db_(backend.db.get()),
        live_(&backend.live_snapshots),
        snapshot_(db_->GetSnapshot()) {
    live_->fetch_add(1, std::memory_order_relaxed);
  }
  ~ScopedSnapshot() {
    db_->ReleaseSnapshot(snapshot_);
    live_->fetch_sub(1, std::memory_order_relaxed);
  }
  ScopedSnapshot(const ScopedSnapshot&) = delete;
  ScopedSnapshot& operator=(const ScopedSnapshot&) = delete;

  // Read options reading at this snapshot.
  rocksdb::ReadOptions Read() const {
    rocksdb::ReadOptions options;
    options.snapshot = snapshot_;
    return options;
  }

 private:
  rocksdb::DB* db_;
  std::atomic<uint64_t>* live_;
  const rocksdb::Snapshot* snapshot_;
};

// The run id a checkpoint is indexed under: metadata "run_id" when it is a
// string, else nullopt (not indexed).
std::optional<std::string> IndexedRunId(const Metadata& metadata);

}  // namespace rockpoint
