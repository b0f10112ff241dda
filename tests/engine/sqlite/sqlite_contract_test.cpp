// The contract suite on SqliteCheckpointer, twice: a file database that
// Reopen() really closes and reopens (WAL and all), and ":memory:" (where
// Reopen() is a no-op, since closing would lose everything).
#include <memory>
#include <string>

#include "engine/contract_suite.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace {

class SqliteFileHarness {
 public:
  static constexpr const char* kName = "sqlite-file";
  SqliteFileHarness() { Open(); }
  rockpoint::Checkpointer& store() { return *store_; }
  void Reopen() {
    store_.reset();
    Open();
  }

 private:
  void Open() {
    rockpoint::SqliteOptions options;
    options.path = dir_.Sub("checkpoints.sqlite");
    // Durability across a process crash is not what the suite checks;
    // NORMAL keeps it quick.
    options.sync_writes = false;
    store_ = rockpoint::testing::Unwrap(
        rockpoint::SqliteCheckpointer::Open(options));
  }

  rockpoint::testing::TempDir dir_;
  std::unique_ptr<rockpoint::SqliteCheckpointer> store_;
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

ROCKPOINT_CONTRACT_SUITE(SqliteFileHarness);
ROCKPOINT_CONTRACT_SUITE(SqliteMemoryHarness);
