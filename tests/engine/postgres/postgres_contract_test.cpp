// The contract suite on PostgresCheckpointer against the tests' server
// (tests/engine/postgres/postgres_test_server.h): one database for this
// binary, emptied for each case; Reopen() closes every connection and opens
// a new checkpointer, so what a case reads came back from the server.
#include <memory>
#include <string>

#include "engine/contract_suite.h"
#include "engine/postgres/postgres_test_server.h"
#include "rockpoint/postgres_checkpointer.h"

namespace {

// The database of this binary's contract cases, created once.
const std::string& ContractDatabase() {
  static const std::string url = rockpoint::testing::FreshDatabase("contract");
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
    store_ = rockpoint::testing::Unwrap(
        rockpoint::PostgresCheckpointer::Open(options));
  }

  std::unique_ptr<rockpoint::PostgresCheckpointer> store_;
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(PostgresHarness);
