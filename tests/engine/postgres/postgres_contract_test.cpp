// The contract suite on PostgresCheckpointer against the tests' server
// (tests/engine/postgres/postgres_test_server.h): one database for this
// binary, emptied for each case; Reopen() closes every connection and opens
// a new checkpointer, so what a case reads came back from the server.
//
// The suite runs twice, with one harness type (its database's state is
// per process): on a plaintext database (LangGraph's format) in this
// process, and on an encrypted one (the key in EncryptionOptions) in a child
// process of this binary, which the case "postgres: the contract suite on an
// encrypted database" starts with kEncryptedVariable set. The plaintext run
// makes the stores of the cases that need their own (ContractStores): a
// database each, with raw access through SQL.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/contract_suite.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_raw_db.h"
#include "engine/postgres/postgres_test_server.h"

namespace {

using rockpoint::testing::RecordKind;
using rockpoint::testing::RecordRef;

// The statements on the sealed bytes of one record: $1 the thread, $2 the
// checkpoint id (a checkpoint or write) or the version (a value).
struct SealedColumn {
  const char* select;
  const char* update;  // $3 the new sealed bytes.
  // The record made plaintext, as a plaintext store (or LangGraph's
  // saver) writes it.
  const char* plain;
};

SealedColumn ColumnOf(RecordKind kind) {
  switch (kind) {
    case RecordKind::kCheckpoint:
      return {
          "SELECT decode(checkpoint ->> '$sealed', 'base64') FROM checkpoints "
          "WHERE thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = $2",
          "UPDATE checkpoints SET checkpoint = jsonb_build_object('$sealed', "
          "translate(encode($3, 'base64'), E'\\n', ''), 'channel_versions', "
          "checkpoint -> 'channel_versions') WHERE thread_id = $1 AND "
          "checkpoint_ns = '' AND checkpoint_id = $2",
          "UPDATE checkpoints SET checkpoint = jsonb_build_object('v', 1, "
          "'id', checkpoint_id, 'ts', 'x', 'channel_values', '{}'::jsonb, "
          "'channel_versions', checkpoint -> 'channel_versions', "
          "'versions_seen', '{}'::jsonb) WHERE thread_id = $1 AND "
          "checkpoint_ns = '' AND checkpoint_id = $2"};
    case RecordKind::kValue:
      return {
          "SELECT blob FROM checkpoint_blobs WHERE thread_id = $1 AND "
          "checkpoint_ns = '' AND channel = 'a' AND version = $2",
          "UPDATE checkpoint_blobs SET type = '$sealed', blob = $3 WHERE "
          "thread_id = $1 AND checkpoint_ns = '' AND channel = 'a' AND "
          "version = $2",
          "UPDATE checkpoint_blobs SET type = 'json', blob = 'plain' WHERE "
          "thread_id = $1 AND checkpoint_ns = '' AND channel = 'a' AND "
          "version = $2"};
    case RecordKind::kWrite:
      break;
  }
  return {
      "SELECT blob FROM checkpoint_writes WHERE thread_id = $1 AND "
      "checkpoint_ns = '' AND checkpoint_id = $2 AND task_id = 'task' AND "
      "idx = 0",
      "UPDATE checkpoint_writes SET type = '$sealed', blob = $3 WHERE "
      "thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = $2 AND "
      "task_id = 'task' AND idx = 0",
      "UPDATE checkpoint_writes SET type = 'json', blob = 'plain' WHERE "
      "thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = $2 AND "
      "task_id = 'task' AND idx = 0"};
}

// $1 and $2 of ColumnOf's statements for `record`.
std::vector<std::string> PlaceOf(const RecordRef& record) {
  return {record.thread, record.kind == RecordKind::kValue
                             ? std::to_string(record.version)
                             : record.checkpoint};
}

// A database per name, made when first opened, dropped with this.
class PostgresStores final : public rockpoint::testing::ContractStores {
 public:
  ~PostgresStores() override {
    for (const auto& [name, url] : urls_) rockpoint::testing::DropDatabase(url);
  }
  rockpoint::Result<std::unique_ptr<rockpoint::Checkpointer>> Open(
      const std::string& name,
      const rockpoint::testing::OpenSpec& spec) override {
    rockpoint::PostgresOptions options;
    options.url = UrlOf(name);
    options.pool_size = 2;
    return rockpoint::testing::OpenWithSpec<rockpoint::PostgresCheckpointer>(
        options, spec);
  }
  // store_writer_main on the database, with text ids (TEXT columns): the
  // server rolls back the transaction the kill interrupts; every commit it
  // acknowledged stays.
  std::optional<rockpoint::testing::KillPlan> KillPlanFor(
      const std::string& name) override {
    return rockpoint::testing::KillPlan{
        .binary = std::string(ROCKPOINT_TEST_BINARY_DIR) + "/store_writer_main",
        .args = {UrlOf(name), "postgres-crash", "--text-ids"},
        .prefix = "postgres-crash",
        .text_ids = true,
        .rounds = 6,
        .early_kill_every = 3,
        .compact_every = 6};
  }
  // Every row, the stored encryption and rockpoint's schema version.
  std::string Fingerprint(const std::string& name) override {
    const std::string& url = UrlOf(name);
    return rockpoint::testing::Dump(url) + "\n" +
           rockpoint::testing::StoredEncryptionRow(url) + "\n" +
           rockpoint::testing::SchemaVersion(url);
  }
  bool raw() const override { return true; }
  std::string Sealed(const std::string& name,
                     const RecordRef& record) override {
    return rockpoint::testing::RawDb(UrlOf(name))
        .One(ColumnOf(record.kind).select, PlaceOf(record));
  }
  void SetSealed(const std::string& name, const RecordRef& record,
                 const std::string& bytes) override {
    std::vector<std::string> params = PlaceOf(record);
    params.push_back(bytes);
    rockpoint::testing::RawDb(UrlOf(name))
        .Run(ColumnOf(record.kind).update, params);
  }
  // The record made plaintext in place (`plain` is not needed).
  void InjectPlaintext(const std::string& name, const std::string& /*plain*/,
                       const RecordRef& record) override {
    rockpoint::testing::RawDb(UrlOf(name))
        .Run(ColumnOf(record.kind).plain, PlaceOf(record));
  }
  // A value row.
  std::optional<std::vector<std::string>> DeleteRecord(
      const std::string& name, const RecordRef& record) override {
    if (record.kind != RecordKind::kValue) return std::nullopt;
    rockpoint::testing::RawDb(UrlOf(name))
        .Run(
            "DELETE FROM checkpoint_blobs WHERE thread_id = $1 AND "
            "checkpoint_ns = '' AND channel = 'a' AND version = $2",
            PlaceOf(record));
    return std::vector<std::string>{"checkpoint_blobs row (thread_id=\"" +
                                    record.thread +
                                    "\", checkpoint_ns=\"\", channel=\"a\""};
  }
  // A checkpoint column that is JSON but no checkpoint.
  std::optional<std::vector<std::string>> BreakRecord(
      const std::string& name, const RecordRef& record) override {
    if (record.kind != RecordKind::kCheckpoint) return std::nullopt;
    rockpoint::testing::RawDb(UrlOf(name))
        .Run(
            "UPDATE checkpoints SET checkpoint = '\"x\"'::jsonb WHERE "
            "thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = $2",
            PlaceOf(record));
    return std::vector<std::string>{record.checkpoint, "checkpoint"};
  }
  std::vector<std::string> NamesOf(const RecordRef& record) const override {
    switch (record.kind) {
      case RecordKind::kCheckpoint:
        return {"checkpoint at", "\"cp\"", "\"" + record.checkpoint + "\""};
      case RecordKind::kValue:
        return {"value at", "\"bl\"", "\"a\""};
      case RecordKind::kWrite:
        break;
    }
    return {"write at", "\"wr\"", "\"" + record.checkpoint + "\"", "\"task\""};
  }
  // A page of tuples is read whole: a damaged record fails its page.
  bool lists_by_page() const override { return true; }

 private:
  const std::string& UrlOf(const std::string& name) {
    auto [at, made] = urls_.try_emplace(name);
    if (made)
      at->second = rockpoint::testing::FreshDatabase("contract_" + name);
    return at->second;
  }

  std::map<std::string, std::string> urls_;
};

// Set in the child process that runs the suite encrypted.
constexpr const char* kEncryptedVariable = "ROCKPOINT_TEST_POSTGRES_ENCRYPTED";

bool Encrypted() {
  const char* value = std::getenv(kEncryptedVariable);
  return value != nullptr && std::string(value) == "1";
}

// The database of this process's contract cases, created once.
const std::string& ContractDatabase() {
  static const std::string url = rockpoint::testing::FreshDatabase(
      Encrypted() ? "contract_encrypted" : "contract");
  return url;
}

class PostgresHarness {
 public:
  static constexpr const char* kName = "postgres";
  // LangGraph's schema: TEXT keys, writes keyed by (task_id, idx)
  // (engine/postgres/postgres_checkpointer.h).
  static constexpr bool kTextIds = true;
  static constexpr bool kWritesKeyedByTask = true;

  PostgresHarness() {
    Empty();
    Open();
  }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    store_.reset();
    Open();
  }
  // The plaintext run's alone: the encrypted run would repeat its cases.
  rockpoint::testing::ContractStores* stores() {
    return Encrypted() ? nullptr : &stores_;
  }

 private:
  static void Empty() {
    namespace detail = rockpoint::testing::postgres_detail;
    detail::Exec(detail::Connect(ContractDatabase()).get(),
                 "DO $$ BEGIN IF to_regclass('checkpoints') IS NOT NULL THEN "
                 "TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes, "
                 "rockpoint_checkpoints; END IF; END $$");
  }
  void Open() {
    rockpoint::PostgresOptions options;
    options.url = ContractDatabase();
    options.pool_size = 2;
    if (Encrypted()) {
      options.encryption = rockpoint::EncryptionOptions{
          std::string(rockpoint::kEncryptionKeyBytes, 'c')};
    }
    store_ = rockpoint::testing::Unwrap(
        rockpoint::PostgresCheckpointer::Open(options));
  }

  std::unique_ptr<rockpoint::PostgresCheckpointer> store_;
  PostgresStores stores_;
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(PostgresHarness);

TEST_CASE("postgres: the contract suite on an encrypted database") {
  if (Encrypted()) return;  // the child runs the contract cases only.
  // This binary again, its contract cases only, with its output here.
  const std::string binary =
      std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command = std::string(kEncryptedVariable) + "=1 '" +
                              binary + "' --test-case='contract*'";
  const int status = std::system(command.c_str());
  REQUIRE(status != -1);
  CHECK_MESSAGE(WIFEXITED(status), command);
  CHECK_MESSAGE(WEXITSTATUS(status) == 0,
                command << ": the encrypted contract run failed (its "
                           "report is above)");
}
