// RocksDbCheckpointer: what only the RocksDB layout shows. The exact key
// bytes of every kind, one WriteBatch per call, values stored once, hidden
// checkpoints in the index, the delta walk without point reads, and the
// stats. Reads the database through the store's own handles.
#include <doctest/doctest.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include "engine/rocksdb/layout_test_util.h"
#include "engine/rocksdb/rocksdb_maintenance.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

TEST_CASE("rocksdb layout: the key bytes of every kind") {
  TempDir dir;
  const std::string path = dir.Sub("store");
  {
    auto store = OpenAt(path);
    DoPut(*store, {.thread = "t1",
                   .id = "1ef",
                   .values = {{"messages", Val("[1]")}},
                   .versions = {{"messages", int64_t{3}}},
                   .metadata = Meta({{"run_id", Value("r1")}})});
    DoWrites(*store, "t1", "1ef",
             {W("a", "1"), W(std::string(kErrorChannel), "e")}, "task", "~");
    DoWrites(*store, std::string("t\0", 2), "1ef",
             {W(std::string(kErrorChannel), "e")}, "task", "~");
    RocksDbCheckpointer* impl = store.get();

    // Golden bytes from keys/FORMAT.md.
    REQUIRE(KeysOf(*store, impl->checkpoints).size() == 1);
    CHECK(Hex(KeysOf(*store, impl->checkpoints)[0]) ==
          "02 63 70 00 02 74 31 00 02 00 02 31 65 66 00");
    REQUIRE(KeysOf(*store, impl->blobs).size() == 1);
    CHECK(Hex(KeysOf(*store, impl->blobs)[0]) ==
          "02 62 6c 00 02 74 31 00 02 00 02 6d 65 73 73 61 67 65 73 00 15 03");
    const std::vector<std::string> writes = KeysOf(*store, impl->writes);
    REQUIRE(writes.size() == 3);
    CHECK(Hex(writes[0]) ==
          "02 77 72 00 02 74 00 ff 00 02 00 02 31 65 66 00 02 7e 00 02 74 61 "
          "73 6b 00 13 fe");
    CHECK(std::vector<std::string>(writes.begin() + 1, writes.end()) ==
          Encoded({T({S("wr"), S("t1"), S(""), S("1ef"), S("~"), S("task"),
                      int64_t{-1}}),
                   T({S("wr"), S("t1"), S(""), S("1ef"), S("~"), S("task"),
                      int64_t{0}})}));
    CHECK(KeysOf(*store, impl->index) ==
          Encoded({T({S("th"), S("t1"), S("")}),
                   T({S("run"), S("r1"), S("t1"), S(""), S("1ef")}),
                   T({S("ts"), S("1ef"), S("t1"), S("")})}));
    CHECK(KeysOf(*store, impl->meta) ==
          Encoded({T({S("format_version")}), T({S("created_by")})}));
    std::string version;
    REQUIRE(impl->db
                ->Get(rocksdb::ReadOptions(), impl->meta,
                      keys::Encode(T({S("format_version")})), &version)
                .ok());
    CHECK(version == "4");
  }
  std::vector<std::string> families;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &families)
              .ok());
  std::sort(families.begin(), families.end());
  CHECK(families == std::vector<std::string>{"blobs", "checkpoints", "default",
                                             "index", "meta", "writes"});
}

TEST_CASE("rocksdb layout: every call is one write batch") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  rocksdb::DB* db = store->db.get();
  const auto step = [&](auto&& call) {
    const rocksdb::SequenceNumber before = db->GetLatestSequenceNumber();
    call();
    std::vector<uint32_t> batches = BatchesSince(db, before);
    // Sequence numbers advance by the ops of that one batch.
    if (batches.size() == 1) {
      CHECK(db->GetLatestSequenceNumber() == before + batches[0]);
    }
    return batches;
  };

  // record + 2 blobs + th + ts + run
  CHECK(step([&] {
          DoPut(*store, {.thread = "t",
                         .id = CpId(1),
                         .values = {{"a", Val("1")}, {"b", Val("2")}},
                         .versions = {{"a", int64_t{1}}, {"b", int64_t{1}}},
                         .metadata = Meta({{"run_id", Value("r1")}})});
        }) == std::vector<uint32_t>{6});
  // An unchanged channel writes nothing: record + 1 blob + th + ts + run.
  CHECK(step([&] {
          DoPut(*store, {.thread = "t",
                         .id = CpId(2),
                         .parent = CpId(1),
                         .values = {{"a", Val("1")}, {"b", Val("3")}},
                         .versions = {{"a", int64_t{1}}, {"b", int64_t{2}}},
                         .new_versions = ChannelVersions{{"b", int64_t{2}}},
                         .metadata = Meta({{"run_id", Value("r2")}})});
        }) == std::vector<uint32_t>{5});
  CHECK(step([&] {
          DoWrites(
              *store, "t", CpId(2),
              {W("a", "x"), W("b", "y"), W(std::string(kErrorChannel), "e")},
              "k");
        }) == std::vector<uint32_t>{3});
  // Regular writes already there are skipped; the special one replaces.
  CHECK(step([&] {
          DoWrites(
              *store, "t", CpId(2),
              {W("a", "x2"), W("b", "y2"), W(std::string(kErrorChannel), "e2")},
              "k");
        }) == std::vector<uint32_t>{1});
  CHECK(step([&] { RP_REQUIRE_OK(store->CopyThread("t", "u")); }).size() == 1);
  CHECK(step([&] { RP_REQUIRE_OK(store->CopyThread("t", "v")); }).size() == 1);
  // Both threads lose cp0001 in one batch.
  CHECK(step([&] {
          RP_REQUIRE_OK(store->Prune({"t", "u"}, PruneStrategy::kKeepLatest));
        }).size() == 1);
  // cp0002 of t, u and v in one batch.
  CHECK(step([&] { RP_REQUIRE_OK(store->DeleteForRuns({"r2"})); }).size() == 1);
  CHECK(step([&] { RP_REQUIRE_OK(store->DeleteThread("v")); }).size() == 1);
  CHECK(Collect(*store, ListOf(std::nullopt)).empty());
  // Unknown ids write nothing at all.
  CHECK(step([&] { RP_REQUIRE_OK(store->DeleteThread("nope")); }).empty());
  CHECK(step([&] { RP_REQUIRE_OK(store->DeleteForRuns({"nope"})); }).empty());
}

TEST_CASE("rocksdb layout: values are stored once per version") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  const std::string marker = "UNIQUE-" + std::string(1000, 'v');
  for (int n = 1; n <= 3; ++n) {
    // Put 2 does not name the channel in new_versions; put 3 reuses the
    // version with another value (never replaces the stored one).
    std::map<std::string, TypedValue> values = {
        {"big", Val(n == 3 ? "other" : marker)}};
    ChannelVersions new_versions;
    if (n != 2) new_versions["big"] = int64_t{1};
    DoPut(*store, {.thread = "t",
                   .id = CpId(n),
                   .parent = n > 1 ? std::optional(CpId(n - 1)) : std::nullopt,
                   .values = values,
                   .versions = {{"big", int64_t{1}}},
                   .new_versions = new_versions});
  }
  CHECK(KeysOf(*store, store->blobs).size() == 1);
  for (const std::string& record : RawValuesOf(*store, store->checkpoints)) {
    CHECK(record.find("UNIQUE-") == std::string::npos);
  }
  for (int n = 1; n <= 3; ++n) {
    CHECK(MustGet(*store, Cfg("t", CpId(n)))
              .checkpoint.channel_values.at("big") == Val(marker));
  }
}

TEST_CASE("rocksdb layout: hidden checkpoints are indexed apart") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  PutSeededChain(*store, 3, "w", Meta({{"run_id", Value("r")}}));
  RP_REQUIRE_OK(store->Prune({"t"}, PruneStrategy::kKeepLatest));
  CHECK(KeysOf(*store, store->index) ==
        Encoded({T({S("hc"), S("t"), S("")}),
                 T({S("hd"), S("t"), S(""), CpId(1)}),
                 T({S("hd"), S("t"), S(""), CpId(2)}),
                 T({S("run"), S("r"), S("t"), S(""), CpId(3)}),
                 T({S("th"), S("t"), S("")}),
                 T({S("ts"), CpId(3), S("t"), S("")})}));
  ThreadPage page = Unwrap(store->ListThreads({}));
  REQUIRE(page.threads.size() == 1);
  CHECK(
      page.threads[0].namespaces ==
      std::vector<NamespaceInfo>{{"", 1, CpId(3), MakeCheckpoint(CpId(3)).ts}});
  DeltaChannelHistory history =
      Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m"})).at("m");
  CHECK(history.seed == Val("seed"));
  CHECK(WritesOf(history.writes) == "/k#0:m=w1 /k#0:m=w2");

  // hide_checkpoint leaves the keys a prune leaves, in one batch.
  TempDir other;
  auto rebuilt = OpenAt(other.Sub("store"));
  PutSeededChain(*rebuilt, 3, "w", Meta({{"run_id", Value("r")}}));
  rocksdb::DB* db = rebuilt->db.get();
  rocksdb::SequenceNumber before = db->GetLatestSequenceNumber();
  RP_REQUIRE_OK(rebuilt->HideCheckpoint(Cfg("t", CpId(1))));
  // record + hd + hc, ts and run deleted.
  CHECK(BatchesSince(db, before) == std::vector<uint32_t>{5});
  before = db->GetLatestSequenceNumber();
  RP_REQUIRE_OK(rebuilt->HideCheckpoint(Cfg("t", CpId(1))));
  CHECK(BatchesSince(db, before).empty());  // already hidden.
  RP_REQUIRE_OK(rebuilt->HideCheckpoint(Cfg("t", CpId(2))));
  CHECK(KeysOf(*rebuilt, rebuilt->index) == KeysOf(*store, store->index));
  CHECK(RawValuesOf(*rebuilt, rebuilt->index) ==
        RawValuesOf(*store, store->index));
  CHECK(KeysOf(*rebuilt, rebuilt->checkpoints) ==
        KeysOf(*store, store->checkpoints));
  for (int n = 1; n <= 2; ++n) {
    CHECK(Unwrap(rebuilt->ReadRecord({}, "t", "", CpId(n))) ==
          Unwrap(store->ReadRecord({}, "t", "", CpId(n))));
  }
}

// The hc entry of (thread, ""), or nullopt when it has none.
std::optional<std::string> HiddenCountOf(RocksDbCheckpointer& store,
                                         const char* thread) {
  std::string value;
  const rocksdb::Status status =
      store.db->Get(rocksdb::ReadOptions(), store.index,
                    keys::Encode(T({S("hc"), S(thread), S("")})), &value);
  if (status.IsNotFound()) return std::nullopt;
  REQUIRE(status.ok());
  return value;
}

TEST_CASE(
    "rocksdb layout: copy, delete and a put over a hidden checkpoint keep "
    "the hidden count") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  PutSeededChain(*store, 3, "w");
  RP_REQUIRE_OK(store->Prune({"t"}, PruneStrategy::kKeepLatest));
  CHECK(HiddenCountOf(*store, "t") == "2");
  RP_REQUIRE_OK(store->CopyThread("t", "u"));
  CHECK(HiddenCountOf(*store, "u") == "2");
  RP_REQUIRE_OK(store->DeleteThread("u"));
  CHECK(HiddenCountOf(*store, "u") == std::nullopt);
  DoPut(*store,
        {.thread = "t", .id = CpId(1), .versions = {{"m", int64_t{1}}}});
  CHECK(HiddenCountOf(*store, "t") == "1");
  RP_REQUIRE_OK(store->Prune({"t"}, PruneStrategy::kDelete));
  CHECK(HiddenCountOf(*store, "t") == std::nullopt);
  CHECK(Unwrap(VerifyStore(*store, nullptr)).sound());
}

TEST_CASE("rocksdb layout: the delta walk makes no point reads") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  constexpr int kLength = 60;
  PutSeededChain(*store, kLength, "");
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  DeltaChannelHistory history =
      Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m"})).at("m");
  const uint64_t walk_gets = rocksdb::get_perf_context()->get_read_bytes;
  rocksdb::get_perf_context()->Reset();
  MustGet(*store, Cfg("t", CpId(5)));
  const uint64_t tuple_gets = rocksdb::get_perf_context()->get_read_bytes;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);

  CHECK(history.seed == Val("seed"));
  CHECK(history.writes.size() == kLength - 1);
  CHECK(history.writes.front().checkpoint_id == CpId(1));
  CHECK(history.writes.back().checkpoint_id == CpId(kLength - 1));
  CHECK(walk_gets == 0);
  CHECK(tuple_gets > 0);  // the counter does count point reads
}

TEST_CASE("rocksdb layout: stats and large values in blob files") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"), false, /*blob_min=*/1024);
  DoPut(*store,
        {.thread = "t",
         .id = CpId(1),
         .values = {{"big", Val(std::string(8192, 'x'))}, {"small", Val("1")}},
         .versions = {{"big", int64_t{1}}, {"small", int64_t{1}}}});
  RP_REQUIRE_OK(store->Compact());
  StoreStats stats = Unwrap(store->Stats());
  std::map<std::string, ColumnFamilyStats> by_name;
  for (const ColumnFamilyStats& family : stats.column_families) {
    by_name[family.name] = family;
  }
  REQUIRE(by_name.size() == 5);
  CHECK(by_name.at("checkpoints").live_sst_bytes > 0);
  CHECK(by_name.at("checkpoints").estimated_keys == 1);
  CHECK(by_name.at("blobs").blob_file_bytes > 0);
  CHECK(by_name.at("index").estimated_keys == 2);
  CHECK(stats.total_disk_bytes > by_name.at("blobs").blob_file_bytes);
  CHECK(stats.bytes_written > 8192);
  // Compact() rewrote the flushed tables (the blob file stays as it is).
  CHECK(stats.compaction_bytes_written > 0);
  CHECK(ValuesOf(MustGet(*store, Cfg("t")).checkpoint) ==
        "big=" + std::string(8192, 'x') + " small=1");
  // Blob-file values are cached with the blocks: a second read of the big
  // value hits the cache instead of reading the blob file.
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  CHECK(ValuesOf(MustGet(*store, Cfg("t")).checkpoint).size() > 8192);
  CHECK(rocksdb::get_perf_context()->blob_cache_hit_count == 1);
  CHECK(rocksdb::get_perf_context()->blob_read_count == 0);
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
}

}  // namespace
}  // namespace rockpoint::testing
