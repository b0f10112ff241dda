// `rockpoint stats`, `verify`, `compact`, `dump` end to end, including a
// deliberately corrupted record and a dangling index entry that verify must
// report, and a store of a newer format that every command refuses.
#include <set>

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/rocksdb_maintenance.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "keys/tuple.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

struct MaintenanceFixture {
  TempDir dir;
  std::string store = dir.Sub("store");
  MaintenanceFixture() { MakeFixtureStore(store); }

  // Runs `change` on the store opened for writing, then closes it.
  template <typename Change>
  void WithStore(Change change) const {
    RocksDbOptions options;
    options.path = store;
    auto opened = RocksDbCheckpointer::Open(options);
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    change(**opened);
  }
};

// The key of the first record of `column_family` whose key contains
// `needle`.
std::string FindKey(RocksDbCheckpointer& store,
                    const std::string& column_family, std::string_view needle) {
  std::string found;
  Status status = ScanRaw(store, column_family, "", [&](const RawEntry& entry) {
    if (entry.key.find(needle) == std::string::npos) return true;
    found = entry.key;
    return false;
  });
  REQUIRE(status.ok());
  REQUIRE_MESSAGE(!found.empty(), "no key with ", needle);
  return found;
}

TEST_CASE("stats: counts, deduplication, column families, compression") {
  MaintenanceFixture f;
  Json stats = ParseJson(RunOk({"stats", "--json", "--store", f.store}).out);
  CHECK(stats["backend"] == "rocksdb");
  CHECK(stats["threads"] == 3);
  CHECK(stats["namespaces"] == 4);
  CHECK(stats["checkpoints"] == 11);
  CHECK(stats["hidden_checkpoints"] == 0);
  CHECK(stats["values_stored"] == 14);
  // count v1 is read by cp-01 and cp-02, count v2 by cp-03..05, "opaque"
  // by all three t2 checkpoints, js v2 by t2-02 and t2-03.
  CHECK(stats["values_deduplicated"] == 6);
  CHECK(stats["values_referenced"] == 20);
  CHECK(stats["writes"] == 8);
  CHECK(stats["disk_bytes"].get<uint64_t>() > 0);
  REQUIRE(stats["column_families"].size() == 5);
  CHECK(stats["column_families"][0]["column_family"] == "checkpoints");
  CHECK(stats["write_amplification"].is_null());  // nothing written

  // After compact the data sits in SST files: compression figures appear.
  RunOk({"compact", "--store", f.store});
  stats = ParseJson(RunOk({"stats", "--json", "--store", f.store}).out);
  CHECK(stats["column_families"][0]["sst_files"].get<uint64_t>() >= 1);
  CHECK(stats["column_families"][0]["raw_bytes"].get<uint64_t>() > 0);
  CHECK(stats["compression_ratio"].is_number());
  RunResult table = RunOk({"stats", "--store", f.store});
  CHECK(table.out.find("values_deduplicated") != std::string::npos);
  CHECK(table.out.find("column_families (5)") != std::string::npos);
  Json quick =
      ParseJson(RunOk({"stats", "--quick", "--json", "--store", f.store}).out);
  CHECK(quick["checkpoints"] == 11);
  CHECK(!quick.contains("values_stored"));
}

TEST_CASE("verify: a sound store exits 0") {
  MaintenanceFixture f;
  RunResult result = RunOk({"verify", "--json", "--store", f.store});
  Json report = ParseJson(result.out);
  CHECK(report["sound"] == true);
  CHECK(report["checkpoints"] == 11);
  CHECK(report["blobs"] == 16);  // 14 values + 2 empty markers
  CHECK(report["writes"] == 8);
  CHECK(report["errors"] == 0);
  CHECK(report["problems"].empty());
  RunResult quiet = RunOk({"verify", "--quiet", "--store", f.store});
  CHECK(quiet.out.empty());
}

TEST_CASE("verify reports a corrupted checkpoint record and exits 2") {
  MaintenanceFixture f;
  f.WithStore([](RocksDbCheckpointer& store) {
    const std::string key = FindKey(store, "checkpoints", "cp-03");
    REQUIRE(PutRawForTesting(store, "checkpoints", key, "\x01garbage").ok());
  });
  RunResult result = RunCli({"verify", "--json", "--store", f.store});
  INFO(result.err);
  CHECK(result.status == 2);
  Json report = ParseJson(result.out);
  CHECK(report["sound"] == false);
  CHECK(report["errors"] == 1);
  REQUIRE(report["problems"].size() == 1);
  CHECK(report["problems"][0]["severity"] == "error");
  CHECK(report["problems"][0]["check"] == "record-decodes");
  CHECK(report["problems"][0]["key"].get<std::string>().find("cp-03") !=
        std::string::npos);
  RunResult table = RunCli({"verify", "--store", f.store});
  CHECK(table.status == 2);
  CHECK(table.out.find("record-decodes") != std::string::npos);
  // Reading the record elsewhere is a one-line Corruption error naming it.
  CheckOneLineError(RunCli({"show", "t1", "cp-03", "--store", f.store}),
                    "Corruption");
}

TEST_CASE("verify reports dangling and missing index entries") {
  MaintenanceFixture f;
  f.WithStore([](RocksDbCheckpointer& store) {
    // A ts entry for a checkpoint that does not exist.
    keys::TupleWriter ts;
    ts.AddString("ts").AddString("cp-99").AddString("t1").AddString("");
    REQUIRE(PutRawForTesting(store, "index", ts.data(), "").ok());
    // A write of a checkpoint that does not exist.
    const std::string write = FindKey(store, "writes", "cp-03");
    std::string orphan = write;
    orphan.replace(orphan.find("cp-03"), 5, "cp-0x");
    std::string value;
    REQUIRE(ScanRaw(store, "writes", write, [&](const RawEntry& entry) {
              value = entry.value;
              return false;
            }).ok());
    REQUIRE(PutRawForTesting(store, "writes", orphan, value).ok());
  });
  RunResult result = RunCli({"verify", "--json", "--store", f.store});
  CHECK(result.status == 2);
  Json report = ParseJson(result.out);
  std::set<std::string> checks;
  for (const Json& problem : report["problems"]) {
    checks.insert(problem["check"].get<std::string>());
  }
  CHECK(checks.contains("index-points-at-record"));
  CHECK(checks.contains("write-has-checkpoint"));
}

TEST_CASE("verify warns about a parent that prune removed") {
  MaintenanceFixture f;
  // cp-03a needs nothing of cp-02a, so prune removes cp-02a entirely.
  RunOk({"prune", "t1", "--keep", "1", "--yes", "--store", f.store});
  RunResult result = RunOk({"verify", "--json", "--store", f.store});
  Json report = ParseJson(result.out);
  CHECK(report["sound"] == true);
  CHECK(report["warnings"] == 1);
  REQUIRE(report["problems"].size() == 1);
  CHECK(report["problems"][0]["check"] == "parent-present");
  CHECK(report["problems"][0]["key"] ==
        "(\"cp\", \"t1\", \"child:t\", \"cp-03a\")");
}

TEST_CASE("verify on SQLite and JSONL stores checks through the interface") {
  MaintenanceFixture f;
  const std::string file = f.dir.Sub("export");
  WriteFile(file, RunOk({"export", "--store", f.store}).out);
  for (const char* name : {"s.db", "j.jsonl"}) {
    const std::string store = f.dir.Sub(name);
    RunOk({"import", file, "--store", store});
    Json report = ParseJson(RunOk({"verify", "--json", "--store", store}).out);
    CHECK(report["sound"] == true);
    CHECK(report["checkpoints"] == 11);
    Json stats = ParseJson(RunOk({"stats", "--json", "--store", store}).out);
    CHECK(stats["values_deduplicated"] == 6);
  }
}

TEST_CASE("verify warns about orphan writes on every backend") {
  TempDir dir;
  const auto write_orphan = [](Checkpointer& store) {
    CheckpointConfig where{"t", "", std::string("cp-1")};
    Checkpoint checkpoint;
    checkpoint.id = "cp-1";
    checkpoint.ts = "2026-01-01T00:00:00Z";
    REQUIRE(
        store.Put({"t", "", std::nullopt}, checkpoint, Value(Value::Map{}), {})
            .ok());
    where.checkpoint_id = "cp-missing";
    REQUIRE(store.PutWrites(where, {{"a", {"json", "1"}}}, "task").ok());
  };
  const std::string rocksdb = dir.Sub("store");
  const std::string sqlite = dir.Sub("store.db");
  const std::string jsonl = dir.Sub("store.jsonl");
  {
    RocksDbOptions options;
    options.path = rocksdb;
    write_orphan(*testing::Unwrap(RocksDbCheckpointer::Open(options)));
  }
  {
    SqliteOptions options;
    options.path = sqlite;
    write_orphan(*testing::Unwrap(SqliteCheckpointer::Open(options)));
  }
  {
    JsonlOptions options;
    options.path = jsonl;
    write_orphan(*testing::Unwrap(JsonlCheckpointer::Open(options)));
  }
  for (const std::string& store : {rocksdb, sqlite, jsonl}) {
    CAPTURE(store);
    Json report = ParseJson(RunOk({"verify", "--json", "--store", store}).out);
    CHECK(report["sound"] == true);
    CHECK(report["warnings"] == 1);
    CHECK(report["writes"] == 1);
    REQUIRE(report["problems"].size() == 1);
    CHECK(report["problems"][0]["check"] == "write-has-checkpoint");
    CHECK(report["problems"][0]["key"].get<std::string>().find("cp-missing") !=
          std::string::npos);
  }
}

TEST_CASE("compact and dump") {
  MaintenanceFixture f;
  Json compacted =
      ParseJson(RunOk({"compact", "--json", "--store", f.store}).out);
  CHECK(compacted["backend"] == "rocksdb");
  CHECK(RunOk({"verify", "--quiet", "--store", f.store}).status == 0);
  Json meta = ParseJson(
      RunOk({"dump", "--cf", "meta", "--json", "--store", f.store}).out);
  REQUIRE(meta.size() == 2);
  CHECK(meta[1]["key"] == "(\"format_version\")");
  std::vector<Json> checkpoints =
      ParseJsonLines(RunOk({"dump", "--cf", "checkpoints", "--thread", "t2",
                            "--jsonl", "--store", f.store})
                         .out);
  CHECK(checkpoints.size() == 3);
  RunResult table = RunOk({"dump", "--limit", "2", "--store", f.store});
  CHECK(std::count(table.out.begin(), table.out.end(), '\n') == 3);
  CheckOneLineError(RunCli({"dump", "--cf", "nope", "--store", f.store}),
                    "column family");
  const std::string sqlite = f.dir.Sub("s.db");
  const std::string file = f.dir.Sub("export");
  WriteFile(file, RunOk({"export", "--store", f.store}).out);
  RunOk({"import", file, "--store", sqlite});
  CheckOneLineError(RunCli({"dump", "--store", sqlite}), "RocksDB");
  CheckOneLineError(RunCli({"compact", "--store", sqlite}), "not supported");
}

TEST_CASE("a store of a newer format is refused") {
  MaintenanceFixture f;
  f.WithStore([](RocksDbCheckpointer& store) {
    const std::string key = FindKey(store, "meta", "format_version");
    REQUIRE(PutRawForTesting(store, "meta", key, "99").ok());
  });
  CheckOneLineError(RunCli({"threads", "--store", f.store}), "newer");
  CheckOneLineError(RunCli({"delete", "t1", "--yes", "--store", f.store}),
                    "newer");
}

}  // namespace
}  // namespace rockpoint::cli_test
