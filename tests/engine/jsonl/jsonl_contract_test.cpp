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
#include <fstream>
#include <iterator>
#include <memory>
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
    options.read_only = spec.read_only;
    if (spec.key) options.encryption = rockpoint::EncryptionOptions{*spec.key};
    auto opened = rockpoint::JsonlCheckpointer::Open(options);
    if (!opened.ok()) return opened.status();
    return std::unique_ptr<rockpoint::Checkpointer>(std::move(opened).value());
  }
  // The journal's bytes.
  std::string Fingerprint(const std::string& name) override {
    std::ifstream in(PathOf(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
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
    // Durability across a process crash is jsonl_crash_test's subject; no
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
