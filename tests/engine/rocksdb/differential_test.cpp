// Differential test: one seeded random sequence of operations (the model of
// engine/differential_model.h) applied to the memory, RocksDB, SQLite and
// JSONL backends, with every result and the whole readable state compared
// after each operation. The JSONL store is reopened (its journal replayed)
// every few operations and compacts itself often, so replays of live
// journals and of snapshots are compared too. A divergence prints its seed and
// the operations so far; rerun one seed with -tc="differential*" and
// ROCKPOINT_DIFFERENTIAL_SEED. fuzz/differential_fuzz.cpp runs the same model
// on sequences a fuzzer chooses.
#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/differential_model.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint::testing {
namespace {

using differential::NamedStore;

// Reopen the JSONL store after every this many operations.
constexpr int kReopenJsonlEvery = 5;

// The four backends under test, fed the same calls.
struct Backends {
  TempDir dir;
  MemoryCheckpointer memory;
  std::unique_ptr<RocksDbCheckpointer> rocksdb;
  std::unique_ptr<SqliteCheckpointer> sqlite;
  std::unique_ptr<JsonlCheckpointer> jsonl;

  Backends() {
    RocksDbOptions rocks;
    rocks.path = dir.Sub("store");
    rocks.sync_writes = false;
    rocksdb = Unwrap(RocksDbCheckpointer::Open(rocks));
    sqlite = Unwrap(
        SqliteCheckpointer::Open({.path = ":memory:", .sync_writes = false}));
    ReopenJsonl();
  }
  // Compactions the JSONL store made, summed over its openings.
  uint64_t jsonl_compactions = 0;

  // Closes the JSONL store (if open) and opens it again from its journal.
  void ReopenJsonl() {
    if (jsonl) {
      jsonl_compactions += Unwrap(jsonl->Stats()).compactions;
      RP_REQUIRE_OK(jsonl->Close());
    }
    jsonl.reset();
    jsonl = Unwrap(JsonlCheckpointer::Open({.path = dir.Sub("store.jsonl"),
                                            .sync_writes = false,
                                            .auto_compact_min_lines = 40}));
  }
  // Memory first: it is the reference the others are compared with.
  std::vector<NamedStore> all() {
    return {{"memory", &memory},
            {"rocksdb", rocksdb.get()},
            {"sqlite", sqlite.get()},
            {"jsonl", jsonl.get()}};
  }
};

// Runs one seeded sequence; REQUIREs agreement after every step. Returns
// the number of compactions of the JSONL store.
uint64_t RunSequence(uint64_t seed, int steps) {
  Backends backends;
  differential::RandomChoices choices(seed);
  differential::Sequence sequence(choices);
  std::string log;
  for (int step = 0; step < steps; ++step) {
    const differential::Outcome outcome = sequence.Step(backends.all());
    log += std::to_string(step) + ": " + outcome.what + "\n";
    if (step % kReopenJsonlEvery == kReopenJsonlEvery - 1) {
      backends.ReopenJsonl();
      log += "(jsonl reopened)\n";
    }
    const std::optional<std::string> divergence =
        differential::FindDivergence(outcome, backends.all());
    REQUIRE_MESSAGE(!divergence.has_value(),
                    "seed " << seed << ", operations so far:\n"
                            << log << divergence.value_or(""));
  }
  // The RocksDB store's own cross-checks (its index, its hidden counts)
  // hold after the sequence.
  const VerifyReport report = Unwrap(VerifyStore(*backends.rocksdb, nullptr));
  for (const VerifyProblem& problem : report.problems) {
    INFO("seed " << seed << ": " << problem.check << " " << problem.key << " "
                 << problem.detail);
    CHECK(problem.severity == "warning");
  }
  backends.ReopenJsonl();
  return backends.jsonl_compactions;
}

TEST_CASE(
    "differential: memory, RocksDB, SQLite and JSONL agree on random "
    "sequences") {
  if (const char* one = std::getenv("ROCKPOINT_DIFFERENTIAL_SEED")) {
    RunSequence(std::strtoull(one, nullptr, 10), 60);
    return;
  }
  uint64_t compactions = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    compactions += RunSequence(seed, 40);
  }
  // The sequences reach the JSONL store's compaction, not only its replay.
  CHECK(compactions > 0);
}

}  // namespace
}  // namespace rockpoint::testing
