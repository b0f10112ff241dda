// The contract suite on JsonlCheckpointer, twice, each Reopen() really
// closing the journal and replaying it on open:
//   jsonl          default compaction (after 1000 lines at the least), so
//                  the suite's small stores are read back from the journal
//                  exactly as appended, deletes and prunes as lines;
//   jsonl-compact-encrypted
//                  an encrypted store (the key in EncryptionOptions),
//                  auto_compact_min_lines 1 and a Compact() before every
//                  reopen, so sealed lines are both appended and rewritten
//                  by compaction, and every read after a reopen comes from
//                  a sealed snapshot.
// The first makes the stores of the cases that need their own
// (ContractStores), as journals in its directory; it has no raw access
// (the journal's own tests edit lines: jsonl_encryption_test.cpp).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "engine/contract_suite.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "rockpoint/encryption.h"

namespace {

// Journals in a directory.
class JsonlStores final : public rockpoint::testing::ContractStores {
 public:
  explicit JsonlStores(const rockpoint::testing::TempDir& dir) : dir_(dir) {}
  rockpoint::Result<std::unique_ptr<rockpoint::Checkpointer>> Open(
      const std::string& name,
      const rockpoint::testing::OpenSpec& spec) override {
    rockpoint::JsonlOptions options;
    options.path = PathOf(name);
    options.sync_writes = false;
    return rockpoint::testing::OpenWithSpec<rockpoint::JsonlCheckpointer>(
        options, spec);
  }
  // The journal's bytes.
  std::string Fingerprint(const std::string& name) override {
    return rockpoint::testing::FileBytes(PathOf(name));
  }
  // jsonl_crash_writer_main, in fewer rounds than RocksDB's (one file, one
  // recovery path: replay, cut the tail).
  std::optional<rockpoint::testing::KillPlan> KillPlanFor(
      const std::string& name) override {
    return rockpoint::testing::KillPlan{
        .binary =
            std::string(ROCKPOINT_TEST_BINARY_DIR) + "/jsonl_crash_writer_main",
        .args = {PathOf(name), "jsonl-crash"},
        .prefix = "jsonl-crash",
        .rounds = 12,
        .early_kill_every = 4,
        .compact_every = 3};
  }
  rockpoint::Status Compact(rockpoint::Checkpointer& store) override {
    return dynamic_cast<rockpoint::JsonlCheckpointer&>(store).Compact();
  }
  // The read-write open cut the torn tail: the file is what it counts.
  bool CheckRecovered(const std::string& name,
                      rockpoint::Checkpointer& store) override {
    const rockpoint::JsonlStats stats = rockpoint::testing::Unwrap(
        dynamic_cast<rockpoint::JsonlCheckpointer&>(store).Stats());
    CHECK(stats.file_bytes == std::filesystem::file_size(PathOf(name)));
    return stats.torn_tail_bytes > 0;
  }

 private:
  std::string PathOf(const std::string& name) const {
    return dir_.Sub("stores-" + name + ".jsonl");
  }

  const rockpoint::testing::TempDir& dir_;
};

// A journal in a fresh directory; `compact` selects the second variant
// (compacting and encrypted).
class JsonlHarnessBase {
 public:
  explicit JsonlHarnessBase(bool compact) : compact_(compact) { Open(); }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    if (compact_) RP_REQUIRE_OK(store_->Compact());
    RP_REQUIRE_OK(store_->Close());
    store_.reset();
    Open();
  }
  // The first variant's alone: the second would repeat their cases.
  rockpoint::testing::ContractStores* stores() {
    return compact_ ? nullptr : &stores_;
  }

 private:
  void Open() {
    rockpoint::JsonlOptions options;
    options.path = dir_.Sub("checkpoints.jsonl");
    // Durability across a process crash is contract_kill.h's subject; no
    // fdatasync keeps the suite quick.
    options.sync_writes = false;
    if (compact_) {
      options.auto_compact_min_lines = 1;
      options.encryption = rockpoint::EncryptionOptions{kKey};
    }
    store_ =
        rockpoint::testing::Unwrap(rockpoint::JsonlCheckpointer::Open(options));
  }

  static constexpr const char* kKey = "0123456789abcdef0123456789abcdef";

  bool compact_;
  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::JsonlCheckpointer> store_;
  JsonlStores stores_{dir_};
};

class JsonlHarness : public JsonlHarnessBase {
 public:
  static constexpr const char* kName = "jsonl";
  JsonlHarness() : JsonlHarnessBase(/*compact=*/false) {}
};

class JsonlCompactingHarness : public JsonlHarnessBase {
 public:
  static constexpr const char* kName = "jsonl-compact-encrypted";
  JsonlCompactingHarness() : JsonlHarnessBase(/*compact=*/true) {}
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(JsonlHarness);
ROCKPOINT_CONTRACT_SUITE(JsonlCompactingHarness);
