// The contract suite on SqliteCheckpointer, twice: an encrypted file
// database (key given in EncryptionOptions) that Reopen() really closes and
// reopens (WAL and all), and a plaintext ":memory:" one (where Reopen() is
// a no-op, since closing would lose everything). The first makes the
// stores of the cases that need their own (ContractStores), as files in its
// directory, with raw access through SQL.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/contract_suite.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "engine/sqlite/sqlite_test_util.h"

namespace {

using rockpoint::testing::RecordKind;
using rockpoint::testing::RecordRef;

// The statements that read and set one record column: ?1 the thread, ?2
// the checkpoint id (a checkpoint or write) or the version (a value), ?3
// the new bytes.
struct RecordColumn {
  const char* select;
  const char* update;
};

RecordColumn ColumnOf(RecordKind kind) {
  switch (kind) {
    case RecordKind::kCheckpoint:
      return {
          "SELECT checkpoint FROM checkpoints WHERE thread_id = ?1 AND "
          "checkpoint_ns = x'' AND checkpoint_id = ?2",
          "UPDATE checkpoints SET checkpoint = ?3 WHERE thread_id = ?1 AND "
          "checkpoint_ns = x'' AND checkpoint_id = ?2"};
    case RecordKind::kValue:
      return {
          "SELECT blob FROM checkpoint_blobs WHERE thread_id = ?1 AND "
          "checkpoint_ns = x'' AND channel = CAST('a' AS BLOB) AND "
          "version = CAST(?2 AS INTEGER)",
          "UPDATE checkpoint_blobs SET blob = ?3 WHERE thread_id = ?1 AND "
          "checkpoint_ns = x'' AND channel = CAST('a' AS BLOB) AND "
          "version = CAST(?2 AS INTEGER)"};
    case RecordKind::kWrite:
      break;
  }
  return {
      "SELECT value FROM checkpoint_writes WHERE thread_id = ?1 AND "
      "checkpoint_ns = x'' AND checkpoint_id = ?2 AND task_id = "
      "CAST('task' AS BLOB) AND idx = 0",
      "UPDATE checkpoint_writes SET value = ?3 WHERE thread_id = ?1 AND "
      "checkpoint_ns = x'' AND checkpoint_id = ?2 AND task_id = "
      "CAST('task' AS BLOB) AND idx = 0"};
}

// ?2 of ColumnOf's statements for `record`.
std::string PlaceOf(const RecordRef& record) {
  return record.kind == RecordKind::kValue ? std::to_string(record.version)
                                           : record.checkpoint;
}

// Database files in a directory of their own.
class SqliteStores final : public rockpoint::testing::ContractStores {
 public:
  rockpoint::Result<std::unique_ptr<rockpoint::Checkpointer>> Open(
      const std::string& name,
      const rockpoint::testing::OpenSpec& spec) override {
    rockpoint::SqliteOptions options;
    options.path = PathOf(name);
    options.sync_writes = false;
    return rockpoint::testing::OpenWithSpec<rockpoint::SqliteCheckpointer>(
        options, spec);
  }
  // store_writer_main on the database file: SQLite recovers its WAL; every
  // commit a synced call acknowledged is in it (synchronous=FULL).
  std::optional<rockpoint::testing::KillPlan> KillPlanFor(
      const std::string& name) override {
    return rockpoint::testing::KillPlan{
        .binary = std::string(ROCKPOINT_TEST_BINARY_DIR) + "/store_writer_main",
        .args = {"sqlite:" + PathOf(name), "sqlite-crash"},
        .prefix = "sqlite-crash",
        .rounds = 8,
        .early_kill_every = 4,
        .compact_every = 8};
  }
  // The database file's bytes and its rows.
  std::string Fingerprint(const std::string& name) override {
    return rockpoint::testing::FileBytes(PathOf(name)) + "\n" +
           rockpoint::testing::Dump(PathOf(name));
  }
  // Every row.
  std::string Records(const std::string& name) override {
    return rockpoint::testing::Dump(PathOf(name));
  }
  bool raw() const override { return true; }
  std::string Sealed(const std::string& name,
                     const RecordRef& record) override {
    std::vector<std::string> values =
        rockpoint::testing::RawDb(PathOf(name))
            .Blobs(ColumnOf(record.kind).select,
                   {record.thread, PlaceOf(record)});
    REQUIRE(values.size() == 1);
    return values.front();
  }
  void SetSealed(const std::string& name, const RecordRef& record,
                 const std::string& bytes) override {
    rockpoint::testing::RawDb(PathOf(name))
        .Run(ColumnOf(record.kind).update,
             {record.thread, PlaceOf(record), bytes});
  }
  // A value row.
  std::optional<std::vector<std::string>> DeleteRecord(
      const std::string& name, const RecordRef& record) override {
    if (record.kind != RecordKind::kValue) return std::nullopt;
    rockpoint::testing::RawDb(PathOf(name))
        .Run(
            "DELETE FROM checkpoint_blobs WHERE thread_id = ?1 AND "
            "checkpoint_ns = x'' AND channel = CAST('a' AS BLOB) AND "
            "version = CAST(?2 AS INTEGER)",
            {record.thread, PlaceOf(record)});
    return std::vector<std::string>{"checkpoint_blobs row (thread_id=\"" +
                                    record.thread +
                                    "\", checkpoint_ns=\"\", channel=\"a\")"};
  }
  // A checkpoint column.
  std::optional<std::vector<std::string>> BreakRecord(
      const std::string& name, const RecordRef& record) override {
    if (record.kind != RecordKind::kCheckpoint) return std::nullopt;
    SetSealed(name, record, std::string("\xff\x00", 2));  // x'ff00'
    return std::vector<std::string>{record.checkpoint};
  }
  std::vector<std::string> NamesOf(const RecordRef& record) const override {
    const std::string& thread = record.thread;
    switch (record.kind) {
      case RecordKind::kCheckpoint:
        return {"checkpoint record at (\"cp\", \"" + thread + "\", \"\", \"" +
                record.checkpoint + "\")"};
      case RecordKind::kValue:
        return {"channel value at (\"bl\", \"" + thread + "\", \"\", \"a\", " +
                std::to_string(record.version) + ")"};
      case RecordKind::kWrite:
        break;
    }
    return {"pending write at (\"wr\", \"" + thread + "\", \"\", \"" +
            record.checkpoint + "\", \"\", \"task\", 0)"};
  }

 private:
  std::string PathOf(const std::string& name) const {
    return dir_.Sub(name + ".sqlite");
  }

  rockpoint::testing::TempDir dir_;
};

class SqliteEncryptedFileHarness {
 public:
  static constexpr const char* kName = "sqlite-file-encrypted";
  SqliteEncryptedFileHarness() { Open(); }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    store_.reset();
    Open();
  }
  rockpoint::testing::ContractStores* stores() { return &stores_; }

 private:
  void Open() {
    rockpoint::SqliteOptions options;
    options.path = dir_.Sub("checkpoints.sqlite");
    // Durability across a process crash is not what the suite checks;
    // NORMAL keeps it quick.
    options.sync_writes = false;
    options.encryption = rockpoint::EncryptionOptions{
        std::string(rockpoint::kEncryptionKeyBytes, '\x5a')};
    store_ = rockpoint::testing::Unwrap(
        rockpoint::SqliteCheckpointer::Open(options));
  }

  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::SqliteCheckpointer> store_;
  SqliteStores stores_;
};

class SqliteMemoryHarness {
 public:
  static constexpr const char* kName = "sqlite-memory";
  SqliteMemoryHarness() {
    rockpoint::SqliteOptions options;
    options.path = ":memory:";
    store_ = rockpoint::testing::Unwrap(
        rockpoint::SqliteCheckpointer::Open(options));
  }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {}

 private:
  std::unique_ptr<rockpoint::SqliteCheckpointer> store_;
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(SqliteEncryptedFileHarness);
ROCKPOINT_CONTRACT_SUITE(SqliteMemoryHarness);
