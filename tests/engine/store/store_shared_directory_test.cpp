// An item store and a checkpoint store in one RocksDB directory: one open
// database (one lock) in the process, whichever opens first; each part
// opened once (a second open of either is Busy); each closes on its own
// (the item store's reads never make the checkpoint store's Close Busy),
// and the last close releases the directory; an encrypted checkpoint store
// keeps the item store out; a database with a family of another program
// is refused by both.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"
#include "rockpoint/store.h"
#include "temp_dir.h"

namespace rockpoint::store_testing {
namespace {

using testing::TempDir;

std::unique_ptr<Checkpointer> MustOpenCheckpoints(
    const std::string& path, const StoreOptions& options = {}) {
  auto opened = Open("rocksdb:" + path, options);
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

std::unique_ptr<Store> MustOpenItems(const std::string& path) {
  auto opened = OpenStore("rocksdb:" + path);
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

Checkpoint CheckpointNamed(const std::string& id) {
  Checkpoint checkpoint;
  checkpoint.id = id;
  checkpoint.ts = "2024-01-01T00:00:00+00:00";
  return checkpoint;
}

void PutCheckpoint(Checkpointer& checkpoints, const std::string& thread,
                   const std::string& id) {
  CheckpointConfig config;
  config.thread_id = thread;
  auto stored = checkpoints.Put(config, CheckpointNamed(id),
                                Metadata(Value::Map{}), ChannelVersions{});
  REQUIRE_MESSAGE(stored.ok(), stored.status().ToString());
}

std::string LatestId(Checkpointer& checkpoints, const std::string& thread) {
  CheckpointConfig config;
  config.thread_id = thread;
  auto tuple = checkpoints.GetTuple(config);
  REQUIRE_MESSAGE(tuple.ok(), tuple.status().ToString());
  return tuple.value() ? tuple.value()->checkpoint.id : "";
}

void CheckBothSound(Checkpointer& checkpoints, Store& items) {
  auto report = Verify(checkpoints);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(report->sound());
  CHECK(report->checkpoints > 0);
  auto store_report = items.Verify();
  REQUIRE_MESSAGE(store_report.ok(), store_report.status().ToString());
  CHECK(store_report->problems.empty());
  CHECK(store_report->items > 0);
}

TEST_CASE("shared directory: checkpoints first, then items, in one open") {
  TempDir dir;
  const std::string path = dir.path() + "/agent";
  auto checkpoints = MustOpenCheckpoints(path);
  auto items = MustOpenItems(path);
  PutCheckpoint(*checkpoints, "t1", "c1");
  PutItem(*items, {"users", "u1"}, "prefs", Obj({{"theme", "dark"}}));
  CheckBothSound(*checkpoints, *items);

  // Each part closes on its own; the other keeps working.
  REQUIRE(checkpoints->Close().ok());
  PutItem(*items, {"users", "u1"}, "more", Obj({{"n", 1}}));
  checkpoints = MustOpenCheckpoints(path);
  CHECK(LatestId(*checkpoints, "t1") == "c1");
  REQUIRE(items->Close().ok());
  PutCheckpoint(*checkpoints, "t1", "c2");
  REQUIRE(checkpoints->Close().ok());

  // Items first this time; the last close released the directory.
  items = MustOpenItems(path);
  checkpoints = MustOpenCheckpoints(path);
  CHECK(LatestId(*checkpoints, "t1") == "c2");
  CHECK(MustGetItem(*items, {"users", "u1"}, "prefs", false).value ==
        Obj({{"theme", "dark"}}));
  CHECK(MustGetItem(*items, {"users", "u1"}, "more", false).value ==
        Obj({{"n", 1}}));
  CheckBothSound(*checkpoints, *items);
}

TEST_CASE("shared directory: each part opens once in a process") {
  TempDir dir;
  const std::string path = dir.path() + "/agent";
  auto checkpoints = MustOpenCheckpoints(path);
  auto items = MustOpenItems(path);
  auto second_items = OpenStore("rocksdb:" + path);
  CHECK(second_items.status().IsBusy());
  auto second_checkpoints = Open("rocksdb:" + path);
  CHECK(second_checkpoints.status().IsBusy());
  // A refused open changed nothing: both parts still work.
  PutCheckpoint(*checkpoints, "t", "c1");
  PutItem(*items, {"n"}, "k", Obj({{"v", 1}}));
  CHECK(LatestId(*checkpoints, "t") == "c1");
}

TEST_CASE("shared directory: read-only opens read what both parts wrote") {
  TempDir dir;
  const std::string path = dir.path() + "/agent";
  {
    auto checkpoints = MustOpenCheckpoints(path);
    auto items = MustOpenItems(path);
    PutCheckpoint(*checkpoints, "t", "c1");
    PutItem(*items, {"n"}, "k", Obj({{"v", 1}}));
  }
  StoreOptions read_only;
  read_only.read_only = true;
  auto checkpoints = MustOpenCheckpoints(path, read_only);
  CHECK(LatestId(*checkpoints, "t") == "c1");
  StoreOpenOptions items_read_only;
  items_read_only.read_only = true;
  auto items = OpenStore("rocksdb:" + path, items_read_only);
  REQUIRE_MESSAGE(items.ok(), items.status().ToString());
  CHECK(MustGetItem(**items, {"n"}, "k", false).value == Obj({{"v", 1}}));
}

TEST_CASE("shared directory: the item store's reads never make Close busy") {
  TempDir dir;
  const std::string path = dir.path() + "/agent";
  auto items = MustOpenItems(path);
  for (int i = 0; i < 200; ++i) {
    PutItem(*items, {"n"}, "k" + std::to_string(i), Obj({{"i", i}}));
  }
  // Searches hold RocksDB snapshots of the shared database all along.
  std::atomic<bool> stop{false};
  std::atomic<int> searches{0};
  std::thread reader([&] {
    while (!stop.load()) {
      if (items->Search(SearchUnder({"n"}, 200)).ok()) ++searches;
    }
  });
  for (int round = 0; round < 30; ++round) {
    auto checkpoints = MustOpenCheckpoints(path);
    PutCheckpoint(*checkpoints, "t", "c" + std::to_string(100 + round));
    const Status closed = checkpoints->Close();
    CHECK_MESSAGE(closed.ok(), closed.ToString());
  }
  stop = true;
  reader.join();
  CHECK(searches.load() > 0);
}

// The column families of the database at `path`, sorted.
std::vector<std::string> FamiliesAt(const std::string& path) {
  std::vector<std::string> names;
  REQUIRE(
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE("shared directory: no item store beside encrypted checkpoints") {
  TempDir dir;
  const std::string path = dir.path() + "/agent";
  StoreOptions encrypted;
  encrypted.encryption = EncryptionOptions{std::string(32, 'k')};
  {
    auto checkpoints = MustOpenCheckpoints(path, encrypted);
    auto refused = OpenStore("rocksdb:" + path);
    REQUIRE(refused.status().IsInvalidArgument());
    CHECK(refused.status().message().find("encrypted") != std::string::npos);
    PutCheckpoint(*checkpoints, "t", "c1");
  }
  // The refusal created nothing: the encrypted store reopens, and a store
  // opened in a new process (no shared database) is refused the same way.
  const std::vector<std::string> checkpoint_families = FamiliesAt(path);
  for (const std::string& name : checkpoint_families) {
    CHECK_FALSE(name.rfind("store.", 0) == 0);
  }
  CHECK(OpenStore("rocksdb:" + path).status().IsInvalidArgument());
  CHECK(FamiliesAt(path) == checkpoint_families);
  {
    auto checkpoints = MustOpenCheckpoints(path, encrypted);
    CHECK(LatestId(*checkpoints, "t") == "c1");
  }

  // Nor the other way round: an item store keeps encryption out.
  const std::string other = dir.path() + "/items-first";
  {
    auto items = MustOpenItems(other);
    PutItem(*items, {"n"}, "k", Obj({{"v", 1}}));
  }
  const std::vector<std::string> item_families = FamiliesAt(other);
  auto refused = Open("rocksdb:" + other, encrypted);
  REQUIRE(refused.status().IsInvalidArgument());
  CHECK(refused.status().message().find("item store") != std::string::npos);
  CHECK(FamiliesAt(other) == item_families);
  auto items = MustOpenItems(other);
  CHECK(MustGetItem(*items, {"n"}, "k", false).value == Obj({{"v", 1}}));
}

TEST_CASE("shared directory: a foreign column family is refused by both") {
  TempDir dir;
  const std::string path = dir.path() + "/foreign";
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(options, path, &raw).ok());
    rocksdb::ColumnFamilyHandle* family = nullptr;
    REQUIRE(raw->CreateColumnFamily({}, "other", &family).ok());
    REQUIRE(raw->DestroyColumnFamilyHandle(family).ok());
    REQUIRE(raw->Close().ok());
    delete raw;
  }
  auto items = OpenStore("rocksdb:" + path);
  REQUIRE(items.status().IsInvalidArgument());
  CHECK(items.status().message().find("\"other\"") != std::string::npos);
  auto checkpoints = Open("rocksdb:" + path);
  REQUIRE(checkpoints.status().IsInvalidArgument());
  CHECK(checkpoints.status().message().find("not a rockpoint directory") !=
        std::string::npos);
}

}  // namespace
}  // namespace rockpoint::store_testing
