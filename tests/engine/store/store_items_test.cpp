// Store items: Put then Get returns exactly what was put; an overwrite keeps
// created_at and advances updated_at; a put of no value and Delete remove
// the item; Get is by exact (namespace, key), whatever bytes they hold.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

using namespace std::string_literals;  // NOLINT: "\0"s keys

TEST_CASE("store items: put then get returns the value, namespace and key") {
  StoreHarness h(EachBackend());
  // Every kind of value a map may hold, kinds kept (an int stays an int).
  const Value value = Obj({
      {"null", Value()},
      {"yes", true},
      {"no", false},
      {"int", int64_t{42}},
      {"min", std::numeric_limits<int64_t>::min()},
      {"max", std::numeric_limits<int64_t>::max()},
      {"double", 0.1},
      {"whole_double", 2.0},
      {"text", "héllo"},
      {"empty_text", ""},
      {"bytes", Value(serde::Bytes{"\0\xff\x01"s})},
      {"ext", Value(serde::Ext{7, "opaque"})},
      {"list", Arr({1, "two", Arr({3.5}), Obj({{"k", Value()}})})},
      {"nested", Obj({{"inner", Obj({{"deep", "x"}})}})},
      {"", "an empty field name"},
  });
  PutItem(h.store(), {"users", "u1"}, "profile", value);
  const StoreItem item = MustGetItem(h.store(), {"users", "u1"}, "profile");
  CHECK(item.ns == Namespace{"users", "u1"});
  CHECK(item.key == "profile");
  CHECK(item.value == value);
  CHECK(item.created_at_us == kStartUs);
  CHECK(item.updated_at_us == kStartUs);
  CHECK_FALSE(item.expires_at_us.has_value());
  CHECK_FALSE(item.score.has_value());

  // An empty map is a value like any other.
  PutItem(h.store(), {"users"}, "empty", Obj());
  CHECK(MustGetItem(h.store(), {"users"}, "empty").value == Obj());
}

TEST_CASE(
    "store items: an overwrite keeps created_at and advances updated_at") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"docs"}, "k", Obj({{"v", 1}, {"gone", true}}));
  h.clock().Advance(5 * kSecondUs);
  PutItem(h.store(), {"docs"}, "k", Obj({{"v", 2}}));
  const StoreItem item = MustGetItem(h.store(), {"docs"}, "k");
  // The value is replaced, not merged.
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK(item.created_at_us == kStartUs);
  CHECK(item.updated_at_us == kStartUs + 5 * kSecondUs);
  // Still one item.
  CHECK(Names(MustSearch(h.store(), SearchUnder({}))) == "docs:k");
  CheckSound(h.store());
}

TEST_CASE("store items: a put of no value deletes the item, as Delete does") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k1", Obj({{"v", 1}}));
  PutItem(h.store(), {"a"}, "k2", Obj({{"v", 2}}));
  PutItem(h.store(), {"a"}, "k3", Obj({{"v", 3}}));

  STORE_REQUIRE_OK(h.store().Put(MakePut({"a"}, "k1", std::nullopt)));
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "k2"));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "k1").has_value());
  CHECK_FALSE(GetItem(h.store(), {"a"}, "k2").has_value());
  // Search no longer finds them; the untouched item stays.
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a"}))) == "a:k3");
  CHECK(MustGetItem(h.store(), {"a"}, "k3").value == Obj({{"v", 3}}));
  CheckSound(h.store());
}

TEST_CASE("store items: an item put again after a delete is a new item") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  h.clock().Advance(kSecondUs);
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "k"));
  h.clock().Advance(kSecondUs);
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 2}}));
  const StoreItem item = MustGetItem(h.store(), {"a"}, "k");
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK(item.created_at_us == kStartUs + 2 * kSecondUs);
  CHECK(item.updated_at_us == kStartUs + 2 * kSecondUs);
}

TEST_CASE("store items: missing keys read as nothing and delete as ok") {
  StoreHarness h(EachBackend());
  // On an empty store.
  CHECK_FALSE(GetItem(h.store(), {"a"}, "k").has_value());
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "k"));
  STORE_REQUIRE_OK(h.store().Put(MakePut({"a"}, "k", std::nullopt)));
  // Next to an item of the same namespace.
  PutItem(h.store(), {"a"}, "present", Obj({{"v", 1}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "k").has_value());
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "k"));
  // Deleting twice is fine too.
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "present"));
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "present"));
  CHECK(Everything(h.store()) == "namespaces: ");
}

TEST_CASE("store items: Get is by the exact namespace") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a", "b"}, "k", Obj({{"v", 1}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "k").has_value());
  CHECK_FALSE(GetItem(h.store(), {"a", "b", "c"}, "k").has_value());
  CHECK_FALSE(GetItem(h.store(), {"b"}, "k").has_value());
  CHECK_FALSE(GetItem(h.store(), {"a", "B"}, "k").has_value());
  CHECK_FALSE(GetItem(h.store(), {"a", "b"}, "K").has_value());
  CHECK(GetItem(h.store(), {"a", "b"}, "k").has_value());
  // A Delete elsewhere leaves it alone.
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "k"));
  STORE_REQUIRE_OK(h.store().Delete({"a", "b", "c"}, "k"));
  CHECK(GetItem(h.store(), {"a", "b"}, "k").has_value());
}

TEST_CASE("store items: keys and labels may hold any bytes") {
  StoreHarness h(EachBackend());
  // Pairs a separator-based encoding could confuse, each its own item.
  const std::vector<std::pair<Namespace, std::string>> ids = {
      {{"a"}, ""},           {{"a"}, "\0"s},
      {{"a"}, "\0\0"s},      {{"a"}, "b"},
      {{"a"}, "b\0c"s},      {{"a"}, "b:c"},
      {{"a"}, "b/c"},        {{"a"}, "\xff"},
      {{"a"}, "\xff\xff"},   {{"a", "b"}, "c"},
      {{"a", "b"}, ""},      {{"a\0b"s}, "c"},
      {{"a:b"}, "c"},        {{"a\xff"}, "c"},
      {{"a", "\0"s}, "c"},   {{"\xff", "\xff"}, "\xff"},
      {{"a", "b", "c"}, ""}, {{"ab"}, ""},
  };
  int n = 0;
  for (const auto& [ns, key] : ids) {
    PutItem(h.store(), ns, key, Obj({{"n", n++}}));
  }
  n = 0;
  for (const auto& [ns, key] : ids) {
    CAPTURE(ItemName(ns, key));
    const StoreItem item = MustGetItem(h.store(), ns, key);
    CHECK(item.ns == ns);
    CHECK(item.key == key);
    CHECK(item.value == Obj({{"n", n++}}));
  }
  const std::vector<StoreItem> all = MustSearch(h.store(), SearchUnder({}));
  CHECK(all.size() == ids.size());

  // Deleting one leaves each of the others.
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "b"));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "b").has_value());
  for (const auto& [ns, key] : ids) {
    if (ns == Namespace{"a"} && key == "b") continue;
    CAPTURE(ItemName(ns, key));
    CHECK(GetItem(h.store(), ns, key).has_value());
  }
  CheckSound(h.store());
}

TEST_CASE("store items: a long key is an ordinary key") {
  StoreHarness h(EachBackend());
  const std::string long_key(4096, 'k');
  const std::string longer_key = long_key + "x";
  PutItem(h.store(), {"a"}, long_key, Obj({{"v", 1}}));
  PutItem(h.store(), {"a"}, longer_key, Obj({{"v", 2}}));
  CHECK(MustGetItem(h.store(), {"a"}, long_key).value == Obj({{"v", 1}}));
  CHECK(MustGetItem(h.store(), {"a"}, longer_key).value == Obj({{"v", 2}}));
  CHECK(MustGetItem(h.store(), {"a"}, long_key).key == long_key);
}

TEST_CASE("store items: a later put with the same clock reading still wins") {
  StoreHarness h(EachBackend());
  // The clock does not move: the order of calls decides, not the times.
  for (int v = 0; v < 5; ++v) {
    PutItem(h.store(), {"a"}, "k", Obj({{"v", v}}));
  }
  const StoreItem item = MustGetItem(h.store(), {"a"}, "k");
  CHECK(item.value == Obj({{"v", 4}}));
  CHECK(item.created_at_us == kStartUs);
  CHECK(item.updated_at_us == kStartUs);
}

TEST_CASE("store items: the store reports its name and options") {
  const Backend backend = EachBackend();
  StoreOpenOptions options;
  options.limits.max_id_bytes = 1234;
  StoreHarness h(backend, options);
  CHECK(h.store().name() == h.url());
  CHECK(h.store().options().limits.max_id_bytes == 1234);
  CHECK_FALSE(h.store().dims().has_value());
}

}  // namespace
}  // namespace rockpoint::store_testing
