// Store expiry, on the harness clock: ItemTtl::Minutes(m) expires m minutes
// after the put; StoreDefault takes StoreTtlOptions::default_ttl_minutes
// (none: never); Never never. An expired item is never returned, swept or
// not; SweepExpired deletes expired items and counts them. Reads with
// refresh_ttl restart the TTL of what they return, unless the store's
// refresh_on_read is off.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

StoreOpenOptions WithDefaultTtl(std::optional<double> minutes,
                                bool refresh_on_read = true) {
  StoreOpenOptions options;
  options.ttl.default_ttl_minutes = minutes;
  options.ttl.refresh_on_read = refresh_on_read;
  return options;
}

// Whether (ns, key) is returned by Get and by Search (neither refreshing);
// REQUIREs that both agree.
bool Visible(Store& store, const Namespace& ns, const std::string& key) {
  const bool by_get =
      GetItem(store, ns, key, /*refresh_ttl=*/false).has_value();
  SearchOp op = SearchUnder(ns);
  op.refresh_ttl = false;
  bool by_search = false;
  for (const StoreItem& item : MustSearch(store, op)) {
    by_search = by_search || (item.ns == ns && item.key == key);
  }
  REQUIRE_MESSAGE(by_get == by_search,
                  "Get and Search disagree on " << ItemName(ns, key));
  return by_get;
}

TEST_CASE("store ttl: Minutes(m) expires m minutes after the put") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "two", Obj({{"v", 1}}), ItemTtl::Minutes(2));
  PutItem(h.store(), {"t"}, "half", Obj({{"v", 2}}), ItemTtl::Minutes(0.5));
  const StoreItem two = MustGetItem(h.store(), {"t"}, "two", false);
  REQUIRE(two.expires_at_us.has_value());
  CHECK(*two.expires_at_us == kStartUs + 2 * kMinuteUs);
  CHECK(MustGetItem(h.store(), {"t"}, "half", false).expires_at_us ==
        kStartUs + 30 * kSecondUs);
  // Search reports the expiry too.
  SearchOp op = SearchUnder({"t"});
  op.refresh_ttl = false;
  for (const StoreItem& item : MustSearch(h.store(), op)) {
    CHECK(item.expires_at_us.has_value());
  }

  h.clock().Set(kStartUs + 30 * kSecondUs - 1);
  CHECK(Visible(h.store(), {"t"}, "half"));
  h.clock().Set(kStartUs + 30 * kSecondUs + 1);
  CHECK_FALSE(Visible(h.store(), {"t"}, "half"));
  CHECK(Visible(h.store(), {"t"}, "two"));
  h.clock().Set(kStartUs + 2 * kMinuteUs + 1);
  CHECK_FALSE(Visible(h.store(), {"t"}, "two"));
}

TEST_CASE("store ttl: an expired item is never returned, before any sweep") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "old", Obj({{"v", 1}}), ItemTtl::Minutes(1));
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"t"}, "live", Obj({{"v", 2}}));
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"t"}, "old2", Obj({{"v", 3}}), ItemTtl::Minutes(1));
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"t"}, "live2", Obj({{"v", 4}}));
  h.clock().AdvanceMinutes(2);
  // Reads that would refresh do not revive it.
  CHECK_FALSE(GetItem(h.store(), {"t"}, "old", true).has_value());
  CHECK_FALSE(GetItem(h.store(), {"t"}, "old", false).has_value());
  SearchOp op = SearchUnder({"t"});
  CHECK(Names(MustSearch(h.store(), op)) == "t:live2 t:live");
  op.refresh_ttl = false;
  CHECK(Names(MustSearch(h.store(), op)) == "t:live2 t:live");
  // Expired items take no place in a page.
  op.limit = 1;
  op.offset = 1;
  CHECK(Names(MustSearch(h.store(), op)) == "t:live");
  // Nor in a batch's reads.
  const std::vector<StoreOpResult> results =
      MustOk(h.store().Batch({GetOp{{"t"}, "old", false}, SearchUnder({"t"})}));
  REQUIRE(results.size() == 2);
  CHECK_FALSE(std::get<std::optional<StoreItem>>(results[0]).has_value());
  CHECK(Names(std::get<std::vector<StoreItem>>(results[1])) ==
        "t:live2 t:live");
}

TEST_CASE("store ttl: SweepExpired deletes expired items and counts them") {
  StoreHarness h(EachBackend());
  for (const char* key : {"a", "b", "c"}) {
    PutItem(h.store(), {"gone"}, key, Obj(), ItemTtl::Minutes(1));
  }
  PutItem(h.store(), {"kept"}, "later", Obj(), ItemTtl::Minutes(10));
  PutItem(h.store(), {"kept"}, "never", Obj(), ItemTtl::Never());
  PutItem(h.store(), {"kept"}, "plain", Obj());
  CHECK(MustOk(h.store().SweepExpired()) == 0);
  h.clock().AdvanceMinutes(2);
  CHECK(MustOk(h.store().SweepExpired()) == 3);
  CHECK(MustOk(h.store().SweepExpired()) == 0);
  ListNamespacesOp list;
  CHECK(NsNames(MustList(h.store(), list)) == "kept");
  // Deleted, not hidden: with the clock turned back they stay gone, while
  // the unexpired ones are all there.
  h.clock().Set(kStartUs);
  for (const char* key : {"a", "b", "c"}) {
    CHECK_FALSE(GetItem(h.store(), {"gone"}, key, false).has_value());
  }
  CHECK(Names(MustSearch(h.store(), SearchUnder({"gone"}))).empty());
  CHECK(MustSearch(h.store(), SearchUnder({"kept"})).size() == 3);
  CheckSound(h.store());
}

TEST_CASE("store ttl: a sweep larger than one batch deletes everything") {
  StoreOpenOptions options;
  options.ttl.sweep_batch_size = 2;
  StoreHarness h(EachBackend(), options);
  for (int i = 0; i < 7; ++i) {
    PutItem(h.store(), {"t"}, "k" + std::to_string(i), Obj(),
            ItemTtl::Minutes(1));
  }
  PutItem(h.store(), {"t"}, "stays", Obj());
  h.clock().AdvanceMinutes(5);
  CHECK(MustOk(h.store().SweepExpired()) == 7);
  h.clock().Set(kStartUs);
  CHECK(Names(MustSearch(h.store(), SearchUnder({}))) == "t:stays");
  CheckSound(h.store());
}

TEST_CASE("store ttl: StoreDefault takes the store's default TTL") {
  SUBCASE("with a default") {
    StoreHarness h(EachBackend(), WithDefaultTtl(3));
    PutItem(h.store(), {"t"}, "default", Obj(), ItemTtl::StoreDefault());
    PutItem(h.store(), {"t"}, "own", Obj(), ItemTtl::Minutes(1));
    PutItem(h.store(), {"t"}, "never", Obj(), ItemTtl::Never());
    CHECK(MustGetItem(h.store(), {"t"}, "default").expires_at_us ==
          kStartUs + 3 * kMinuteUs);
    CHECK(MustGetItem(h.store(), {"t"}, "own").expires_at_us ==
          kStartUs + kMinuteUs);
    CHECK_FALSE(MustGetItem(h.store(), {"t"}, "never").expires_at_us);
    // A year later, after a sweep, Never is still there.
    h.clock().AdvanceMinutes(365.0 * 24 * 60);
    CHECK(MustOk(h.store().SweepExpired()) == 2);
    CHECK(Names(MustSearch(h.store(), SearchUnder({}))) == "t:never");
  }
  SUBCASE("without a default, StoreDefault never expires") {
    StoreHarness h(EachBackend(), WithDefaultTtl(std::nullopt));
    PutItem(h.store(), {"t"}, "default", Obj(), ItemTtl::StoreDefault());
    CHECK_FALSE(MustGetItem(h.store(), {"t"}, "default").expires_at_us);
    h.clock().AdvanceMinutes(365.0 * 24 * 60);
    CHECK(MustOk(h.store().SweepExpired()) == 0);
    CHECK(Visible(h.store(), {"t"}, "default"));
  }
}

TEST_CASE("store ttl: each put sets the item's TTL anew") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 1}}), ItemTtl::Minutes(5));
  h.clock().AdvanceMinutes(1);
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 2}}), ItemTtl::Never());
  CHECK_FALSE(MustGetItem(h.store(), {"t"}, "k").expires_at_us);
  h.clock().AdvanceMinutes(1);
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 3}}), ItemTtl::Minutes(1));
  const StoreItem item = MustGetItem(h.store(), {"t"}, "k", false);
  CHECK(item.expires_at_us == kStartUs + 3 * kMinuteUs);
  // Still the item created first.
  CHECK(item.created_at_us == kStartUs);
  CheckSound(h.store());
}

TEST_CASE("store ttl: a put over an expired item makes a new item") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 1}}), ItemTtl::Minutes(1));
  h.clock().AdvanceMinutes(2);
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 2}}));
  const StoreItem item = MustGetItem(h.store(), {"t"}, "k");
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK(item.created_at_us == kStartUs + 2 * kMinuteUs);
  CHECK(item.updated_at_us == kStartUs + 2 * kMinuteUs);
  CHECK_FALSE(item.expires_at_us.has_value());
  // The sweep finds nothing to delete: the new item is not expired.
  CHECK(MustOk(h.store().SweepExpired()) == 0);
  CHECK(Visible(h.store(), {"t"}, "k"));
  CheckSound(h.store());
}

TEST_CASE("store ttl: a Get with refresh_ttl restarts the TTL") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "k", Obj(), ItemTtl::Minutes(10));
  PutItem(h.store(), {"t"}, "other", Obj(), ItemTtl::Minutes(10));
  h.clock().AdvanceMinutes(8);
  REQUIRE(GetItem(h.store(), {"t"}, "k", /*refresh_ttl=*/true));
  h.clock().AdvanceMinutes(8);  // t0 + 16 min: past the first expiry.
  const StoreItem item = MustGetItem(h.store(), {"t"}, "k", false);
  CHECK(item.expires_at_us == kStartUs + 18 * kMinuteUs);
  // A refresh is no update.
  CHECK(item.updated_at_us == kStartUs);
  CHECK(item.created_at_us == kStartUs);
  // The item not read expired at t0 + 10 min.
  CHECK_FALSE(Visible(h.store(), {"t"}, "other"));
  CHECK(MustOk(h.store().SweepExpired()) == 1);
  h.clock().AdvanceMinutes(3);  // t0 + 19 min.
  CHECK_FALSE(Visible(h.store(), {"t"}, "k"));
  CheckSound(h.store());
}

TEST_CASE("store ttl: a Search with refresh_ttl restarts what it returns") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "old", Obj({{"kind", "x"}}), ItemTtl::Minutes(10));
  h.clock().Advance(1);
  PutItem(h.store(), {"t"}, "new", Obj({{"kind", "x"}}), ItemTtl::Minutes(10));
  PutItem(h.store(), {"t"}, "filtered_out", Obj({{"kind", "y"}}),
          ItemTtl::Minutes(10));
  PutItem(h.store(), {"u"}, "elsewhere", Obj({{"kind", "x"}}),
          ItemTtl::Minutes(10));
  h.clock().AdvanceMinutes(8);
  // Returns only "new" (the newest of the two matches under ("t")).
  SearchOp op = SearchUnder({"t"}, 1);
  op.filter = {{"kind", "x"}};
  REQUIRE(Names(MustSearch(h.store(), op)) == "t:new");
  h.clock().AdvanceMinutes(3);  // t0 + 11 min.
  CHECK(Visible(h.store(), {"t"}, "new"));
  CHECK_FALSE(Visible(h.store(), {"t"}, "old"));
  CHECK_FALSE(Visible(h.store(), {"t"}, "filtered_out"));
  CHECK_FALSE(Visible(h.store(), {"u"}, "elsewhere"));
}

TEST_CASE("store ttl: reads without refresh_ttl leave the TTL") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "k", Obj(), ItemTtl::Minutes(10));
  h.clock().AdvanceMinutes(8);
  REQUIRE(GetItem(h.store(), {"t"}, "k", /*refresh_ttl=*/false));
  SearchOp op = SearchUnder({"t"});
  op.refresh_ttl = false;
  REQUIRE(MustSearch(h.store(), op).size() == 1);
  REQUIRE(MustOk(h.store().Batch({GetOp{{"t"}, "k", false}})).size() == 1);
  h.clock().AdvanceMinutes(3);
  CHECK_FALSE(Visible(h.store(), {"t"}, "k"));
}

TEST_CASE("store ttl: with refresh_on_read off, no read refreshes") {
  StoreHarness h(EachBackend(), WithDefaultTtl(10, /*refresh_on_read=*/false));
  PutItem(h.store(), {"t"}, "k", Obj());
  PutItem(h.store(), {"t"}, "own", Obj(), ItemTtl::Minutes(10));
  h.clock().AdvanceMinutes(8);
  REQUIRE(GetItem(h.store(), {"t"}, "k", true));
  REQUIRE(GetItem(h.store(), {"t"}, "own", true));
  REQUIRE(MustSearch(h.store(), SearchUnder({"t"})).size() == 2);
  CHECK(MustGetItem(h.store(), {"t"}, "k", true).expires_at_us ==
        kStartUs + 10 * kMinuteUs);
  h.clock().AdvanceMinutes(3);
  CHECK_FALSE(Visible(h.store(), {"t"}, "k"));
  CHECK_FALSE(Visible(h.store(), {"t"}, "own"));
}

TEST_CASE(
    "store ttl: a refresh restarts the item's own TTL, and gives none "
    "to an item without") {
  StoreHarness h(EachBackend(), WithDefaultTtl(3));
  PutItem(h.store(), {"t"}, "default", Obj());
  PutItem(h.store(), {"t"}, "ten", Obj(), ItemTtl::Minutes(10));
  PutItem(h.store(), {"t"}, "never", Obj(), ItemTtl::Never());
  h.clock().AdvanceMinutes(2);
  REQUIRE(MustSearch(h.store(), SearchUnder({"t"})).size() == 3);
  CHECK(MustGetItem(h.store(), {"t"}, "default", false).expires_at_us ==
        kStartUs + 5 * kMinuteUs);
  CHECK(MustGetItem(h.store(), {"t"}, "ten", false).expires_at_us ==
        kStartUs + 12 * kMinuteUs);
  CHECK_FALSE(MustGetItem(h.store(), {"t"}, "never", false).expires_at_us);
}

TEST_CASE("store ttl: a TTL must be a positive number of minutes") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"t"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  for (const double minutes :
       {0.0, -0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
        -std::numeric_limits<double>::infinity()}) {
    CAPTURE(minutes);
    STORE_CHECK_INVALID(h.store().Put(
        MakePut({"t"}, "k", Obj({{"v", 2}}), ItemTtl::Minutes(minutes))));
    STORE_CHECK_INVALID(h.store().Put(
        MakePut({"t"}, "new", Obj({{"v", 2}}), ItemTtl::Minutes(minutes))));
  }
  CHECK(Everything(h.store()) == before);
}

TEST_CASE("store ttl: the sweeper deletes expired items by itself") {
  StoreOpenOptions options;
  options.ttl.sweep_interval_minutes = 0.002;  // 120 ms.
  StoreHarness h(EachBackend(), options);
  PutItem(h.store(), {"t"}, "k", Obj(), ItemTtl::Minutes(1));
  PutItem(h.store(), {"t"}, "stays", Obj());
  const int64_t later = kStartUs + 2 * kMinuteUs;
  h.clock().Set(later);
  // Turning the clock back shows whether the item is deleted or hidden.
  bool swept = false;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!swept && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    h.clock().Set(kStartUs);
    swept = !GetItem(h.store(), {"t"}, "k", false).has_value();
    h.clock().Set(later);
  }
  CHECK(swept);
  CHECK(Visible(h.store(), {"t"}, "stays"));
}

}  // namespace
}  // namespace rockpoint::store_testing
