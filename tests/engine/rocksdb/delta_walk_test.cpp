// The RocksDB delta-history walk (rocksdb_delta.cpp, delta_walk.h) against
// the memory backend on random forked histories, and the paths a linear
// history does not take: task ids and paths with NUL bytes, parent ids that
// do not decrease, parent cycles, repeated and unknown channels, corrupt
// ancestors.
#include <doctest/doctest.h>

#include <random>

#include "engine/rocksdb/layout_test_util.h"
#include "rockpoint/memory_checkpointer.h"

namespace rockpoint::testing {
namespace {

using namespace layout_test;  // NOLINT: test helpers

// Puts the same random history into both stores: forks, several channels,
// values, "empty" versions, versions reused across branches (a value then
// ignored by immutability), writes of several tasks, some with NUL bytes in
// task ids and paths.
class RandomHistory {
 public:
  explicit RandomHistory(uint64_t seed) : rng_(seed) {}

  static inline const std::vector<std::string> kChannels = {
      "a", "b", std::string("c\0d", 3), "messages"};

  void Build(int count, std::initializer_list<Checkpointer*> stores) {
    std::vector<ChannelVersions> versions_of;
    for (int n = 0; n < count; ++n) {
      PutSpec spec{.thread = "t", .id = CpId(n + 1)};
      ChannelVersions inherited;
      if (n > 0 && !OneIn(12)) {
        const int parent = OneIn(4) ? Uniform(n) : n - 1;
        spec.parent = CpId(parent + 1);
        inherited = versions_of[parent];
      }
      spec.versions = inherited;
      spec.new_versions.emplace();
      for (const std::string& channel : kChannels) {
        if (!OneIn(2)) continue;
        // Mostly a fresh version; sometimes the inherited one again, or one
        // of a small pool that other branches use too.
        int64_t version = n + 1;
        if (OneIn(4) && inherited.contains(channel)) {
          version = std::get<int64_t>(inherited.at(channel));
        } else if (OneIn(3)) {
          version = -1 - Uniform(4);
        }
        spec.versions[channel] = version;
        (*spec.new_versions)[channel] = version;
        if (OneIn(2)) {
          spec.values[channel] = Val("v" + std::to_string(n) + channel);
        }
      }
      versions_of.push_back(spec.versions);
      for (Checkpointer* store : stores) DoPut(*store, spec);
      for (int task = Uniform(4); task > 0; --task) {
        std::vector<ChannelWrite> writes;
        for (int w = 1 + Uniform(3); w > 0; --w) {
          writes.push_back(W(kChannels[Uniform(kChannels.size())],
                             "w" + std::to_string(Uniform(1000))));
        }
        std::string task_id = "task" + std::to_string(Uniform(5));
        if (OneIn(5)) task_id += std::string("\0\xff", 2);
        const std::string task_path =
            OneIn(4) ? std::string("p\0", 2) + std::to_string(Uniform(3)) : "";
        for (Checkpointer* store : stores) {
          DoWrites(*store, "t", spec.id, writes, task_id, task_path);
        }
      }
    }
  }

  int Uniform(int n) { return static_cast<int>(rng_() % n); }
  bool OneIn(int n) { return Uniform(n) == 0; }

 private:
  std::mt19937_64 rng_;
};

TEST_CASE("rocksdb delta walk: agrees with the memory backend") {
  TempDir dir;
  auto rocksdb = OpenAt(dir.Sub("store"));
  MemoryCheckpointer memory;
  RandomHistory history(7);
  constexpr int kCount = 80;
  history.Build(kCount, {rocksdb.get(), &memory});
  const auto compare = [&](const CheckpointConfig& config,
                           const std::vector<std::string>& channels) {
    const DeltaHistory expected =
        Unwrap(memory.GetDeltaChannelHistory(config, channels));
    CHECK(Unwrap(rocksdb->GetDeltaChannelHistory(config, channels)) ==
          expected);
  };
  for (int pass = 0; pass < 2; ++pass) {
    // Memtable first, then SST files.
    for (int n = 1; n <= kCount; ++n) {
      CAPTURE(n);
      compare(Cfg("t", CpId(n)), RandomHistory::kChannels);
      compare(Cfg("t", CpId(n)),
              {RandomHistory::kChannels[history.Uniform(4)]});
    }
    compare(Cfg("t"), RandomHistory::kChannels);
    // Repeated and unknown channels.
    compare(Cfg("t"), {"b", "zz", "b", "a"});
    RP_REQUIRE_OK(rocksdb->Compact());
  }
}

TEST_CASE("rocksdb delta walk: NUL bytes in task ids, paths and ids") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  const std::string root("r\0", 2), child("r\0\xff", 3), grandchild("s", 1);
  DoPut(*store, {.thread = "t",
                 .id = root,
                 .values = {{"m", Val("seed")}},
                 .versions = {{"m", int64_t{1}}}});
  DoPut(*store, {.thread = "t",
                 .id = child,
                 .parent = root,
                 .versions = {{"m", int64_t{2}}}});
  DoPut(*store, {.thread = "t",
                 .id = grandchild,
                 .parent = child,
                 .versions = {{"m", int64_t{3}}}});
  DoWrites(*store, "t", root, {W("m", "1")}, std::string("k\0", 2),
           std::string("\0p", 2));
  DoWrites(*store, "t", child, {W("m", "2"), W("m", "3")}, "k");
  DoWrites(*store, "t", child, {W("m", "4")}, std::string("k\0\xff", 3));
  DoWrites(*store, "t", grandchild, {W("m", "pending")}, "k");
  for (bool compacted : {false, true}) {
    if (compacted) RP_REQUIRE_OK(store->Compact());
    const DeltaChannelHistory history =
        Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m"})).at("m");
    CHECK(history.seed == Val("seed"));
    REQUIRE(history.writes.size() == 4);
    CHECK(history.writes[0].task_id == std::string("k\0", 2));
    CHECK(history.writes[0].task_path == std::string("\0p", 2));
    CHECK(history.writes[0].checkpoint_id == root);
    CHECK(history.writes[1].task_id == "k");
    CHECK(history.writes[2].idx == 1);
    CHECK(history.writes[3].task_id == std::string("k\0\xff", 3));
    CHECK(history.writes[3].checkpoint_id == child);
  }
}

TEST_CASE("rocksdb delta walk: parent ids that grow, and parent cycles") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  // Ids against time order: "m" <- "z" <- "a" <- "q" (parent first).
  const std::vector<std::string> ids = {"m", "z", "a", "q"};
  for (size_t i = 0; i < ids.size(); ++i) {
    DoPut(*store,
          {.thread = "t",
           .id = ids[i],
           .parent = i > 0 ? std::optional(ids[i - 1]) : std::nullopt,
           .values = i == 0
                         ? std::map<std::string, TypedValue>{{"m", Val("seed")}}
                         : std::map<std::string, TypedValue>{},
           .versions = {{"m", static_cast<int64_t>(i + 1)}}});
    DoWrites(*store, "t", ids[i], {W("m", ids[i])}, "k");
  }
  DeltaChannelHistory history =
      Unwrap(store->GetDeltaChannelHistory(Cfg("t", "q"), {"m"})).at("m");
  CHECK(history.seed == Val("seed"));
  CHECK(WritesOf(history.writes) == "/k#0:m=m /k#0:m=z /k#0:m=a");

  SUBCASE("a cycle ends the walk; no ancestor is taken twice") {
    // "m" rewritten as a child of "a": q -> a -> z -> m -> a.
    DoPut(*store, {.thread = "t",
                   .id = "m",
                   .parent = "a",
                   .versions = {{"m", int64_t{9}}}});
    history =
        Unwrap(store->GetDeltaChannelHistory(Cfg("t", "q"), {"m"})).at("m");
    CHECK_FALSE(history.seed.has_value());
    CHECK(WritesOf(history.writes) == "/k#0:m=m /k#0:m=z /k#0:m=a");
    // From the latest ("z"): z -> m -> a -> z; the target counts as
    // walked, as when named, so the walk stops before coming back to it.
    history = Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m"})).at("m");
    CHECK_FALSE(history.seed.has_value());
    CHECK(WritesOf(history.writes) == "/k#0:m=a /k#0:m=m");
    CHECK(Unwrap(store->GetDeltaChannelHistory(Cfg("t", "z"), {"m"})) ==
          Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m"})));
  }
}

TEST_CASE("rocksdb delta walk: a corrupt ancestor is Corruption naming it") {
  TempDir dir;
  auto store = OpenAt(dir.Sub("store"));
  PutSeededChain(*store, 4, "");
  RocksDbCheckpointer* impl = store.get();
  const auto corrupt = [&](rocksdb::ColumnFamilyHandle* family,
                           const keys::Tuple& key, const std::string& value) {
    REQUIRE(
        impl->db->Put(rocksdb::WriteOptions(), family, keys::Encode(key), value)
            .ok());
    return keys::Describe(keys::Encode(key));
  };
  std::string key;
  SUBCASE("a header of the wrong shape") {
    // A valid record version byte and header_len, then a 3-field header.
    key = corrupt(impl->checkpoints, T({S("cp"), S("t"), S(""), CpId(2)}),
                  std::string("\x01\x04\x93\xc0\x80\x90", 6));
  }
  SUBCASE("a write record of the wrong shape") {
    key =
        corrupt(impl->writes,
                T({S("wr"), S("t"), S(""), CpId(2), S(""), S("k"), int64_t{0}}),
                std::string("\x01\x92\xa1m\xa1t", 6));
  }
  SUBCASE("a write key with trailing elements") {
    key = corrupt(impl->writes,
                  T({S("wr"), S("t"), S(""), CpId(2), S(""), S("k"), int64_t{0},
                     int64_t{1}}),
                  serde::EncodeWriteRecord({"m", Val("x")}));
  }
  const Status status =
      store->GetDeltaChannelHistory(Cfg("t", CpId(4)), {"m"}).status();
  INFO(status.ToString());
  CHECK(status.IsCorruption());
  CHECK(status.message().find(key) != std::string::npos);
}

}  // namespace
}  // namespace rockpoint::testing
