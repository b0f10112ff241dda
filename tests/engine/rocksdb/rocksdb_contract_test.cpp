// RocksDbCheckpointer: the contract suite twice, once on a plaintext store
// that stays open, once on an encrypted store (docs/ENCRYPTION.md) closed
// and reopened between each case's writes and reads (what was read survived
// a reopen, and sealing changes no answer).
#include <doctest/doctest.h>

#include <memory>

#include "engine/contract_suite.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace {

std::unique_ptr<rockpoint::RocksDbCheckpointer> OpenStore(
    const std::string& path, bool encrypted = false) {
  rockpoint::RocksDbOptions options;
  options.path = path;
  if (encrypted) {
    options.encryption = rockpoint::EncryptionOptions{
        std::string(rockpoint::kEncryptionKeyBytes, 'k')};
  }
  options.sync_writes = false;  // durability is not what these cases check
  options.block_cache_bytes = 4 << 20;
  return rockpoint::testing::Unwrap(
      rockpoint::RocksDbCheckpointer::Open(options));
}

// The store stays open for the whole case.
struct RocksDbHarness {
  static constexpr const char* kName = "rocksdb";
  RocksDbHarness() : store_(OpenStore(dir_.Sub("store"))) {}
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {}

 private:
  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::RocksDbCheckpointer> store_;
};

// An encrypted store; Reopen() closes the database and opens it again
// from disk.
struct RocksDbEncryptedReopenHarness {
  static constexpr const char* kName = "rocksdb-encrypted-reopen";
  RocksDbEncryptedReopenHarness()
      : store_(OpenStore(dir_.Sub("store"), /*encrypted=*/true)) {}
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    store_.reset();
    store_ = OpenStore(dir_.Sub("store"), /*encrypted=*/true);
  }

 private:
  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::RocksDbCheckpointer> store_;
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(RocksDbHarness);
ROCKPOINT_CONTRACT_SUITE(RocksDbEncryptedReopenHarness);
