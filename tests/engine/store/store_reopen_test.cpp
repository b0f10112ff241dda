// Store lifecycle: a RocksDB store keeps items, their times, expiries and
// vectors across Close and OpenStore; one open store per directory (a
// second is Busy); a read-only store reads and refuses every write; a
// closed store answers every call with Aborted, and Close is idempotent.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

StoreOpenOptions IndexedTwo() {
  StoreOpenOptions options;
  options.index = StoreIndexOptions{2};
  return options;
}

StoreOpenOptions ReadOnly(StoreOpenOptions options) {
  options.read_only = true;
  return options;
}

TEST_CASE("store reopen: items, times, expiries and vectors survive") {
  StoreHarness h(Backend::kRocksDb, IndexedTwo());
  PutItem(h.store(), {"a", "b"}, "k", Obj({{"v", 1}}), ItemTtl::Minutes(30),
          {FieldVector{"f", {1, 0}}});
  PutItem(h.store(), {"a"}, "plain", Obj({{"s", "x"}}));
  PutItem(h.store(), {"a"}, "deleted", Obj());
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"a", "b"}, "k", Obj({{"v", 2}}), ItemTtl::Minutes(30),
          {FieldVector{"g", {0, 1}}});
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "deleted"));
  const std::string before = Everything(h.store());

  h.Reopen();
  CHECK(Everything(h.store()) == before);
  const StoreItem item = MustGetItem(h.store(), {"a", "b"}, "k", false);
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK(item.created_at_us == kStartUs);
  CHECK(item.updated_at_us == kStartUs + kSecondUs);
  CHECK(item.expires_at_us == kStartUs + kSecondUs + 30 * kMinuteUs);
  CHECK_FALSE(GetItem(h.store(), {"a"}, "deleted").has_value());
  CHECK(NsNames(MustList(h.store(), {})) == "a a/b");
  CHECK(h.store().dims() == std::optional<size_t>(2));

  // The vectors of the last put, and only those.
  SearchOp op = SearchUnder({"a"});
  op.query = std::vector<float>{0, 1};
  std::vector<StoreItem> found = MustSearch(h.store(), op);
  REQUIRE(found.size() == 2);
  CHECK(found[0].key == "k");
  CHECK(found[0].score == doctest::Approx(1.0).epsilon(1e-4));
  CHECK_FALSE(found[1].score.has_value());

  // The expiry still applies, and a sweep after a reopen finds the item.
  h.clock().AdvanceMinutes(31);
  CHECK_FALSE(GetItem(h.store(), {"a", "b"}, "k", false).has_value());
  h.Reopen();
  CHECK(MustOk(h.store().SweepExpired()) == 1);
  h.Reopen();
  h.clock().Set(kStartUs);
  CHECK_FALSE(GetItem(h.store(), {"a", "b"}, "k", false).has_value());
  CHECK(NsNames(MustList(h.store(), {})) == "a");
  CheckSound(h.store());
}

TEST_CASE("store reopen: a refreshed expiry survives") {
  StoreHarness h(Backend::kRocksDb);
  PutItem(h.store(), {"a"}, "k", Obj(), ItemTtl::Minutes(10));
  h.clock().AdvanceMinutes(8);
  REQUIRE(GetItem(h.store(), {"a"}, "k", /*refresh_ttl=*/true));
  h.Reopen();
  CHECK(MustGetItem(h.store(), {"a"}, "k", false).expires_at_us ==
        kStartUs + 18 * kMinuteUs);
  h.clock().AdvanceMinutes(9);  // t0 + 17 min.
  CHECK(GetItem(h.store(), {"a"}, "k", false).has_value());
  CheckSound(h.store());
}

TEST_CASE("store reopen: the index dimensions are fixed") {
  StoreHarness h(Backend::kRocksDb, IndexedTwo());
  PutItem(h.store(), {"a"}, "k", Obj(), ItemTtl::StoreDefault(),
          {FieldVector{"f", {1, 0}}});
  h.Drop();
  StoreOpenOptions other;
  other.index = StoreIndexOptions{3};
  STORE_CHECK_INVALID(OpenStore(h.url(), other).status());
  // The same dimensions open it, vectors intact.
  h.Reopen(IndexedTwo());
  SearchOp op = SearchUnder({"a"});
  op.query = std::vector<float>{1, 0};
  const std::vector<StoreItem> found = MustSearch(h.store(), op);
  REQUIRE(found.size() == 1);
  CHECK(found[0].score == doctest::Approx(1.0).epsilon(1e-4));
}

TEST_CASE("store reopen: one open store per directory") {
  StoreHarness h(Backend::kRocksDb);
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  const Status second = OpenStore(h.url()).status();
  CHECK_MESSAGE(second.IsBusy(), second.ToString());
  // The first store is unharmed.
  CHECK(MustGetItem(h.store(), {"a"}, "k").value == Obj({{"v", 1}}));
  PutItem(h.store(), {"a"}, "k2", Obj());
  // Once it is closed, the directory opens again.
  h.Reopen();
  CHECK(MustSearch(h.store(), SearchUnder({"a"})).size() == 2);
}

TEST_CASE("store reopen: a read-only store reads and refuses every write") {
  StoreHarness h(Backend::kRocksDb);
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  PutItem(h.store(), {"a"}, "brief", Obj(), ItemTtl::Minutes(1));
  h.Reopen(ReadOnly(h.options()));
  const std::string before = Everything(h.store());
  CHECK(MustGetItem(h.store(), {"a"}, "k").value == Obj({{"v", 1}}));
  CHECK(MustSearch(h.store(), SearchUnder({})).size() == 2);
  CHECK(NsNames(MustList(h.store(), {})) == "a");

  STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "k", Obj({{"v", 2}}))));
  STORE_CHECK_INVALID(h.store().Put(MakePut({"a"}, "new", Obj())));
  STORE_CHECK_INVALID(h.store().Delete({"a"}, "k"));
  STORE_CHECK_INVALID(h.store().Batch({MakePut({"a"}, "new", Obj())}).status());
  h.clock().AdvanceMinutes(2);
  STORE_CHECK_INVALID(h.store().SweepExpired().status());
  // Reads alone are fine in a batch.
  GetOp get;
  get.ns = {"a"};
  get.key = "k";
  CHECK(MustOk(h.store().Batch({get, SearchUnder({})})).size() == 2);
  h.clock().Set(kStartUs);
  CHECK(Everything(h.store()) == before);

  // Nothing was written: the directory reopens for writing as it was.
  h.Reopen(StoreOpenOptions{});
  CHECK(MustGetItem(h.store(), {"a"}, "k").value == Obj({{"v", 1}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "new").has_value());
  CHECK(GetItem(h.store(), {"a"}, "brief", false).has_value());
}

TEST_CASE(
    "store reopen: a store that does not exist is not created when "
    "asked not to") {
  testing::TempDir dir("store");
  StoreOpenOptions options;
  options.create_if_missing = false;
  CHECK_FALSE(OpenStore("rocksdb:" + dir.Sub("missing"), options).ok());
  CHECK_FALSE(OpenStore("rocksdb:" + dir.Sub("missing2"), ReadOnly({})).ok());
  CHECK_FALSE(std::filesystem::exists(dir.Sub("missing")));
  CHECK_FALSE(std::filesystem::exists(dir.Sub("missing2")));
}

TEST_CASE("store reopen: a closed store answers Aborted, and closes again") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj());
  Store& store = h.store();
  STORE_REQUIRE_OK(store.Close());
  STORE_REQUIRE_OK(store.Close());
  auto check_aborted = [](const Status& status) {
    CHECK_MESSAGE(status.IsAborted(), status.ToString());
  };
  GetOp get;
  get.ns = {"a"};
  get.key = "k";
  check_aborted(store.Get(get).status());
  check_aborted(store.Put(MakePut({"a"}, "k", Obj())));
  check_aborted(store.Delete({"a"}, "k"));
  check_aborted(store.Search(SearchUnder({})).status());
  check_aborted(store.ListNamespaces({}).status());
  check_aborted(store.Batch({get}).status());
  check_aborted(store.Batch({}).status());
  check_aborted(store.SweepExpired().status());
  // Even bad input: the closed store is what the call hears about first.
  check_aborted(store.Put(MakePut({}, "k", Obj())));
  STORE_REQUIRE_OK(store.Close());
  if (h.persistent()) {
    // Closing released the directory.
    Result<std::unique_ptr<Store>> again = OpenStore(h.url(), h.options());
    REQUIRE_MESSAGE(again.ok(), again.status().ToString());
    CHECK(MustGetItem(*again.value(), {"a"}, "k").value == Obj());
  }
}

}  // namespace
}  // namespace rockpoint::store_testing
