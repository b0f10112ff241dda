// The RocksDB store's format version (the `format_version` meta record):
// stamped on a new store, a newer one refused, a lost one refused rather
// than re-stamped, a format 1 store read and stamped 4 read-write, and a
// format 2 store given its hidden counts read-write.
// Reads and rewrites the database through RocksDB (a raw open after
// closing the store).
#include <doctest/doctest.h>

#include <set>

#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

const std::string kVersionKey = keys::Encode(T({S("format_version")}));

// The format_version meta value of the closed store at `path`.
std::string StoredVersion(const std::string& path) {
  RawDb raw(path);
  std::string value;
  REQUIRE(raw.db
              ->Get(rocksdb::ReadOptions(), raw.by_name.at("meta"), kVersionKey,
                    &value)
              .ok());
  return value;
}

// Writes `version` as the format_version of the closed store at `path`.
void StampVersion(const std::string& path, const std::string& version) {
  RawDb raw(path);
  REQUIRE(raw.db
              ->Put(rocksdb::WriteOptions(), raw.by_name.at("meta"),
                    kVersionKey, version)
              .ok());
}

// Format 5 is an encrypted store (engine/rocksdb/FORMAT.md); 6 is newer
// than this build.
TEST_CASE("rocksdb layout: a store of a newer format version is refused") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  OpenAt(path).reset();
  StampVersion(path, "6");
  for (bool read_only : {false, true}) {
    RocksDbOptions options;
    options.path = path;
    options.read_only = read_only;
    Status status = RocksDbCheckpointer::Open(options).status();
    INFO(status.ToString());
    CHECK(status.IsInvalidArgument());
    CHECK(status.message().find("format version 6 is newer") !=
          std::string::npos);
  }
}

// Issue #19, defect 3: a read-write open stamped a new format version over
// a store whose `meta` record was lost, "repairing" it without a word.
TEST_CASE(
    "rocksdb layout: regression: a lost format version is Corruption, not "
    "re-stamped") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"a", Val("1")}},
                   .versions = {{"a", int64_t{1}}}});
  }
  {
    RawDb raw(path);
    REQUIRE(raw.db
                ->Delete(rocksdb::WriteOptions(), raw.by_name.at("meta"),
                         kVersionKey)
                .ok());
  }
  for (bool read_only : {false, true}) {
    RocksDbOptions options;
    options.path = path;
    options.read_only = read_only;
    Status status = RocksDbCheckpointer::Open(options).status();
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find(keys::Describe(kVersionKey)) !=
          std::string::npos);
  }
  // Nothing was written: the record is still missing.
  RawDb raw(path);
  std::string value;
  CHECK(raw.db
            ->Get(rocksdb::ReadOptions(), raw.by_name.at("meta"), kVersionKey,
                  &value)
            .IsNotFound());
}

TEST_CASE("rocksdb layout: a new or empty store is stamped with its version") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  OpenAt(path).reset();
  {
    RawDb raw(path);
    auto* meta = raw.by_name.at("meta");
    for (const char* name : {"format_version", "created_by"}) {
      REQUIRE(raw.db
                  ->Delete(rocksdb::WriteOptions(), meta,
                           keys::Encode(T({S(name)})))
                  .ok());
    }
  }
  // Every family is empty: the store is new, and a read-write open stamps.
  OpenAt(path).reset();
  CHECK(StoredVersion(path) ==
        std::to_string(RocksDbCheckpointer::kFormatVersion));
}

// A store of format 1 (01 records, no checksums), made from a fresh store
// by rewriting every record and the format version the way format 1 wrote
// them.
TEST_CASE(
    "rocksdb layout: a format 1 store reads, and is stamped 4 read-write") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  std::vector<std::optional<CheckpointTuple>> written;
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"a", Val("one")}},
                   .versions = {{"a", int64_t{1}}}});
    DoPut(*store, {.thread = "t",
                   .id = CpId(2),
                   .parent = CpId(1),
                   .versions = {{"a", int64_t{2}}}});
    DoWrites(*store, "t", CpId(1), {W("a", "w")}, "k");
    RP_REQUIRE_OK(store->Compact());  // folds merge operands into values
    for (int id : {1, 2}) written.push_back(Get(*store, Cfg("t", CpId(id))));
  }
  {
    RawDb raw(path);
    for (const char* name : {"checkpoints", "blobs", "writes"}) {
      rocksdb::ColumnFamilyHandle* family = raw.by_name.at(name);
      std::unique_ptr<rocksdb::Iterator> it(
          raw.db->NewIterator(rocksdb::ReadOptions(), family));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string sealed = it->value().ToString();
        REQUIRE(sealed[0] == '\x02');
        const std::string unchecked =
            "\x01" + sealed.substr(1, sealed.size() - 5);
        REQUIRE(
            raw.db->Put(rocksdb::WriteOptions(), family, it->key(), unchecked)
                .ok());
      }
    }
  }
  StampVersion(path, "1");
  const auto reads_as_written = [&](RocksDbCheckpointer& store) {
    for (int id : {1, 2}) {
      CHECK(Get(store, Cfg("t", CpId(id))) == written[id - 1]);
    }
    CHECK(Unwrap(VerifyStore(store, nullptr)).sound());
  };
  reads_as_written(*OpenAt(path, /*read_only=*/true));
  CHECK(StoredVersion(path) == "1");
  {
    auto store = OpenAt(path);
    reads_as_written(*store);
    DoPut(*store, {.thread = "t",
                   .id = CpId(3),
                   .parent = CpId(2),
                   .values = {{"a", Val("three")}},
                   .versions = {{"a", int64_t{3}}}});
    CHECK(ValuesOf(MustGet(*store, Cfg("t")).checkpoint) == "a=three");
    reads_as_written(*store);
  }
  CHECK(StoredVersion(path) == "4");
}

// A format 2 store (no hc entries), made from a fresh store with hidden
// checkpoints by deleting its hc entries and stamping 2.
TEST_CASE(
    "rocksdb layout: a format 2 store reads read-only, and gets its hidden "
    "counts read-write") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    PutSeededChain(*store, 3, "w");
    for (int i = 1; i <= 2; ++i) {
      DoPut(*store,
            {.thread = "u",
             .id = CpId(i),
             .parent = i > 1 ? std::optional(CpId(i - 1)) : std::nullopt,
             .versions = {{"a", int64_t{i}}},
             .ns = "sub"});
    }
    RP_REQUIRE_OK(store->HideCheckpoint(Cfg("t", CpId(1))));
    RP_REQUIRE_OK(store->HideCheckpoint(Cfg("t", CpId(2))));
    RP_REQUIRE_OK(store->HideCheckpoint(Cfg("u", CpId(1), "sub")));
    RP_REQUIRE_OK(store->Compact());  // folds merge operands into values
  }
  const auto count_key = [](const char* thread, const char* ns) {
    return keys::Encode(T({S("hc"), S(thread), S(ns)}));
  };
  {
    RawDb raw(path);
    rocksdb::ColumnFamilyHandle* index = raw.by_name.at("index");
    for (const auto& [thread, ns] : {std::pair{"t", ""}, {"u", "sub"}}) {
      REQUIRE(
          raw.db->Delete(rocksdb::WriteOptions(), index, count_key(thread, ns))
              .ok());
    }
  }
  StampVersion(path, "2");
  const auto visible_counts = [](RocksDbCheckpointer& store) {
    std::vector<uint64_t> counts;
    for (const ThreadInfo& thread : Unwrap(store.ListThreads({})).threads) {
      for (const NamespaceInfo& ns : thread.namespaces) {
        counts.push_back(ns.checkpoint_count);
      }
    }
    return counts;
  };
  {
    auto store = OpenAt(path, /*read_only=*/true);
    CHECK(visible_counts(*store) == std::vector<uint64_t>{1, 1});
    CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
    CHECK(KeysOf(*store, store->meta).size() == 2);
  }
  CHECK(StoredVersion(path) == "2");
  {
    auto store = OpenAt(path);
    RocksDbCheckpointer& impl = *store;
    for (const auto& [thread, ns, count] :
         {std::tuple{"t", "", "2"}, {"u", "sub", "1"}}) {
      std::string value;
      REQUIRE(impl.db
                  ->Get(rocksdb::ReadOptions(), impl.index,
                        count_key(thread, ns), &value)
                  .ok());
      CHECK(value == count);
    }
    CHECK(visible_counts(*store) == std::vector<uint64_t>{1, 1});
    CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
  }
  CHECK(StoredVersion(path) == "4");
}

}  // namespace
}  // namespace rockpoint::testing
