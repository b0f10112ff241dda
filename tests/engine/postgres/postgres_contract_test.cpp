// The contract suite on PostgresCheckpointer against the tests' server
// (tests/engine/postgres/postgres_test_server.h): one database for this
// binary, emptied for each case; Reopen() closes every connection and opens
// a new checkpointer, so what a case reads came back from the server.
//
// The suite runs twice, with one harness type (its database's state is
// per process): on a plaintext database (LangGraph's format) in this
// process, and on an encrypted one (the key in EncryptionOptions) in a child
// process of this binary, which the case "postgres: the contract suite on an
// encrypted database" starts with kEncryptedVariable set.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/contract_suite.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_test_server.h"

namespace {

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
  // (rockpoint/postgres_checkpointer.h).
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
