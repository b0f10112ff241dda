// Store Batch: one result per op, in op order; every read sees the store as
// it was before the batch; then the puts are applied together, the last
// put to a key winning. One invalid op fails the batch, which then changes
// nothing.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

// The item a GetOp's result holds (REQUIREs that the result is a Get's).
const std::optional<StoreItem>& GotItem(const StoreOpResult& result) {
  REQUIRE(std::holds_alternative<std::optional<StoreItem>>(result));
  return std::get<std::optional<StoreItem>>(result);
}

// The items a SearchOp's result holds.
const std::vector<StoreItem>& FoundItems(const StoreOpResult& result) {
  REQUIRE(std::holds_alternative<std::vector<StoreItem>>(result));
  return std::get<std::vector<StoreItem>>(result);
}

// The namespaces a ListNamespacesOp's result holds.
const std::vector<Namespace>& ListedNamespaces(const StoreOpResult& result) {
  REQUIRE(std::holds_alternative<std::vector<Namespace>>(result));
  return std::get<std::vector<Namespace>>(result);
}

GetOp GetOf(Namespace ns, std::string key) {
  GetOp op;
  op.ns = std::move(ns);
  op.key = std::move(key);
  return op;
}

TEST_CASE("store batch: one result per op, in order, of the op's kind") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  PutItem(h.store(), {"b"}, "k", Obj({{"v", 2}}));
  const std::vector<StoreOpResult> results = MustOk(h.store().Batch({
      GetOf({"b"}, "k"),
      MakePut({"c"}, "k", Obj()),
      ListNamespacesOp{},
      SearchUnder({"a"}),
      GetOf({"a"}, "missing"),
      GetOf({"a"}, "k"),
  }));
  REQUIRE(results.size() == 6);
  REQUIRE(GotItem(results[0]).has_value());
  CHECK(GotItem(results[0])->value == Obj({{"v", 2}}));
  CHECK(std::holds_alternative<std::monostate>(results[1]));
  CHECK(NsNames(ListedNamespaces(results[2])) == "a b");
  CHECK(Names(FoundItems(results[3])) == "a:k");
  CHECK_FALSE(GotItem(results[4]).has_value());
  REQUIRE(GotItem(results[5]).has_value());
  CHECK(GotItem(results[5])->value == Obj({{"v", 1}}));
  CHECK(GotItem(results[5])->ns == Namespace{"a"});
  CHECK(GotItem(results[5])->key == "k");
}

TEST_CASE("store batch: an empty batch has no results") {
  StoreHarness h(EachBackend());
  CHECK(MustOk(h.store().Batch({})).empty());
}

TEST_CASE("store batch: reads see the store as it was before the batch") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  PutItem(h.store(), {"a"}, "doomed", Obj({{"v", 0}}));
  h.clock().Advance(kSecondUs);
  const std::vector<StoreOpResult> results = MustOk(h.store().Batch({
      MakePut({"a"}, "k", Obj({{"v", 2}})),
      MakePut({"new"}, "n", Obj({{"v", 3}})),
      MakePut({"a"}, "doomed", std::nullopt),
      GetOf({"a"}, "k"),
      GetOf({"new"}, "n"),
      GetOf({"a"}, "doomed"),
      SearchUnder({}),
      ListNamespacesOp{},
  }));
  REQUIRE(results.size() == 8);
  REQUIRE(GotItem(results[3]).has_value());
  CHECK(GotItem(results[3])->value == Obj({{"v", 1}}));
  CHECK(GotItem(results[3])->updated_at_us == kStartUs);
  CHECK_FALSE(GotItem(results[4]).has_value());
  CHECK(GotItem(results[5]).has_value());
  const std::vector<StoreItem>& found = FoundItems(results[6]);
  CHECK(found.size() == 2);
  for (const StoreItem& item : found) {
    CHECK(item.ns == Namespace{"a"});
    CHECK(item.updated_at_us == kStartUs);
  }
  CHECK(NsNames(ListedNamespaces(results[7])) == "a");

  // Then the puts are all there.
  const StoreItem k = MustGetItem(h.store(), {"a"}, "k");
  CHECK(k.value == Obj({{"v", 2}}));
  CHECK(k.created_at_us == kStartUs);
  CHECK(k.updated_at_us == kStartUs + kSecondUs);
  CHECK(MustGetItem(h.store(), {"new"}, "n").value == Obj({{"v", 3}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "doomed").has_value());
  CHECK(NsNames(MustList(h.store(), {})) == "a new");
  CheckSound(h.store());
}

TEST_CASE("store batch: the last put to a key wins") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "deleted_then_put", Obj({{"v", 0}}));
  PutItem(h.store(), {"a"}, "put_then_deleted", Obj({{"v", 0}}));
  STORE_REQUIRE_OK(h.store()
                       .Batch({
                           MakePut({"a"}, "twice", Obj({{"v", 1}})),
                           MakePut({"a"}, "put_then_deleted", Obj({{"v", 1}})),
                           MakePut({"a"}, "deleted_then_put", std::nullopt),
                           MakePut({"a"}, "twice", Obj({{"v", 2}})),
                           MakePut({"a"}, "put_then_deleted", std::nullopt),
                           MakePut({"a"}, "deleted_then_put", Obj({{"v", 3}})),
                           MakePut({"a"}, "fresh", std::nullopt),
                       })
                       .status());
  CHECK(MustGetItem(h.store(), {"a"}, "twice").value == Obj({{"v", 2}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "put_then_deleted").has_value());
  CHECK(MustGetItem(h.store(), {"a"}, "deleted_then_put").value ==
        Obj({{"v", 3}}));
  CHECK_FALSE(GetItem(h.store(), {"a"}, "fresh").has_value());
  // Two items, not one per put.
  CHECK(MustSearch(h.store(), SearchUnder({"a"})).size() == 2);
  CheckSound(h.store());
}

TEST_CASE("store batch: the last put decides a key's TTL and vectors") {
  StoreOpenOptions options;
  options.index = StoreIndexOptions{2};
  StoreHarness h(EachBackend(), options);
  STORE_REQUIRE_OK(
      h.store()
          .Batch({MakePut({"a"}, "k", Obj({{"v", 1}}), ItemTtl::Minutes(1),
                          {FieldVector{"f", {1, 0}}}),
                  MakePut({"a"}, "k", Obj({{"v", 2}}), ItemTtl::Never(),
                          {FieldVector{"g", {0, 1}}})})
          .status());
  h.clock().AdvanceMinutes(5);
  const StoreItem item = MustGetItem(h.store(), {"a"}, "k");
  CHECK(item.value == Obj({{"v", 2}}));
  CHECK_FALSE(item.expires_at_us.has_value());
  SearchOp op = SearchUnder({"a"});
  op.query = std::vector<float>{1, 0};
  const std::vector<StoreItem> found = MustSearch(h.store(), op);
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].score.has_value());
  CHECK(*found[0].score == doctest::Approx(0.0).epsilon(1e-4));
  CheckSound(h.store());
}

TEST_CASE(
    "store batch: one invalid op fails the batch, which writes "
    "nothing") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  SearchOp bad_filter = SearchUnder({"a"});
  bad_filter.filter = {{"v", Obj({{"$foo", 1}})}};
  SearchOp query_without_index = SearchUnder({"a"});
  query_without_index.query = std::vector<float>{1, 0};
  const std::vector<std::pair<const char*, StoreOp>> bad_ops = {
      {"empty namespace", MakePut({}, "k", Obj())},
      {"empty label", MakePut({"a", ""}, "k", Obj())},
      {"label with a dot", MakePut({"a.b"}, "k", Obj())},
      {"reserved first label", MakePut({"langgraph"}, "k", Obj())},
      {"value not a map", MakePut({"a"}, "k", Value(5))},
      {"TTL of zero minutes", MakePut({"a"}, "k", Obj(), ItemTtl::Minutes(0))},
      {"vectors without an index",
       MakePut({"a"}, "k", Obj(), ItemTtl::StoreDefault(),
               {FieldVector{"f", {1, 0}}})},
      {"unknown filter operator", bad_filter},
      {"query without an index", query_without_index},
  };
  for (const auto& [what, bad] : bad_ops) {
    CAPTURE(what);
    const Status status = h.store()
                              .Batch({
                                  MakePut({"a"}, "k", Obj({{"v", 2}})),
                                  MakePut({"a"}, "other", Obj()),
                                  bad,
                                  MakePut({"z"}, "after", Obj()),
                              })
                              .status();
    CHECK_MESSAGE(status.IsInvalidArgument(), status.ToString());
    CHECK(Everything(h.store()) == before);
  }
  CheckSound(h.store());
}

}  // namespace
}  // namespace rockpoint::store_testing
