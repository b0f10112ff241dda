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
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/contract_suite.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/jsonl/line_checksum.h"
#include "formats/json_text.h"
#include "rockpoint/encryption.h"

namespace {

using Json = nlohmann::ordered_json;
using rockpoint::testing::RecordKind;
using rockpoint::testing::RecordRef;

// Whether the journal line `json` holds `record`.
bool Holds(const Json& json, const RecordRef& record) {
  if (json.value("thread", "") != record.thread ||
      json.value("ns", "x") != "") {
    return false;
  }
  switch (record.kind) {
    case RecordKind::kCheckpoint:
      return json["kind"] == "checkpoint" && json["id"] == record.checkpoint;
    case RecordKind::kValue:
      return json["kind"] == "value" && json["channel"] == "a" &&
             json["version"].dump() == std::to_string(record.version);
    case RecordKind::kWrite:
      break;
  }
  return json["kind"] == "write" && json["checkpoint"] == record.checkpoint &&
         json["task_id"] == "task" && json["idx"] == 0;
}

// Journals in a directory. Raw access edits a record's line (its checksum
// made anew, so that replay reaches the sealed bytes); a damaged record
// fails the open, which replays every line.
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
  // store_writer_main, compacting every 4th put of chain 0, in fewer rounds
  // than RocksDB's (one file, one recovery path: replay, cut the tail).
  std::optional<rockpoint::testing::KillPlan> KillPlanFor(
      const std::string& name) override {
    return rockpoint::testing::KillPlan{
        .binary = std::string(ROCKPOINT_TEST_BINARY_DIR) + "/store_writer_main",
        .args = {"jsonl:" + PathOf(name), "jsonl-crash", "--compact-every",
                 "4"},
        .prefix = "jsonl-crash",
        .rounds = 12,
        .early_kill_every = 4,
        .compact_every = 3};
  }
  rockpoint::Status Compact(rockpoint::Checkpointer& store) override {
    return store.maintenance()->Compact();
  }
  bool raw() const override { return true; }
  bool damage_fails_open() const override { return true; }
  std::string Sealed(const std::string& name,
                     const RecordRef& record) override {
    const Json line = Json::parse(LineOf(name, record).second);
    return rockpoint::testing::Unwrap(
        rockpoint::formats::Base64Decode(line["sealed"].get<std::string>()));
  }
  void SetSealed(const std::string& name, const RecordRef& record,
                 const std::string& bytes) override {
    const size_t number = LineOf(name, record).first;
    // The line as first seen, so that a plaintext line injected since
    // becomes a sealed one again.
    Json line = Json::parse(originals_.at({name, Key(record)}));
    line["sealed"] = rockpoint::formats::Base64Encode(bytes);
    Replace(name, number, line.dump());
  }
  // The plaintext journal's line of the same record.
  void InjectPlaintext(const std::string& name, const std::string& plain,
                       const RecordRef& record) override {
    Replace(name, LineOf(name, record).first, LineOf(plain, record).second);
  }
  // The record's key and its line, as of the last raw access to it.
  std::vector<std::string> NamesOf(const RecordRef& record) const override {
    std::string key;
    switch (record.kind) {
      case RecordKind::kCheckpoint:
        key = "(\"cp\", \"" + record.thread + "\", \"\", \"" +
              record.checkpoint + "\")";
        break;
      case RecordKind::kValue:
        key = "value at (\"bl\", \"" + record.thread + "\"";
        break;
      case RecordKind::kWrite:
        key = "write at (\"wr\", \"" + record.thread + "\"";
        break;
    }
    const auto at = lines_.find(Key(record));
    REQUIRE(at != lines_.end());
    return {key, "line " + std::to_string(at->second)};
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
  // The 1-based number of `record`'s line in journal `name`, and the line
  // without its checksum.
  std::pair<size_t, std::string> LineOf(const std::string& name,
                                        const RecordRef& record) {
    std::istringstream journal(rockpoint::testing::FileBytes(PathOf(name)));
    std::string line;
    for (size_t number = 1; std::getline(journal, line); ++number) {
      if (number == 1) continue;  // the header.
      std::string text =
          rockpoint::testing::Unwrap(rockpoint::jsonl::OpenCheckedLine(line));
      const Json json = Json::parse(text, nullptr, false);
      if (json.is_object() && Holds(json, record)) {
        lines_[Key(record)] = number;
        originals_.try_emplace({name, Key(record)}, text);
        return {number, std::move(text)};
      }
    }
    FAIL("no line of the record in " << name);
    return {};
  }
  // Journal `name` with line `number` replaced by `text` and its checksum.
  void Replace(const std::string& name, size_t number,
               const std::string& text) {
    std::istringstream journal(rockpoint::testing::FileBytes(PathOf(name)));
    std::string out;
    std::string line;
    for (size_t at = 1; std::getline(journal, line); ++at) {
      out += at == number ? rockpoint::jsonl::WithLineChecksums(text + "\n")
                          : line + "\n";
    }
    std::ofstream(PathOf(name), std::ios::binary | std::ios::trunc) << out;
  }

  using RecordKey = std::pair<int, std::string>;  // kind, thread.
  static RecordKey Key(const RecordRef& record) {
    return {static_cast<int>(record.kind), record.thread};
  }

  const rockpoint::testing::TempDir& dir_;
  // The line number of each record at its last raw access.
  std::map<RecordKey, size_t> lines_;
  // The text of each record's line of each journal, as first seen.
  std::map<std::pair<std::string, RecordKey>, std::string> originals_;
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
