// The contract suite on SqliteCheckpointer, twice: an encrypted file
// database (key given in EncryptionOptions) that Reopen() really closes and
// reopens (WAL and all), and a plaintext ":memory:" one (where Reopen() is
// a no-op, since closing would lose everything).
#include <memory>
#include <string>

#include "engine/contract_suite.h"
#include "engine/sqlite/sqlite_checkpointer.h"

namespace {

class SqliteEncryptedFileHarness {
 public:
  static constexpr const char* kName = "sqlite-file-encrypted";
  SqliteEncryptedFileHarness() { Open(); }
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
    options.encryption = rockpoint::EncryptionOptions{
        std::string(rockpoint::kEncryptionKeyBytes, '\x5a')};
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

ROCKPOINT_CONTRACT_SUITE(SqliteEncryptedFileHarness);
ROCKPOINT_CONTRACT_SUITE(SqliteMemoryHarness);
