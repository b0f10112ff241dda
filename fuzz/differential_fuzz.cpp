// Fuzz target: the differential model (tests/engine/differential_model.h)
// with the choices read from the input: one operation sequence applied to a
// memory, a RocksDB, a SQLite and a JSONL store, whose results and whole
// readable state must agree after every operation, and again after the
// JSONL store is reopened from its journal at the end of the input. Each input
// byte is one choice (a byte modulo the number of options), so the fuzzer's
// mutations change the operations, their targets and their arguments directly.
// A divergence prints the operations so far and aborts.
//
// Every input starts from empty stores. The memory, SQLite (":memory:") and
// JSONL (a new journal file) stores are new for each input; opening a RocksDB
// store costs more than a typical input, so one is opened per process. Each
// input ends by deleting every thread, after which the RocksDB column families
// must hold no key (a key left behind fails that input), so no input sees
// another's data. ROCKPOINT_FUZZ_FRESH_ROCKSDB=1 opens a new RocksDB store for
// every input instead, to tell whether a failure depends on earlier inputs.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/differential_model.h"
#include "fuzz/fuzz_check.h"
#include "keys/tuple.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"

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

// The store `opened` holds; fails the run otherwise.
std::unique_ptr<Checkpointer> Unwrapped(
    Result<std::unique_ptr<Checkpointer>> opened) {
  FUZZ_CHECK(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

// A RocksDB store in a scratch directory (members are destroyed in reverse:
// the store is closed before its directory is removed).
struct RocksDbStore {
  ScratchDir dir;
  std::unique_ptr<Checkpointer> store;

  RocksDbStore() {
    StoreOptions options;
    options.sync_writes = false;
    options.rocksdb.block_cache_bytes = 8 << 20;
    auto opened = Open("rocksdb:" + dir.path() + "/store", options);
    FUZZ_CHECK(opened.ok(), opened.status().ToString());
    store = std::move(opened).value();
  }
};

// Deletes every thread of the model from `store` and checks that no key is
// left in the families that hold threads' data (all but `meta`). Compacts
// every `compact_every` calls: deletion tombstones piling up in the memtable
// would make every later read slower (every 4 inputs measured fastest).
void EmptyRocksDb(Checkpointer& store, int compact_every) {
  for (const std::string& thread : kThreads) {
    const Status deleted = store.DeleteThread(thread);
    FUZZ_CHECK(deleted.ok(), "delete_thread: " + deleted.ToString());
  }
  for (const char* family : {"checkpoints", "blobs", "writes", "index"}) {
    const Status scanned =
        ScanRaw(store, family, "", [&](const RawEntry& entry) {
          FUZZ_CHECK(false,
                     std::string("after deleting every thread, family ") +
                         family + " still holds " + keys::Describe(entry.key));
          return false;
        });
    FUZZ_CHECK(scanned.ok(), "scan: " + scanned.ToString());
  }
  static int emptied = 0;
  if (++emptied % compact_every == 0) {
    const Status compacted = Compact(store);
    FUZZ_CHECK(compacted.ok(), "compact: " + compacted.ToString());
  }
}

// The journal of the JSONL store: one path per process, a new file per
// input.
const std::string& JournalPath() {
  static ScratchDir* dir = new ScratchDir();
  static const std::string path = dir->path() + "/store.jsonl";
  return path;
}

std::unique_ptr<Checkpointer> OpenJournal() {
  StoreOptions options;
  options.sync_writes = false;
  options.jsonl.auto_compact_min_lines = 32;
  auto opened = Open("jsonl:" + JournalPath(), options);
  FUZZ_CHECK(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

// The four backends under test, empty.
struct Backends {
  std::unique_ptr<Checkpointer> memory = Unwrapped(Open("memory:"));
  Checkpointer* rocksdb;
  std::unique_ptr<Checkpointer> sqlite;
  std::unique_ptr<Checkpointer> jsonl;

  explicit Backends(Checkpointer* rocksdb_store) : rocksdb(rocksdb_store) {
    StoreOptions options;
    options.sync_writes = false;
    auto opened = Open("sqlite::memory:", options);
    FUZZ_CHECK(opened.ok(), opened.status().ToString());
    sqlite = std::move(opened).value();
    std::filesystem::remove(JournalPath());
    jsonl = OpenJournal();
  }
  // Closes the JSONL store and opens it again from its journal.
  void ReopenJsonl() {
    const Status closed = jsonl->Close();
    FUZZ_CHECK(closed.ok(), "jsonl close: " + closed.ToString());
    jsonl.reset();
    jsonl = OpenJournal();
  }
  // Memory first: it is the reference the others are compared with.
  std::vector<NamedStore> all() {
    return {{"memory", memory.get()},
            {"rocksdb", rocksdb},
            {"sqlite", sqlite.get()},
            {"jsonl", jsonl.get()}};
  }
};

}  // namespace
}  // namespace rockpoint::testing::differential

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rockpoint::testing::differential;
  static const bool fresh =
      std::getenv("ROCKPOINT_FUZZ_FRESH_ROCKSDB") != nullptr &&
      std::string(std::getenv("ROCKPOINT_FUZZ_FRESH_ROCKSDB")) == "1";
  // The shared store is closed and removed at exit, before RocksDB's own
  // statics (created while it opened) are destroyed.
  static RocksDbStore* shared = nullptr;
  std::optional<RocksDbStore> own;
  if (fresh) {
    own.emplace();
  } else if (shared == nullptr) {
    shared = new RocksDbStore();
    std::atexit([] { delete shared; });
  }
  RocksDbStore& rocksdb = fresh ? *own : *shared;

  Backends backends(rocksdb.store.get());
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
  backends.ReopenJsonl();
  const Outcome reopened{"jsonl reopened",
                         std::vector<std::string>(backends.all().size())};
  const std::optional<std::string> divergence =
      FindDivergence(reopened, backends.all());
  FUZZ_CHECK(!divergence.has_value(),
             "operations:\n" + log +
                 "after reopening the journal: " + divergence.value_or(""));
  EmptyRocksDb(*rocksdb.store, /*compact_every=*/4);
  return 0;
}
