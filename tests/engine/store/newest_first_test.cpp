// Search without a query reads the recent family (newest_first.h): its
// pages equal a model's after random puts, overwrites, deletes, refreshes
// and expiries across namespaces, on both backends; Verify finds a missing
// or stale recency entry, and a search meeting a stale one is Corruption;
// a format 1 store (no recent family) is upgraded when opened for writing
// and refused read-only until then.
#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/store/store_backend.h"
#include "engine/store/store_harness.h"
#include "engine/store/store_layout.h"

namespace rockpoint::store_testing {
namespace {

using store_internal::StoreFamily;

// What the model keeps of a live item.
struct ModelItem {
  Namespace ns;
  std::string key;
  int64_t updated_at_us;
  std::string kind;
  std::optional<int64_t> expires_at_us;
};

// The model's page: items under `prefix` of `kind` (any when empty), live
// at `now_us`, newest first, ties in item key order.
std::string ModelPage(const std::map<std::string, ModelItem>& items,
                      const Namespace& prefix, const std::string& kind,
                      int64_t now_us, size_t offset, size_t limit) {
  std::vector<std::pair<std::string, const ModelItem*>> hits;
  for (const auto& [item_key, item] : items) {
    if (item.ns.size() < prefix.size() ||
        !std::equal(prefix.begin(), prefix.end(), item.ns.begin())) {
      continue;
    }
    if (item.expires_at_us && *item.expires_at_us <= now_us) continue;
    if (!kind.empty() && item.kind != kind) continue;
    hits.emplace_back(item_key, &item);
  }
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) {
    return std::tie(b.second->updated_at_us, a.first) <
           std::tie(a.second->updated_at_us, b.first);
  });
  std::string out;
  for (size_t i = offset; i < hits.size() && i < offset + limit; ++i) {
    if (!out.empty()) out += ' ';
    out += ItemName(hits[i].second->ns, hits[i].second->key);
  }
  return out;
}

TEST_CASE("newest first: pages equal the model after random changes") {
  StoreHarness h(EachBackend());
  std::mt19937_64 rng(20261129);
  const std::vector<Namespace> spaces = {
      {"a"}, {"a", "b"}, {"a", "b", "c"}, {"a", "bc"}, {"d"}};
  const std::vector<std::string> kinds = {"x", "y", "z"};
  std::map<std::string, ModelItem> model;
  for (int step = 0; step < 600; ++step) {
    // Several changes share a time now and then: ties order by key.
    if (rng() % 3 != 0) h.clock().Advance(kSecondUs);
    const Namespace& ns = spaces[rng() % spaces.size()];
    const std::string key = "k" + std::to_string(rng() % 40);
    const std::string item_key = store_internal::ItemKey(ns, key);
    const int action = static_cast<int>(rng() % 10);
    if (action == 0) {
      STORE_REQUIRE_OK(h.store().Delete(ns, key));
      model.erase(item_key);
    } else if (action == 1) {
      // A read refreshes nothing here (no TTL refresh changes updated_at).
      GetItem(h.store(), ns, key);
    } else {
      const std::string kind = kinds[rng() % kinds.size()];
      const bool expiring = action == 2;
      PutItem(h.store(), ns, key, Obj({{"kind", kind}}),
              expiring ? ItemTtl::Minutes(1) : ItemTtl::Never());
      const int64_t now = h.clock().now();
      std::optional<int64_t> expires;
      if (expiring) expires = now + kMinuteUs;
      model[item_key] = {ns, key, now, kind, expires};
    }
  }
  for (const Namespace& prefix :
       {Namespace{}, Namespace{"a"}, Namespace{"a", "b"}, Namespace{"d"}}) {
    for (const std::string& kind : {std::string(), std::string("y")}) {
      for (const auto& [offset, limit] :
           std::vector<std::pair<size_t, size_t>>{{0, 10}, {5, 7}, {0, 500}}) {
        CAPTURE(NsName(prefix));
        CAPTURE(kind);
        CAPTURE(offset);
        SearchOp op = SearchUnder(prefix, limit);
        op.offset = offset;
        if (!kind.empty()) op.filter = {{"kind", Value(kind)}};
        CHECK(Names(MustSearch(h.store(), op)) ==
              ModelPage(model, prefix, kind, h.clock().now(), offset, limit));
      }
    }
  }
  auto report = MustOk(h.store().Verify());
  CHECK(report.problems.empty());
  CHECK(report.recent_entries == report.items);
}

// Writes `mutations` to the closed RocksDB store of `h` through its backend.
void WriteRaw(StoreHarness& h, std::vector<store_internal::StoreMutation> raw) {
  h.Drop();
  auto backend =
      store_internal::OpenRocksDbStoreBackend({.path = h.dir().Sub("db")});
  REQUIRE(backend.ok());
  STORE_REQUIRE_OK((*backend)->Write(raw, true));
  STORE_REQUIRE_OK((*backend)->Close());
}

TEST_CASE("newest first: Verify and Search find a damaged recency index") {
  StoreHarness h(Backend::kRocksDb);
  PutItem(h.store(), {"n"}, "a", Obj({{"v", 1}}));
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"n"}, "b", Obj({{"v", 2}}));
  const int64_t b_time = h.clock().now();

  // b's entry is gone, and one names a time b was never updated at.
  WriteRaw(h, {{StoreFamily::kRecent,
                store_internal::RecentKey({"n"}, b_time, "b"), std::nullopt},
               {StoreFamily::kRecent,
                store_internal::RecentKey({"n"}, b_time + 5, "b"), ""}});
  h.Reopen();
  auto report = MustOk(h.store().Verify());
  REQUIRE(report.problems.size() == 2);
  CHECK(report.problems[0].find("matches no item's update time") !=
        std::string::npos);
  CHECK(report.problems[1].find("has no recency entry") != std::string::npos);
  auto searched = h.store().Search(SearchUnder({"n"}));
  REQUIRE(searched.status().IsCorruption());
  CHECK(searched.status().message().find("disagrees") != std::string::npos);
  // Get does not read the index.
  CHECK(MustGetItem(h.store(), {"n"}, "b").value == Obj({{"v", 2}}));
}

// Turns the closed store of `h` into a format 1 store: no recent family,
// meta "format" 1.
void MakeFormatOne(StoreHarness& h) {
  WriteRaw(
      h, {{StoreFamily::kMeta, std::string(store_internal::kFormatMeta), "1"}});
  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(),
                                          h.dir().Sub("db"), &names)
              .ok());
  for (const std::string& name : names) {
    families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), h.dir().Sub("db"), families,
                            &handles, &raw)
              .ok());
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "store.recent") {
      REQUIRE(raw->DropColumnFamily(handles[i]).ok());
    }
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    REQUIRE(raw->DestroyColumnFamilyHandle(handle).ok());
  }
  REQUIRE(raw->Close().ok());
  delete raw;
}

TEST_CASE("newest first: a format 1 store is upgraded when opened to write") {
  StoreHarness h(Backend::kRocksDb);
  for (int i = 0; i < 5; ++i) {
    h.clock().Advance(kSecondUs);
    PutItem(h.store(), {"n", std::to_string(i % 2)}, "k" + std::to_string(i),
            Obj({{"i", i}}));
  }
  MakeFormatOne(h);

  StoreOpenOptions read_only;
  read_only.read_only = true;
  read_only.clock = h.clock().AsStoreClock();
  auto refused = OpenStore(h.url(), read_only);
  REQUIRE(refused.status().IsInvalidArgument());
  CHECK(refused.status().message().find("open it once for writing") !=
        std::string::npos);

  h.Reopen();
  CHECK(Names(MustSearch(h.store(), SearchUnder({"n"}))) ==
        "n/0:k4 n/1:k3 n/0:k2 n/1:k1 n/0:k0");
  auto report = MustOk(h.store().Verify());
  CHECK(report.problems.empty());
  CHECK(report.recent_entries == 5);
  h.Drop();
  auto upgraded = OpenStore(h.url(), read_only);
  REQUIRE_MESSAGE(upgraded.ok(), upgraded.status().ToString());
  CHECK(Names(MustSearch(**upgraded, SearchUnder({"n"}, 2))) ==
        "n/0:k4 n/1:k3");
}

}  // namespace
}  // namespace rockpoint::store_testing
