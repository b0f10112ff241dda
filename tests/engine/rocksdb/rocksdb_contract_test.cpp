// RocksDbCheckpointer: the contract suite twice, once on a plaintext store
// that stays open, once on an encrypted store (docs/ENCRYPTION.md) closed
// and reopened between each case's writes and reads (what was read survived
// a reopen, and sealing changes no answer). The first makes the stores of
// the cases that need their own (ContractStores), as directories beside its
// own, with raw access through the maintenance functions' raw scan and put.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/contract_suite.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "keys/tuple.h"
#include "rockpoint/forwarding_checkpointer.h"
#include "rockpoint/maintenance.h"

namespace {

namespace keys = rockpoint::keys;
using rockpoint::testing::RecordKind;
using rockpoint::testing::RecordRef;

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

// The column family and key of `record`.
std::pair<std::string, std::string> RawKeyOf(const RecordRef& record) {
  using keys::Tuple;
  const std::string thread = record.thread;
  switch (record.kind) {
    case RecordKind::kCheckpoint:
      return {"checkpoints",
              keys::Encode(Tuple({std::string("cp"), thread, std::string(),
                                  record.checkpoint}))};
    case RecordKind::kValue:
      return {"blobs",
              keys::Encode(Tuple({std::string("bl"), thread, std::string(),
                                  std::string("a"), record.version}))};
    case RecordKind::kWrite:
      break;
  }
  return {"writes",
          keys::Encode(Tuple({std::string("wr"), thread, std::string(),
                              record.checkpoint, std::string(),
                              std::string("task"), int64_t{0}}))};
}

// Store directories beside the harness's own. Raw access goes through an
// open store (RocksDB's lock admits one), opened with the key the store was
// made with. Opening a store takes long enough to count here, so each store
// stays open between read-write opens with one key, and Open hands out a
// view of it (raw puts are seen at once); any other open closes it first.
class RocksDbStores final : public rockpoint::testing::ContractStores {
 public:
  explicit RocksDbStores(const rockpoint::testing::TempDir& dir) : dir_(dir) {}
  rockpoint::Result<std::unique_ptr<rockpoint::Checkpointer>> Open(
      const std::string& name,
      const rockpoint::testing::OpenSpec& spec) override {
    const auto held = held_.find(name);
    if (Holdable(spec) && held != held_.end() && held->second.key == spec.key) {
      return ViewOf(*held->second.store);
    }
    Release(name);
    auto opened = OpenRaw(name, spec);
    if (!opened.ok()) return opened.status();
    keys_.try_emplace(name, spec.key);
    if (!Holdable(spec)) {
      return std::unique_ptr<rockpoint::Checkpointer>(
          std::move(opened).value());
    }
    return ViewOf(*(held_[name] = {spec.key, std::move(opened).value()}).store);
  }
  void Release(const std::string& name) override { held_.erase(name); }
  // Nothing compared: a refused open may still write RocksDB's log.
  std::string Fingerprint(const std::string&) override { return ""; }
  bool raw() const override { return true; }
  std::string Sealed(const std::string& name,
                     const RecordRef& record) override {
    const auto [family, key] = RawKeyOf(record);
    std::optional<std::string> value;
    RP_REQUIRE_OK(rockpoint::ScanRaw(Held(name), family, key,
                                     [&](const rockpoint::RawEntry& entry) {
                                       if (entry.key == key)
                                         value = entry.value;
                                       return false;
                                     }));
    REQUIRE_MESSAGE(value.has_value(), keys::Describe(key));
    return *value;
  }
  void SetSealed(const std::string& name, const RecordRef& record,
                 const std::string& bytes) override {
    const auto [family, key] = RawKeyOf(record);
    RP_REQUIRE_OK(rockpoint::PutRawForTesting(Held(name), family, key, bytes));
  }
  // A value record deleted through the store's database, as a lost blob
  // would leave it.
  std::optional<std::vector<std::string>> DeleteRecord(
      const std::string& name, const RecordRef& record) override {
    if (record.kind != RecordKind::kValue) return std::nullopt;
    rockpoint::RocksDbCheckpointer& store = Held(name);
    REQUIRE(store.db
                ->Delete(rocksdb::WriteOptions(), store.blobs,
                         RawKeyOf(record).second)
                .ok());
    return NamesOf(record);
  }
  // A record that does not decode, as RocksDB holds it.
  std::optional<std::vector<std::string>> BreakRecord(
      const std::string& name, const RecordRef& record) override {
    SetSealed(name, record, "\x07not a record");
    return std::vector<std::string>{NamesOf(record)};
  }
  // store_writer_main (crash_protocol.h); RocksDB recovers its WAL, and
  // after compactions its SST and blob files.
  std::optional<rockpoint::testing::KillPlan> KillPlanFor(
      const std::string& name) override {
    return rockpoint::testing::KillPlan{
        .binary = std::string(ROCKPOINT_TEST_BINARY_DIR) + "/store_writer_main",
        .args = {"rocksdb:" + PathOf(name), "crash-test"},
        .prefix = "crash-test",
        .rounds = 24,
        .early_kill_every = 6,
        .compact_every = 4};
  }
  rockpoint::Status Compact(rockpoint::Checkpointer& store) override {
    return store.maintenance()->Compact();
  }
  std::vector<std::string> NamesOf(const RecordRef& record) const override {
    return {keys::Describe(RawKeyOf(record).second)};
  }

 private:
  rockpoint::Result<std::unique_ptr<rockpoint::RocksDbCheckpointer>> OpenRaw(
      const std::string& name, const rockpoint::testing::OpenSpec& spec) {
    rockpoint::RocksDbOptions options;
    options.path = PathOf(name);
    rockpoint::testing::ApplySpec(spec, &options);
    options.sync_writes = false;
    options.block_cache_bytes = 4 << 20;
    options.blob_file_min_bytes = 4096;  // as the crash writer's.
    return rockpoint::RocksDbCheckpointer::Open(options);
  }

  std::string PathOf(const std::string& name) const {
    return dir_.Sub("stores-" + name);
  }
  // A key from the environment may change between opens.
  static bool Holdable(const rockpoint::testing::OpenSpec& spec) {
    return !spec.read_only && !(spec.key && spec.key->empty());
  }
  static std::unique_ptr<rockpoint::Checkpointer> ViewOf(
      rockpoint::RocksDbCheckpointer& store) {
    return std::make_unique<rockpoint::ForwardingCheckpointer>(&store);
  }
  // Store `name`, held open, with the key it was made with.
  rockpoint::RocksDbCheckpointer& Held(const std::string& name) {
    auto held = held_.find(name);
    if (held == held_.end()) {
      const std::optional<std::string>& key = keys_.at(name);
      held = held_
                 .emplace(name, Holding{key, rockpoint::testing::Unwrap(
                                                 OpenRaw(name, {key}))})
                 .first;
    }
    return *held->second.store;
  }

  const rockpoint::testing::TempDir& dir_;
  // The key each store was made with.
  std::map<std::string, std::optional<std::string>> keys_;
  // The stores held open, each with the key it was opened with.
  struct Holding {
    std::optional<std::string> key;
    std::unique_ptr<rockpoint::RocksDbCheckpointer> store;
  };
  std::map<std::string, Holding> held_;
};

// The store stays open for the whole case.
struct RocksDbHarness {
  static constexpr const char* kName = "rocksdb";
  RocksDbHarness() : store_(OpenStore(dir_.Sub("store"))) {}
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {}
  rockpoint::testing::ContractStores* stores() { return &stores_; }

 private:
  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::RocksDbCheckpointer> store_;
  RocksDbStores stores_{dir_};
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
