// Store ExportItems, ImportItems and Verify: an export visits every stored
// item whole (times, expiry, TTL, vectors; expired ones too) in key order
// from one snapshot; an import writes such items back as they are,
// replacing what is at their keys, checked as puts are; Verify counts the
// families and finds a store written through the API sound.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

using namespace std::string_literals;  // NOLINT: "\0"s keys

StoreOpenOptions TransferOptions() {
  StoreOpenOptions options;
  options.index = StoreIndexOptions{2};
  return options;
}

std::vector<StoredItem> ExportAll(Store& store) {
  std::vector<StoredItem> items;
  STORE_REQUIRE_OK(store.ExportItems([&](const StoredItem& item) {
    items.push_back(item);
    return Status::OK();
  }));
  return items;
}

// Items with everything an item can have, at three clock readings; "old"
// has expired (unswept) when this returns.
void PutTransferItems(StoreHarness& h) {
  PutItem(h.store(), {"a"}, "old", Obj({{"v", 0}}), ItemTtl::Minutes(1));
  PutItem(h.store(), {"a"}, "z", Obj({{"v", 1}}), ItemTtl::Minutes(10),
          {FieldVector{"title", {1, 0}}, FieldVector{"body", {0, 1}}});
  h.clock().AdvanceMinutes(2);
  PutItem(h.store(), {"a", "b"}, "\0k"s, Obj({{"v", 2}}), ItemTtl::Never(),
          {FieldVector{"f", {1, 1}}});
  h.clock().AdvanceMinutes(1);
  PutItem(h.store(), {"a"}, "z", Obj({{"v", 3}}), ItemTtl::Minutes(10),
          {FieldVector{"title", {1, 0}}, FieldVector{"body", {0, 1}}});
  PutItem(h.store(), {"c"}, "", Obj());
}

// The vectors of `item` by field.
std::map<std::string, std::vector<float>> VectorsOf(const StoredItem& item) {
  std::map<std::string, std::vector<float>> out;
  for (const FieldVector& field : item.vectors) out[field.field] = field.vector;
  return out;
}

TEST_CASE("store transfer: an export visits every item whole, in key order") {
  StoreHarness h(EachBackend(), TransferOptions());
  PutTransferItems(h);
  const std::vector<StoredItem> items = ExportAll(h.store());
  std::string names;
  for (const StoredItem& item : items)
    names += ItemName(item.ns, item.key) + " ";
  // A namespace's own items before those of the namespaces it prefixes.
  CHECK(names == "a:old a:z a/b:\\x00k c: ");
  REQUIRE(items.size() == 4);
  CHECK(items[0].expires_at_us == kStartUs + kMinuteUs);  // expired, there.
  const StoredItem& z = items[1];
  CHECK(z.value == Obj({{"v", 3}}));
  CHECK(z.created_at_us == kStartUs);
  CHECK(z.updated_at_us == kStartUs + 3 * kMinuteUs);
  CHECK(z.expires_at_us == kStartUs + 13 * kMinuteUs);
  CHECK(z.ttl_minutes == 10.0);
  CHECK(VectorsOf(z) == std::map<std::string, std::vector<float>>{
                            {"body", {0, 1}}, {"title", {1, 0}}});
  CHECK_FALSE(items[2].expires_at_us.has_value());
  CHECK_FALSE(items[2].ttl_minutes.has_value());
  CHECK(items[3].vectors.empty());
}

TEST_CASE("store transfer: an import into another store copies the items") {
  const Backend from = EachBackend();
  StoreHarness source(from, TransferOptions());
  PutTransferItems(source);
  const std::vector<StoredItem> exported = ExportAll(source.store());
  const Backend to =
      from == Backend::kMemory ? Backend::kRocksDb : Backend::kMemory;
  StoreHarness target(to, TransferOptions());
  target.clock().Set(source.clock().now());
  STORE_REQUIRE_OK(target.store().ImportItems(exported));

  CHECK(Everything(target.store()) == Everything(source.store()));
  const std::vector<StoredItem> copied = ExportAll(target.store());
  REQUIRE(copied.size() == exported.size());
  for (size_t i = 0; i < copied.size(); ++i) {
    CAPTURE(ItemName(copied[i].ns, copied[i].key));
    CHECK(copied[i].ns == exported[i].ns);
    CHECK(copied[i].key == exported[i].key);
    CHECK(copied[i].value == exported[i].value);
    CHECK(copied[i].created_at_us == exported[i].created_at_us);
    CHECK(copied[i].updated_at_us == exported[i].updated_at_us);
    CHECK(copied[i].expires_at_us == exported[i].expires_at_us);
    CHECK(copied[i].ttl_minutes == exported[i].ttl_minutes);
    CHECK(VectorsOf(copied[i]) == VectorsOf(exported[i]));
  }
  // The imported expired item is hidden and swept; the TTL restarts from
  // the imported ttl_minutes; the vectors answer queries.
  CHECK_FALSE(GetItem(target.store(), {"a"}, "old").has_value());
  target.clock().AdvanceMinutes(5);
  REQUIRE(GetItem(target.store(), {"a"}, "z", /*refresh_ttl=*/true));
  CHECK(MustGetItem(target.store(), {"a"}, "z", false).expires_at_us ==
        target.clock().now() + 10 * kMinuteUs);
  SearchOp op = SearchUnder({"a"});
  op.query = std::vector<float>{0, 1};
  const std::vector<StoreItem> found = MustSearch(target.store(), op);
  REQUIRE(found.size() == 2);
  CHECK(found[0].key == "z");
  CHECK(found[0].score == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(MustOk(target.store().SweepExpired()) == 1);
  CheckSound(target.store());
}

TEST_CASE("store transfer: an import replaces the item at its key") {
  StoreHarness h(EachBackend(), TransferOptions());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}), ItemTtl::Minutes(5),
          {FieldVector{"old", {1, 0}}});
  StoredItem item;
  item.ns = {"a"};
  item.key = "k";
  item.value = Obj({{"v", 2}});
  item.created_at_us = 7;
  item.updated_at_us = 8;
  item.vectors = {FieldVector{"new", {0, 1}}};
  STORE_REQUIRE_OK(h.store().ImportItems({item}));
  const std::vector<StoredItem> items = ExportAll(h.store());
  REQUIRE(items.size() == 1);
  CHECK(items[0].value == Obj({{"v", 2}}));
  CHECK(items[0].created_at_us == 7);
  CHECK(items[0].updated_at_us == 8);
  CHECK_FALSE(items[0].expires_at_us.has_value());
  CHECK(VectorsOf(items[0]) ==
        std::map<std::string, std::vector<float>>{{"new", {0, 1}}});
  CHECK(MustOk(h.store().SweepExpired()) == 0);
  CheckSound(h.store());
}

TEST_CASE(
    "store transfer: a bad import is InvalidArgument and writes "
    "nothing") {
  StoreHarness h(EachBackend(), TransferOptions());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  StoredItem good;
  good.ns = {"a"};
  good.key = "good";
  good.value = Obj();
  std::vector<std::pair<const char*, StoredItem>> bad;
  bad.emplace_back("reserved namespace", good);
  bad.back().second.ns = {"langgraph"};
  bad.emplace_back("empty namespace", good);
  bad.back().second.ns = {};
  bad.emplace_back("value not a map", good);
  bad.back().second.value = Value(3);
  bad.emplace_back("vector of the wrong length", good);
  bad.back().second.vectors = {FieldVector{"f", {1, 2, 3}}};
  bad.emplace_back("TTL without an expiry", good);
  bad.back().second.ttl_minutes = 5;
  bad.emplace_back("TTL of zero minutes", good);
  bad.back().second.ttl_minutes = 0.0;
  bad.back().second.expires_at_us = kStartUs;
  for (const auto& [what, item] : bad) {
    CAPTURE(what);
    STORE_CHECK_INVALID(h.store().ImportItems({good, item, good}));
  }
  CHECK(Everything(h.store()) == before);
  // Without an index, vectors are refused too.
  StoreHarness plain(h.backend());
  StoredItem with_vector = good;
  with_vector.vectors = {FieldVector{"f", {1, 0}}};
  STORE_CHECK_INVALID(plain.store().ImportItems({with_vector}));
  CHECK(Everything(plain.store()) == "namespaces: ");
}

TEST_CASE("store transfer: an export stops at the visitor's first error") {
  StoreHarness h(EachBackend(), TransferOptions());
  PutTransferItems(h);
  int visited = 0;
  const Status status = h.store().ExportItems([&](const StoredItem&) {
    return ++visited == 2 ? Status::Aborted("enough") : Status::OK();
  });
  CHECK(status == Status::Aborted("enough"));
  CHECK(visited == 2);
}

TEST_CASE("store transfer: Verify counts what the store holds") {
  StoreHarness h(EachBackend(), TransferOptions());
  PutTransferItems(h);
  const StoreVerifyReport report = MustOk(h.store().Verify());
  CHECK(report.items == 4);
  CHECK(report.namespaces == 3);
  CHECK(report.vectors == 3);
  CHECK(report.expiry_entries == 2);
  CHECK(report.expired_items == 1);
  CHECK(report.problems.empty());
}

TEST_CASE("store transfer: read-only and closed stores") {
  StoreHarness h(Backend::kRocksDb, TransferOptions());
  PutTransferItems(h);
  const std::vector<StoredItem> items = ExportAll(h.store());
  StoreOpenOptions read_only = TransferOptions();
  read_only.read_only = true;
  h.Reopen(read_only);
  CHECK(ExportAll(h.store()).size() == items.size());
  CHECK(MustOk(h.store().Verify()).problems.empty());
  STORE_CHECK_INVALID(h.store().ImportItems(items));
  STORE_REQUIRE_OK(h.store().Close());
  CHECK(h.store().ImportItems(items).IsAborted());
  CHECK(h.store().Verify().status().IsAborted());
  CHECK(h.store()
            .ExportItems([](const StoredItem&) { return Status::OK(); })
            .IsAborted());
}

}  // namespace
}  // namespace rockpoint::store_testing
