// Store Search without a query: the items under a namespace prefix (whole
// labels: ("a", "b") covers ("a", "b") and ("a", "b", "c"), not ("a", "bc")),
// newest updated first, then offset and limit (default 10). Filters are in
// store_filter_test.cpp, queries in store_vectors_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

using namespace std::string_literals;  // NOLINT: "\0"s labels

// Items in namespaces that a byte-prefix match would confuse with ("a",
// "b"), one microsecond apart in this order.
void PutPrefixNeighbours(StoreHarness& h) {
  const std::vector<std::pair<Namespace, std::string>> ids = {
      {{"a", "b"}, "in1"},
      {{"a", "b", "c"}, "in2"},
      {{"a", "b", "c", "d"}, "in3"},
      {{"a", "bc"}, "out1"},
      {{"a"}, "b"},
      {{"ab"}, "out2"},
      {{"a", "b\0"s}, "out3"},
      {{"a\0b"s}, "out4"},
      {{"b", "a", "b"}, "out5"},
  };
  for (const auto& [ns, key] : ids) {
    PutItem(h.store(), ns, key, Obj({{"key", key}}));
    h.clock().Advance(1);
  }
}

TEST_CASE("store search: a namespace prefix matches whole labels") {
  StoreHarness h(EachBackend());
  PutPrefixNeighbours(h);
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a", "b"}))) ==
        "a/b/c/d:in3 a/b/c:in2 a/b:in1");
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a", "b", "c"}))) ==
        "a/b/c/d:in3 a/b/c:in2");
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a", "b", "c", "d"}))) ==
        "a/b/c/d:in3");
  CHECK(MustSearch(h.store(), SearchUnder({"a", "b", "c", "d", "e"})).empty());
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a", "bc"}))) == "a/bc:out1");
  CHECK(Names(MustSearch(h.store(), SearchUnder({"ab"}))) == "ab:out2");
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a\0b"s}))) == "a\\x00b:out4");
  CHECK(MustSearch(h.store(), SearchUnder({"z"})).empty());
  // ("a") covers every namespace whose first label is "a", the item keyed
  // "b" in ("a") included.
  CHECK(Names(MustSearch(h.store(), SearchUnder({"a"}))) ==
        "a/b\\x00:out3 a:b a/bc:out1 a/b/c/d:in3 a/b/c:in2 a/b:in1");
}

TEST_CASE("store search: an empty prefix covers every item") {
  StoreHarness h(EachBackend());
  CHECK(MustSearch(h.store(), SearchUnder({})).empty());
  PutPrefixNeighbours(h);
  CHECK(Names(MustSearch(h.store(), SearchUnder({}))) ==
        "b/a/b:out5 a\\x00b:out4 a/b\\x00:out3 ab:out2 a:b a/bc:out1 "
        "a/b/c/d:in3 a/b/c:in2 a/b:in1");
}

TEST_CASE("store search: newest updated first, whatever the key order") {
  StoreHarness h(EachBackend());
  for (const char* key : {"c", "a", "e", "b", "d"}) {
    PutItem(h.store(), {"n"}, key, Obj({{"k", key}}));
    h.clock().Advance(kSecondUs);
  }
  CHECK(Names(MustSearch(h.store(), SearchUnder({"n"}))) ==
        "n:d n:b n:e n:a n:c");
  // An overwrite moves an item to the front; creation time does not count.
  PutItem(h.store(), {"n"}, "c", Obj({{"k", "c2"}}));
  h.clock().Advance(kSecondUs);
  CHECK(Names(MustSearch(h.store(), SearchUnder({"n"}))) ==
        "n:c n:d n:b n:e n:a");
  // A delete drops one.
  STORE_REQUIRE_OK(h.store().Delete({"n"}, "b"));
  CHECK(Names(MustSearch(h.store(), SearchUnder({"n"}))) == "n:c n:d n:e n:a");
}

TEST_CASE("store search: results carry the item as Get returns it") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"n", "m"}, "k", Obj({{"v", 1}, {"s", "x"}}));
  h.clock().Advance(3 * kSecondUs);
  PutItem(h.store(), {"n", "m"}, "k", Obj({{"v", 2}}));
  const std::vector<StoreItem> found =
      MustSearch(h.store(), SearchUnder({"n"}));
  REQUIRE(found.size() == 1);
  const StoreItem& item = found[0];
  CHECK(item.ns == Namespace{"n", "m"});
  CHECK(item.key == "k");
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK(item.created_at_us == kStartUs);
  CHECK(item.updated_at_us == kStartUs + 3 * kSecondUs);
  CHECK_FALSE(item.expires_at_us.has_value());
  // No query, no score.
  CHECK_FALSE(item.score.has_value());
}

TEST_CASE("store search: offset and limit page the ordered items") {
  StoreHarness h(EachBackend());
  for (int i = 0; i < 6; ++i) {
    PutItem(h.store(), {"n"}, "k" + std::to_string(i), Obj({{"i", i}}));
    h.clock().Advance(kSecondUs);
  }
  SearchOp op = SearchUnder({"n"}, 2);
  CHECK(Names(MustSearch(h.store(), op)) == "n:k5 n:k4");
  op.offset = 2;
  CHECK(Names(MustSearch(h.store(), op)) == "n:k3 n:k2");
  op.offset = 5;
  CHECK(Names(MustSearch(h.store(), op)) == "n:k0");
  op.offset = 6;
  CHECK(MustSearch(h.store(), op).empty());
  op.offset = 1000;
  CHECK(MustSearch(h.store(), op).empty());
  op.offset = 0;
  op.limit = 0;
  CHECK(MustSearch(h.store(), op).empty());
  op.limit = 1000;
  CHECK(MustSearch(h.store(), op).size() == 6);
}

TEST_CASE("store search: the default limit is 10") {
  StoreHarness h(EachBackend());
  std::vector<StoreOp> puts;
  for (int i = 0; i < 12; ++i) {
    puts.emplace_back(MakePut({"n"}, "k" + std::to_string(i), Obj({{"i", i}})));
  }
  REQUIRE(MustOk(h.store().Batch(puts)).size() == 12);
  SearchOp op;
  CHECK(op.limit == 10);
  CHECK(op.offset == 0);
  CHECK(MustSearch(h.store(), op).size() == 10);
  op.ns_prefix = {"n"};
  CHECK(MustSearch(h.store(), op).size() == 10);
  op.offset = 10;
  CHECK(MustSearch(h.store(), op).size() == 2);
}

TEST_CASE("store search: many namespaces under one prefix, each item once") {
  StoreHarness h(EachBackend());
  std::vector<StoreOp> puts;
  for (int ns = 0; ns < 20; ++ns) {
    for (int key = 0; key < 5; ++key) {
      puts.emplace_back(MakePut({"root", "n" + std::to_string(ns)},
                                "k" + std::to_string(key), Obj({{"v", key}})));
    }
  }
  puts.emplace_back(MakePut({"rootless"}, "k", Obj()));
  REQUIRE(MustOk(h.store().Batch(puts)).size() == 101);
  const std::vector<StoreItem> found =
      MustSearch(h.store(), SearchUnder({"root"}));
  CHECK(found.size() == 100);
  std::vector<std::string> names;
  for (const StoreItem& item : found)
    names.push_back(ItemName(item.ns, item.key));
  std::sort(names.begin(), names.end());
  CHECK(std::unique(names.begin(), names.end()) == names.end());
}

}  // namespace
}  // namespace rockpoint::store_testing
