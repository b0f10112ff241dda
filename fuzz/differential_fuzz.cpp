// Fuzz target: the differential model (tests/engine/differential_model.h)
// with the choices read from the input: one operation sequence applied to
// fresh memory, RocksDB and SQLite stores, whose results and whole readable
// state must agree after every operation. Each input byte is one choice (a
// byte modulo the number of options), so the fuzzer's mutations change the
// operations, their targets and their arguments directly. A divergence
// prints the operations so far and aborts.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/differential_model.h"
#include "fuzz/fuzz_check.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace rockpoint::testing::differential {
namespace {

// The most operations one input runs: each compares the whole state of
// every thread, so longer sequences mostly cost time.
constexpr int kMaxSteps = 64;

// Choices read one byte each from the input; 0 once it is used up.
class ByteChoices final : public Choices {
 public:
  ByteChoices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  int Pick(int n) override {
    if (used_ == size_) return 0;
    return data_[used_++] % n;
  }
  bool exhausted() const { return used_ == size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t used_ = 0;
};

// A fresh directory under TMPDIR (else /tmp), removed with its contents.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr ? tmp : "/tmp") + "/rockpoint-fuzz-XXXXXX";
    FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The three backends under test, empty.
struct Backends {
  ScratchDir dir;
  MemoryCheckpointer memory;
  std::unique_ptr<RocksDbCheckpointer> rocksdb;
  std::unique_ptr<SqliteCheckpointer> sqlite;

  Backends() {
    RocksDbOptions rocks;
    rocks.path = dir.path() + "/store";
    rocks.sync_writes = false;
    auto opened = RocksDbCheckpointer::Open(rocks);
    FUZZ_CHECK(opened.ok(), opened.status().ToString());
    rocksdb = std::move(opened).value();
    auto sqlite_opened =
        SqliteCheckpointer::Open({.path = ":memory:", .sync_writes = false});
    FUZZ_CHECK(sqlite_opened.ok(), sqlite_opened.status().ToString());
    sqlite = std::move(sqlite_opened).value();
  }
  // Memory first: it is the reference the others are compared with.
  std::vector<NamedStore> all() {
    return {{"memory", &memory},
            {"rocksdb", rocksdb.get()},
            {"sqlite", sqlite.get()}};
  }
};

}  // namespace
}  // namespace rockpoint::testing::differential

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint::testing::differential;
  Backends backends;
  ByteChoices choices(data, size);
  Sequence sequence(choices);
  std::string log;
  for (int step = 0; step < kMaxSteps && !choices.exhausted(); ++step) {
    const Outcome outcome = sequence.Step(backends.all());
    log += std::to_string(step) + ": " + outcome.what + "\n";
    const std::optional<std::string> divergence =
        FindDivergence(outcome, backends.all());
    FUZZ_CHECK(!divergence.has_value(),
               "operations so far:\n" + log + divergence.value_or(""));
  }
  return 0;
}
