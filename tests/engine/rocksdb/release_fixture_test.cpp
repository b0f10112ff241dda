// Stores written by an earlier release (tests/engine/rocksdb/fixtures/,
// written by release_fixture_main.cpp at that release; content in
// release_fixture.h) open and read with this build, plaintext and encrypted:
// the same tuples from table files and from the write-ahead log, a sound
// verify, and new writes, compactions and reopens on top of them. Each case
// works on a copy; the committed fixture is never opened.
#include "engine/rocksdb/release_fixture.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>

#include "engine/contract_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

namespace fs = std::filesystem;
using namespace release_fixture;  // NOLINT: the fixture's content

// The releases whose stores this build reads.
const char* const kReleases[] = {"0.2.0"};

struct FixtureStore {
  TempDir dir;
  std::string path;
  bool encrypted = false;

  std::unique_ptr<RocksDbCheckpointer> Open() const {
    RocksDbOptions options;
    options.path = path;
    if (encrypted) options.encryption = EncryptionOptions{Key()};
    return Unwrap(RocksDbCheckpointer::Open(options));
  }
};

// Runs `check` on a fresh copy of each release's plaintext and encrypted
// store.
void ForEachFixtureCopy(const std::function<void(const FixtureStore&)>& check) {
  for (const char* release : kReleases) {
    for (const char* kind : {"plain", "encrypted"}) {
      CAPTURE(release);
      CAPTURE(kind);
      const fs::path source = fs::path(ROCKPOINT_SOURCE_DIR) / "tests" /
                              "engine" / "rocksdb" / "fixtures" / release /
                              kind;
      REQUIRE_MESSAGE(fs::is_directory(source), source.string());
      FixtureStore fixture;
      fixture.path = fixture.dir.Sub("store");
      fs::copy(source, fixture.path, fs::copy_options::recursive);
      fixture.encrypted = std::string(kind) == "encrypted";
      check(fixture);
    }
  }
}

// The pending writes of thread "a"'s checkpoint `step`, as WritesOf renders
// them.
std::string WritesAt(Checkpointer& store, int step) {
  return WritesOf(MustGet(store, Cfg("a", CpId(step))).pending_writes);
}

std::string ExpectedWrites(int step) {
  return "/task-1#-1:__error__=e" + std::to_string(step) + " /task-1#0:msgs=w" +
         std::to_string(step);
}

// Every checkpoint of the fixture reads as release_fixture.h wrote it.
void CheckHistory(Checkpointer& store) {
  const CheckpointTuple latest = MustGet(store, Cfg("a"));
  CHECK(latest.config.checkpoint_id == CpId(kThreadALength));
  for (int step = 1; step <= kThreadALength; ++step) {
    CAPTURE(step);
    const CheckpointTuple tuple = MustGet(store, Cfg("a", CpId(step)));
    CHECK(ValuesOf(tuple.checkpoint) == "cfg=c1 msgs=" + MessageOf(step));
    CHECK(WritesOf(tuple.pending_writes) ==
          (step < kThreadALength ? ExpectedWrites(step) : ""));
    const Value* recorded_step = tuple.metadata.Find("step");
    REQUIRE(recorded_step != nullptr);
    CHECK(recorded_step->as_int() == step);
    if (step > 1) {
      REQUIRE(tuple.parent_config.has_value());
      CHECK(tuple.parent_config->checkpoint_id == CpId(step - 1));
    }
  }
  const CheckpointTuple b = MustGet(store, Cfg("b", std::nullopt, "sub"));
  CHECK(b.config.checkpoint_id == CpId(2));
  CHECK(WritesOf(b.pending_writes) == ExpectedWrites(2));
  CHECK(WritesOf(MustGet(store, Cfg("b", CpId(1), "sub")).pending_writes) ==
        "");
  CHECK(Ids(Collect(store, ListOf(Cfg("a")))) ==
        "cp0006 cp0005 cp0004 cp0003 cp0002 cp0001");
}

TEST_CASE("rocksdb release fixtures: an earlier release's store reads") {
  ForEachFixtureCopy([](const FixtureStore& fixture) {
    auto store = fixture.Open();
    CheckHistory(*store);
    const VerifyReport report = Unwrap(VerifyStore(*store, nullptr));
    CHECK(report.sound());
    CHECK(report.checkpoints == kThreadALength + 2);
  });
}

TEST_CASE(
    "rocksdb release fixtures: new writes, compaction and reopen on an "
    "earlier release's store") {
  ForEachFixtureCopy([](const FixtureStore& fixture) {
    {
      auto store = fixture.Open();
      // Writes on the latest, whose thread's older writes are in table
      // files written with the release's options.
      RP_REQUIRE_OK(PutStepWrites(*store, "a", "", kThreadALength));
      RP_REQUIRE_OK(PutStep(*store, "a", "", kThreadALength + 1));
      CHECK(WritesAt(*store, kThreadALength) == ExpectedWrites(kThreadALength));
      RP_REQUIRE_OK(store->Compact());
    }
    auto store = fixture.Open();
    CHECK(MustGet(*store, Cfg("a")).config.checkpoint_id ==
          CpId(kThreadALength + 1));
    CHECK(WritesAt(*store, kThreadALength) == ExpectedWrites(kThreadALength));
    CHECK(WritesAt(*store, 3) == ExpectedWrites(3));
    CHECK(WritesAt(*store, kThreadALength + 1) == "");
    CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
  });
}

}  // namespace
}  // namespace rockpoint::testing
