// rockpoint/maintenance.h over stores from Open: each capability where the
// header's table says, NotSupported naming it elsewhere, through wrappers
// too; DestroyStore; Rekey by location.
#include "rockpoint/maintenance.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/contract_helpers.h"
#include "rockpoint/open.h"
#include "temp_dir.h"

namespace rockpoint {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::Unwrap;

// A store at `url` holding one checkpoint with a value and a write.
std::unique_ptr<Checkpointer> Filled(const std::string& url,
                                     StoreOptions options = {}) {
  std::unique_ptr<Checkpointer> store = Unwrap(Open(url, options));
  testing::DoPut(*store, {.thread = "t",
                          .id = testing::CpId(1),
                          .values = {{"c", testing::Val("v")}},
                          .versions = {{"c", ChannelVersion{int64_t{1}}}}});
  testing::DoWrites(*store, "t", testing::CpId(1), {testing::W("c", "w")},
                    "task");
  return store;
}

TEST_CASE("maintenance: every store verifies sound, by records or calls") {
  TempDir dir;
  for (const std::string& url : {dir.Sub("r"), dir.Sub("s.db"),
                                 dir.Sub("j.jsonl"), std::string("memory:")}) {
    CAPTURE(url);
    std::unique_ptr<Checkpointer> store = Filled(url);
    const VerifyReport report = Unwrap(Verify(*store));
    CHECK(report.sound());
    CHECK(report.checkpoints == 1);
    CHECK(report.writes == 1);
  }
}

TEST_CASE("maintenance: a capability the backend lacks is NotSupported") {
  TempDir dir;
  std::unique_ptr<Checkpointer> sqlite = Filled(dir.Sub("s.db"));
  const Status compact = Compact(*sqlite);
  CHECK(compact.IsNotSupported());
  CHECK(compact.message().find("sqlite") != std::string::npos);
  CHECK(Figures(*sqlite).status().IsNotSupported());
  CHECK(ScanRaw(*sqlite, "", "", [](const RawEntry&) {
          return true;
        }).IsNotSupported());
  std::unique_ptr<Checkpointer> rocksdb = Filled(dir.Sub("r"));
  CHECK(FindOrphanWrites(*rocksdb).status().IsNotSupported());
  std::unique_ptr<Checkpointer> memory = Filled("memory:");
  CHECK(Compact(*memory).IsNotSupported());
  CHECK(Unwrap(FindOrphanWrites(*memory)).empty());
}

TEST_CASE("maintenance: figures, compaction and raw records of RocksDB") {
  TempDir dir;
  std::unique_ptr<Checkpointer> store = Filled(dir.Sub("r"));
  RP_REQUIRE_OK(Compact(*store));
  const StoreFigures figures = Unwrap(Figures(*store));
  CHECK(figures.backend == BackendKind::kRocksDb);
  REQUIRE(figures.rocksdb.has_value());
  CHECK(figures.rocksdb->total_disk_bytes > 0);
  CHECK(figures.hidden_checkpoints == uint64_t{0});
  CHECK_FALSE(figures.jsonl.has_value());
  int checkpoints = 0;
  RP_REQUIRE_OK(ScanRaw(*store, "checkpoints", "", [&](const RawEntry& entry) {
    CHECK(entry.column_family == "checkpoints");
    ++checkpoints;
    return true;
  }));
  CHECK(checkpoints == 1);
  CHECK(ScanRaw(*store, "nope", "", [](const RawEntry&) {
          return true;
        }).IsInvalidArgument());
  RP_REQUIRE_OK(store->Close());
  CHECK(Figures(*store).status().IsAborted());
}

TEST_CASE("maintenance: a journal's figures and compaction") {
  TempDir dir;
  std::unique_ptr<Checkpointer> store = Filled(dir.Sub("j.jsonl"));
  RP_REQUIRE_OK(store->DeleteThread("t"));
  const JsonlStats before = *Unwrap(Figures(*store)).jsonl;
  RP_REQUIRE_OK(Compact(*store));
  const JsonlStats after = *Unwrap(Figures(*store)).jsonl;
  CHECK(after.lines < before.lines);
  CHECK(after.lines == after.live_lines);
}

TEST_CASE("maintenance: a wrapper passes its target's capabilities on") {
  TempDir dir;
  StoreOptions options;
  options.retention = RetentionOptions{.start_sweeper = false};
  options.retention->policy.keep_last = 5;
  std::unique_ptr<Checkpointer> store = Filled(dir.Sub("r"), options);
  RP_REQUIRE_OK(Compact(*store));
  CHECK(Unwrap(Figures(*store)).rocksdb.has_value());
}

TEST_CASE("maintenance: orphan writes are found and reported by Verify") {
  TempDir dir;
  for (const std::string& url :
       {dir.Sub("s.db"), dir.Sub("j.jsonl"), std::string("memory:")}) {
    CAPTURE(url);
    std::unique_ptr<Checkpointer> store = Unwrap(Open(url));
    testing::DoWrites(*store, "t", testing::CpId(9), {testing::W("c", "w")},
                      "task");
    CHECK(Unwrap(FindOrphanWrites(*store)).size() == 1);
    const VerifyReport report = Unwrap(Verify(*store));
    CHECK(report.sound());
    CHECK(report.warnings == 1);
    CHECK(report.problems.at(0).check == "write-has-checkpoint");
  }
}

TEST_CASE("maintenance: DestroyStore removes a store and its side files") {
  TempDir dir;
  for (const std::string& url :
       {dir.Sub("r"), dir.Sub("s.db"), dir.Sub("j.jsonl")}) {
    CAPTURE(url);
    const StoreLocation location = Unwrap(LocateStore(url));
    RP_REQUIRE_OK(Filled(url)->Close());
    RP_REQUIRE_OK(DestroyStore(Unwrap(LocateStore(url))));
    CHECK_FALSE(fs::exists(location.target));
    RP_REQUIRE_OK(DestroyStore(location));  // nothing there: OK.
  }
  CHECK(fs::is_empty(dir.path()));
  CHECK(DestroyStore(Unwrap(LocateStore("memory:"))).IsNotSupported());
  CHECK(DestroyStore(Unwrap(LocateStore("postgresql:///x"))).IsNotSupported());
}

TEST_CASE("maintenance: Rekey by location, on a closed store") {
  TempDir dir;
  const std::string key(kEncryptionKeyBytes, 'k');
  for (const std::string& url :
       {dir.Sub("r"), dir.Sub("s.db"), dir.Sub("j.jsonl")}) {
    CAPTURE(url);
    RP_REQUIRE_OK(Filled(url)->Close());
    const StoreLocation location = Unwrap(LocateStore(url));
    RP_REQUIRE_OK(Rekey(location, {}, EncryptionOptions{key}));
    CHECK(Open(url).status().IsInvalidArgument());
    StoreOptions keyed;
    keyed.encryption = EncryptionOptions{key};
    std::unique_ptr<Checkpointer> store = Unwrap(Open(url, keyed));
    CHECK(testing::MustGet(*store, testing::Cfg("t")).pending_writes.size() ==
          1);
  }
  CHECK(
      Rekey(Unwrap(LocateStore("memory:")), {}, std::nullopt).IsNotSupported());
}

}  // namespace
}  // namespace rockpoint
