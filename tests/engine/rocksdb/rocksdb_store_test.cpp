// RocksDbCheckpointer as a store on disk: the format version in meta,
// read-only mode, corruption reported with the key, prefix-neighbour ids
// across flushes and compaction, and regressions found in RocksDB itself.
// Reads and damages the database through RocksDB (a raw open after closing
// the store).
#include <doctest/doctest.h>

#include <set>

#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

TEST_CASE("rocksdb layout: a store of a newer format version is refused") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  OpenAt(path).reset();
  {
    RawDb raw(path);
    REQUIRE(raw.db
                ->Put(rocksdb::WriteOptions(), raw.by_name.at("meta"),
                      keys::Encode(T({S("format_version")})), "3")
                .ok());
  }
  for (bool read_only : {false, true}) {
    RocksDbOptions options;
    options.path = path;
    options.read_only = read_only;
    Status status = RocksDbCheckpointer::Open(options).status();
    INFO(status.ToString());
    CHECK(status.IsInvalidArgument());
    CHECK(status.message().find("format version 3 is newer") !=
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
  const std::string version_key = keys::Encode(T({S("format_version")}));
  {
    RawDb raw(path);
    REQUIRE(raw.db
                ->Delete(rocksdb::WriteOptions(), raw.by_name.at("meta"),
                         version_key)
                .ok());
  }
  for (bool read_only : {false, true}) {
    RocksDbOptions options;
    options.path = path;
    options.read_only = read_only;
    Status status = RocksDbCheckpointer::Open(options).status();
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find(keys::Describe(version_key)) !=
          std::string::npos);
  }
  // Nothing was written: the record is still missing.
  RawDb raw(path);
  std::string value;
  CHECK(raw.db
            ->Get(rocksdb::ReadOptions(), raw.by_name.at("meta"), version_key,
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
  RawDb raw(path);
  std::string value;
  REQUIRE(raw.db
              ->Get(rocksdb::ReadOptions(), raw.by_name.at("meta"),
                    keys::Encode(T({S("format_version")})), &value)
              .ok());
  CHECK(value == std::to_string(RocksDbCheckpointer::kFormatVersion));
}

// A store of format 1 (01 records, no checksums), made from a fresh store
// by rewriting every record and the format version the way format 1 wrote
// them.
TEST_CASE(
    "rocksdb layout: a format 1 store reads, and is stamped 2 read-write") {
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
  const std::string version_key = keys::Encode(T({S("format_version")}));
  const auto stored_version = [&] {
    RawDb raw(path);
    std::string value;
    REQUIRE(raw.db
                ->Get(rocksdb::ReadOptions(), raw.by_name.at("meta"),
                      version_key, &value)
                .ok());
    return value;
  };
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
    REQUIRE(raw.db
                ->Put(rocksdb::WriteOptions(), raw.by_name.at("meta"),
                      version_key, "1")
                .ok());
  }
  const auto reads_as_written = [&](RocksDbCheckpointer& store) {
    for (int id : {1, 2}) {
      CHECK(Get(store, Cfg("t", CpId(id))) == written[id - 1]);
    }
    CHECK(Unwrap(VerifyStore(store, nullptr)).sound());
  };
  reads_as_written(*OpenAt(path, /*read_only=*/true));
  CHECK(stored_version() == "1");
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
  CHECK(stored_version() == "2");
}

TEST_CASE("rocksdb layout: read-only mode reads and refuses every write") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"a", Val("1")}},
                   .versions = {{"a", int64_t{1}}}});
    DoPut(*store, {.thread = "t",
                   .id = CpId(2),
                   .parent = CpId(1),
                   .versions = {{"a", int64_t{2}}}});
    DoWrites(*store, "t", CpId(1), {W("a", "w")}, "k");
  }
  auto writer = OpenAt(path);  // read-only opens take no lock
  auto reader = OpenAt(path, /*read_only=*/true);
  CHECK(MustGet(*reader, Cfg("t")).config.checkpoint_id == CpId(2));
  CHECK(Collect(*reader, ListOf(std::nullopt)).size() == 2);
  CHECK(Unwrap(reader->ListThreads({})).threads.size() == 1);
  CHECK(Unwrap(reader->GetDeltaChannelHistory(Cfg("t"), {"a"}))
            .at("a")
            .writes.size() == 1);

  const auto refused = [](const Status& status) {
    INFO(status.ToString());
    CHECK(status.IsInvalidArgument());
    CHECK(status.message().find("store opened read-only") != std::string::npos);
  };
  Checkpoint checkpoint = MakeCheckpoint(CpId(3));
  refused(reader->Put(Cfg("t", CpId(2)), checkpoint, Meta(), {}).status());
  refused(reader->PutWrites(Cfg("t", CpId(2)), {W("a", "x")}, "k"));
  refused(reader->DeleteThread("t"));
  refused(reader->DeleteForRuns({"r"}));
  refused(reader->CopyThread("t", "u"));
  refused(reader->HideCheckpoint(Cfg("t", CpId(1))));
  refused(reader->Prune({"t"}, PruneStrategy::kDelete));
  refused(reader->Compact());
  reader.reset();
  CHECK(Collect(*writer, ListOf(std::nullopt)).size() == 2);
}

TEST_CASE("rocksdb layout: a corrupted record is Corruption naming its key") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  Impl* impl = &ImplOf(*store);
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}},
                 .versions = {{"a", int64_t{1}}}});
  DoPut(*store, {.thread = "t",
                 .id = CpId(2),
                 .parent = CpId(1),
                 .values = {{"a", Val("2")}},
                 .versions = {{"a", int64_t{2}}}});
  DoWrites(*store, "t", CpId(1), {W("a", "w")}, "k");
  const auto corrupt = [&](rocksdb::ColumnFamilyHandle* family,
                           const keys::Tuple& key) {
    REQUIRE(impl->db
                ->Put(rocksdb::WriteOptions(), family, keys::Encode(key),
                      "\x07not a record")
                .ok());
    return keys::Describe(keys::Encode(key));
  };
  const auto names = [](const Status& status, const std::string& key) {
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find(key) != std::string::npos);
  };

  SUBCASE("checkpoint record") {
    const std::string key =
        corrupt(impl->checkpoints, T({S("cp"), S("t"), S(""), CpId(2)}));
    CHECK(key == "(\"cp\", \"t\", \"\", \"cp0002\")");
    names(store->GetTuple(Cfg("t", CpId(2))).status(), key);
    names(store->GetTuple(Cfg("t")).status(), key);
    for (const ListOptions& options :
         {ListOf(std::nullopt), ListOf(Cfg("t")),
          ListOf(Cfg("t", std::nullopt, std::nullopt))}) {
      auto cursor = Unwrap(store->List(options));
      names(cursor->Next().status(), key);
      // After an error the cursor is at its end.
      auto after = cursor->Next();
      REQUIRE(after.ok());
      CHECK_FALSE(after->has_value());
    }
    names(store->ListThreads({}).status(), key);
    names(store->GetDeltaChannelHistory(Cfg("t", CpId(2)), {"a"}).status(),
          key);
    names(store->Prune({"t"}, PruneStrategy::kKeepLatest), key);
    // The intact checkpoint still reads; the thread can still be deleted.
    CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(1))).checkpoint) == "a=1");
    RP_REQUIRE_OK(store->DeleteThread("t"));
    CHECK_FALSE(Get(*store, Cfg("t")).has_value());
  }
  SUBCASE("blob record") {
    const std::string key =
        corrupt(impl->blobs, T({S("bl"), S("t"), S(""), S("a"), int64_t{1}}));
    names(store->GetTuple(Cfg("t", CpId(1))).status(), key);
    names(store->GetDeltaChannelHistory(Cfg("t", CpId(2)), {"a"}).status(),
          key);
  }
  SUBCASE("write record") {
    const std::string key = corrupt(
        impl->writes,
        T({S("wr"), S("t"), S(""), CpId(1), S(""), S("k"), int64_t{0}}));
    names(store->GetTuple(Cfg("t", CpId(1))).status(), key);
    names(store->GetDeltaChannelHistory(Cfg("t", CpId(2)), {"a"}).status(),
          key);
  }
}

// Regression (#21): a byte flipped in a stored record changed what reads
// returned while verify called the store sound. Now every single-byte change
// of any record makes verify report that record's key, and every read
// returns either Corruption or exactly what it returned before.
TEST_CASE(
    "rocksdb layout: regression: a damaged record read as another value") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  Impl* impl = &ImplOf(*store);
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("one")}, {"b", Val("bee")}},
                 .versions = {{"a", int64_t{1}}, {"b", std::string("1.x")}}});
  DoPut(*store, {.thread = "t",
                 .id = CpId(2),
                 .parent = CpId(1),
                 .values = {{"a", Val("two")}},
                 .versions = {{"a", int64_t{2}}, {"b", std::string("1.x")}},
                 .new_versions = ChannelVersions{{"a", int64_t{2}}}});
  DoWrites(*store, "t", CpId(1), {W("a", "w1"), W("b", "w2")}, "k");
  struct Reads {
    std::vector<Result<std::optional<CheckpointTuple>>> tuples;
    std::vector<Result<DeltaHistory>> histories;
  };
  const auto reads = [&] {
    Reads out;
    for (const auto& config : {Cfg("t", CpId(1)), Cfg("t", CpId(2))}) {
      out.tuples.push_back(store->GetTuple(config));
      out.histories.push_back(
          store->GetDeltaChannelHistory(config, {"a", "b"}));
    }
    return out;
  };
  // Each read of `now` is Corruption or what the intact store returned.
  const auto same_or_corruption = [](const auto& now, const auto& intact) {
    for (size_t i = 0; i < now.size(); ++i) {
      REQUIRE(intact[i].ok());
      if (now[i].ok()) {
        CHECK(*now[i] == *intact[i]);
      } else {
        CHECK(now[i].status().IsCorruption());
      }
    }
  };
  const Reads intact = reads();
  struct Stored {
    rocksdb::ColumnFamilyHandle* family;
    std::string key, value;
  };
  std::vector<Stored> records;
  for (auto* family : {impl->checkpoints, impl->blobs, impl->writes}) {
    std::unique_ptr<rocksdb::Iterator> it(
        impl->db->NewIterator(rocksdb::ReadOptions(), family));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      records.push_back({family, it->key().ToString(), it->value().ToString()});
    }
  }
  REQUIRE(records.size() == 7);  // 2 checkpoints, 3 blobs, 2 writes.
  int damaged = 0;
  for (const Stored& record : records) {
    const std::string name = keys::Describe(record.key);
    for (size_t at = 0; at < record.value.size(); ++at) {
      std::string bytes = record.value;
      bytes[at] = static_cast<char>(bytes[at] ^ (at % 2 ? 0x01 : 0x80));
      REQUIRE(
          impl->db
              ->Put(rocksdb::WriteOptions(), record.family, record.key, bytes)
              .ok());
      CAPTURE(name);
      CAPTURE(at);
      auto report = Unwrap(VerifyStore(*store, nullptr));
      CHECK_FALSE(report.sound());
      bool named = false;
      for (const VerifyProblem& problem : report.problems) {
        named = named || problem.key == name;
      }
      CHECK(named);
      const Reads now = reads();
      same_or_corruption(now.tuples, intact.tuples);
      same_or_corruption(now.histories, intact.histories);
      ++damaged;
    }
    REQUIRE(impl->db
                ->Put(rocksdb::WriteOptions(), record.family, record.key,
                      record.value)
                .ok());
  }
  CHECK(damaged > 200);
  CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
  const Reads restored = reads();
  same_or_corruption(restored.tuples, intact.tuples);
  for (const auto& tuple : restored.tuples) CHECK(tuple.ok());
}

// Issue #19, defect 2: a checkpoint whose value record was lost read back
// without that channel, and verify called the store sound.
TEST_CASE(
    "rocksdb layout: regression: a missing value record is Corruption naming "
    "its key") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  Impl* impl = &ImplOf(*store);
  DoPut(*store, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}},
                 .versions = {{"a", int64_t{1}}}});
  // cp2 inherits a=1; cp3 bumps a without a value ("empty").
  DoPut(*store, {.thread = "t",
                 .id = CpId(2),
                 .parent = CpId(1),
                 .versions = {{"a", int64_t{1}}},
                 .new_versions = ChannelVersions{}});
  DoPut(*store, {.thread = "t",
                 .id = CpId(3),
                 .parent = CpId(2),
                 .versions = {{"a", int64_t{2}}}});
  // A version never stored reads as no entry, and is no error.
  DoPut(*store, {.thread = "u",
                 .id = CpId(1),
                 .versions = {{"z", int64_t{9}}},
                 .new_versions = ChannelVersions{}});
  const std::string key =
      keys::Encode(T({S("bl"), S("t"), S(""), S("a"), int64_t{1}}));
  REQUIRE(impl->db->Delete(rocksdb::WriteOptions(), impl->blobs, key).ok());
  const auto names = [&](const Status& status) {
    INFO(status.ToString());
    CHECK(status.IsCorruption());
    CHECK(status.message().find(keys::Describe(key)) != std::string::npos);
  };
  names(store->GetTuple(Cfg("t", CpId(1))).status());
  names(store->GetTuple(Cfg("t", CpId(2))).status());  // inherited
  names(Unwrap(store->List(ListOf(Cfg("t", CpId(1)))))->Next().status());
  names(store->GetDeltaChannelHistory(Cfg("t", CpId(3)), {"a"}).status());
  CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(3))).checkpoint).empty());
  CHECK(ValuesOf(MustGet(*store, Cfg("u")).checkpoint).empty());

  VerifyReport report = Unwrap(VerifyStore(*store, nullptr));
  CHECK_FALSE(report.sound());
  std::set<std::string> flagged;
  for (const VerifyProblem& problem : report.problems) {
    if (problem.check == "value-present") flagged.insert(problem.detail);
  }
  // cp1 and cp2 read the lost value; u's never-stored version is fine.
  CHECK(flagged.size() == 2);
  for (const std::string& detail : flagged) {
    CHECK(detail.find(keys::Describe(key)) != std::string::npos);
  }
}

TEST_CASE("rocksdb layout: prefix-neighbour ids stay apart after compaction") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  const std::vector<std::string> threads = {
      "", "a", std::string("a\0", 2), std::string("a\0b", 3), "a\xff", "ab"};
  const std::vector<std::string> spaces = {"", "x", std::string("x\0", 2)};
  {
    auto store = OpenAt(path);
    for (const std::string& thread : threads) {
      for (const std::string& ns : spaces) {
        for (int n = 1; n <= 2; ++n) {
          DoPut(*store,
                {.thread = thread,
                 .id = CpId(n),
                 .parent = n > 1 ? std::optional(CpId(1)) : std::nullopt,
                 .values = {{"c", Val(thread + "/" + ns)}},
                 .versions = {{"c", int64_t{n}}},
                 .ns = ns});
          DoWrites(*store, thread, CpId(n), {W("c", ns)}, "k", "", ns);
        }
      }
    }
    RP_REQUIRE_OK(store->Compact());
  }
  auto store = OpenAt(path);
  RP_REQUIRE_OK(store->DeleteThread("a"));
  for (const std::string& thread : threads) {
    CAPTURE(thread);
    const size_t want = thread == "a" ? 0 : spaces.size() * 2;
    CHECK(Collect(*store, ListOf(Cfg(thread, std::nullopt, std::nullopt)))
              .size() == want);
    if (thread == "a") continue;
    for (const std::string& ns : spaces) {
      CheckpointTuple latest = MustGet(*store, Cfg(thread, std::nullopt, ns));
      CHECK(latest.config.checkpoint_id == CpId(2));
      CHECK(ValuesOf(latest.checkpoint) == "c=" + thread + "/" + ns);
      CHECK(WritesOf(latest.pending_writes) == "/k#0:c=" + ns);
    }
  }
}

// RocksDB 7.8 shares memtable insert hints between point keys and range
// deletions; delete_thread's range deletions must not reuse a hint of the
// keys they cover (a debug RocksDB asserts, a release one corrupts the
// memtable).
TEST_CASE("rocksdb layout: regression: range deletion beside insert hints") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  for (int round = 0; round < 3; ++round) {
    for (int n = 1; n <= 3; ++n) {
      DoPut(*store,
            {.thread = "t",
             .id = CpId(n),
             .parent = n > 1 ? std::optional(CpId(n - 1)) : std::nullopt,
             .values = {{"c", Val(std::to_string(round))}},
             .versions = {{"c", int64_t{n}}},
             .metadata = Meta({{"run_id", Value("r")}})});
      DoWrites(*store, "t", CpId(n), {W("c", "w")}, "k");
    }
    CHECK(
        Collect(*store, ListOf(Cfg("t", std::nullopt, std::nullopt))).size() ==
        3);
    CHECK(ValuesOf(MustGet(*store, Cfg("t")).checkpoint) ==
          "c=" + std::to_string(round));
    RP_REQUIRE_OK(store->CopyThread("t", "u"));
    RP_REQUIRE_OK(store->DeleteThread("t"));
    CHECK_FALSE(Get(*store, Cfg("t")).has_value());
    RP_REQUIRE_OK(store->DeleteThread("u"));
  }
  CHECK(Unwrap(store->ListThreads({})).threads.empty());
}

}  // namespace
}  // namespace rockpoint::testing
