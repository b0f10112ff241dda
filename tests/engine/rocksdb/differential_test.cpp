// Differential test: one seeded random sequence of operations (the model of
// engine/differential_model.h) applied to the memory, RocksDB and SQLite
// backends, with every result and the whole readable state compared after
// each operation. A divergence prints its seed and the operations so far;
// rerun one seed with -tc="differential*" and ROCKPOINT_DIFFERENTIAL_SEED.
// fuzz/differential_fuzz.cpp runs the same model on sequences a fuzzer
// chooses.
#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/differential_model.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"
#include "rockpoint/sqlite_checkpointer.h"

namespace rockpoint::testing {
namespace {

using differential::NamedStore;

// The three backends under test, fed the same calls.
struct Backends {
  TempDir dir;
  MemoryCheckpointer memory;
  std::unique_ptr<RocksDbCheckpointer> rocksdb;
  std::unique_ptr<SqliteCheckpointer> sqlite;

  Backends() {
    RocksDbOptions rocks;
    rocks.path = dir.Sub("store");
    rocks.sync_writes = false;
    rocksdb = Unwrap(RocksDbCheckpointer::Open(rocks));
    sqlite = Unwrap(
        SqliteCheckpointer::Open({.path = ":memory:", .sync_writes = false}));
  }
  // Memory first: it is the reference the others are compared with.
  std::vector<NamedStore> all() {
    return {{"memory", &memory},
            {"rocksdb", rocksdb.get()},
            {"sqlite", sqlite.get()}};
  }
};

// Runs one seeded sequence; REQUIREs agreement after every step.
void RunSequence(uint64_t seed, int steps) {
  Backends backends;
  differential::RandomChoices choices(seed);
  differential::Sequence sequence(choices);
  std::string log;
  for (int step = 0; step < steps; ++step) {
    const differential::Outcome outcome = sequence.Step(backends.all());
    log += std::to_string(step) + ": " + outcome.what + "\n";
    const std::optional<std::string> divergence =
        differential::FindDivergence(outcome, backends.all());
    REQUIRE_MESSAGE(!divergence.has_value(),
                    "seed " << seed << ", operations so far:\n"
                            << log << divergence.value_or(""));
  }
}

TEST_CASE(
    "differential: memory, RocksDB and SQLite agree on random sequences") {
  if (const char* one = std::getenv("ROCKPOINT_DIFFERENTIAL_SEED")) {
    RunSequence(std::strtoull(one, nullptr, 10), 60);
    return;
  }
  for (uint64_t seed = 1; seed <= 60; ++seed) RunSequence(seed, 40);
}

}  // namespace
}  // namespace rockpoint::testing
