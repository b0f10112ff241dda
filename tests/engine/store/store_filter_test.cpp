// Store Search filters (LangGraph's): each condition is on a top-level
// field and all must hold. A scalar is equality (int 1 equals double 1.0; a
// bool equals no number); an array is element-wise equality; a map of
// operators ($eq $ne $gt $gte $lt $lte) compares (numbers numerically,
// strings bytewise, a number never against a string); any other map matches
// nested fields the same way. A missing field never matches, except under
// $ne. An unknown operator is InvalidArgument.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

// Five items in ("f"), one field per concern, put in this order, then a
// copy of i1 in ("g"):
//   n    numbers: 1, 2.5, 1.0, the string "1", missing
//   s    strings: "apple", "banana", "cherry", the number 3, missing
//   b    true, false, 1, missing, 0
//   k    "a", "b", "c", missing, "a"
//   tags ["x","y"], ["y","x"], ["x"], missing, "x"
//   meta {lang en, score 5}, {lang fr, score 2}, "plain", missing, missing
//   nums missing, [1, 2.0], missing, missing, missing
//   nul  missing, missing, missing, null, missing
//   objs missing, missing, [{a: 1.0, b: [1]}], missing, missing
void PutFilterItems(StoreHarness& h) {
  const Value i1 = Obj({{"n", 1},
                        {"s", "apple"},
                        {"b", true},
                        {"k", "a"},
                        {"tags", Arr({"x", "y"})},
                        {"meta", Obj({{"lang", "en"}, {"score", 5}})}});
  PutItem(h.store(), {"f"}, "i1", i1);
  h.clock().Advance(1);
  PutItem(h.store(), {"f"}, "i2",
          Obj({{"n", 2.5},
               {"s", "banana"},
               {"b", false},
               {"k", "b"},
               {"tags", Arr({"y", "x"})},
               {"meta", Obj({{"lang", "fr"}, {"score", 2}})},
               {"nums", Arr({1, 2.0})}}));
  h.clock().Advance(1);
  PutItem(h.store(), {"f"}, "i3",
          Obj({{"n", 1.0},
               {"s", "cherry"},
               {"b", 1},
               {"k", "c"},
               {"tags", Arr({"x"})},
               {"meta", "plain"},
               {"objs", Arr({Obj({{"a", 1.0}, {"b", Arr({1})}})})}}));
  h.clock().Advance(1);
  PutItem(h.store(), {"f"}, "i4",
          Obj({{"n", "1"}, {"s", 3}, {"nul", Value()}}));
  h.clock().Advance(1);
  PutItem(h.store(), {"f"}, "i5", Obj({{"b", 0}, {"k", "a"}, {"tags", "x"}}));
  h.clock().Advance(1);
  PutItem(h.store(), {"g"}, "i1", i1);
  h.clock().Advance(1);
}

// The keys of the items under ("f") that `filter` selects, sorted.
std::string KeysMatching(Store& store, Value::Map filter) {
  SearchOp op = SearchUnder({"f"});
  op.filter = std::move(filter);
  std::vector<std::string> keys;
  for (const StoreItem& item : MustSearch(store, op)) keys.push_back(item.key);
  std::sort(keys.begin(), keys.end());
  std::string out;
  for (const std::string& key : keys) out += (out.empty() ? "" : " ") + key;
  return out;
}

// {op: operand}, an operator map.
Value Op(const char* op, Value operand) {
  return Obj({{op, std::move(operand)}});
}

TEST_CASE("store filter: a scalar is equality, int and double alike") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  CHECK(KeysMatching(h.store(), {}) == "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"n", 1}}) == "i1 i3");
  CHECK(KeysMatching(h.store(), {{"n", 1.0}}) == "i1 i3");
  CHECK(KeysMatching(h.store(), {{"n", 2.5}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"n", "1"}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"s", "apple"}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"s", 3}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"s", "Apple"}}).empty());
  CHECK(KeysMatching(h.store(), {{"k", "a"}}) == "i1 i5");
}

TEST_CASE("store filter: a bool equals no number") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  CHECK(KeysMatching(h.store(), {{"b", true}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"b", false}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"b", 1}}) == "i3");
  CHECK(KeysMatching(h.store(), {{"b", 0}}) == "i5");
  CHECK(KeysMatching(h.store(), {{"b", 1.0}}) == "i3");
}

// The brief's rule, applied to null as to any operand: a missing field
// never matches, except under $ne, which it always matches.
// A missing field equals null (docs/STORE.md), as in LangGraph's
// InMemoryStore, where item.value.get(field) is None.
TEST_CASE("store filter: null matches a null field and a missing one") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // Only i4 has the field "nul" (null); the others have none.
  CHECK(KeysMatching(h.store(), {{"nul", Value()}}) == "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"nul", Op("$eq", Value())}}) ==
        "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"nul", Op("$ne", Value())}}).empty());
  CHECK(KeysMatching(h.store(), {{"absent", Value()}}) == "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"absent", Op("$ne", Value())}}).empty());
  // A non-null value never equals a missing field; $ne holds for it.
  CHECK(KeysMatching(h.store(), {{"absent", 1}}).empty());
  CHECK(KeysMatching(h.store(), {{"absent", Op("$ne", 1)}}) ==
        "i1 i2 i3 i4 i5");
}

TEST_CASE("store filter: an array is element-wise equality") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  CHECK(KeysMatching(h.store(), {{"tags", Arr({"x", "y"})}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"tags", Arr({"y", "x"})}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"tags", Arr({"x"})}}) == "i3");
  CHECK(KeysMatching(h.store(), {{"tags", Arr()}}).empty());
  CHECK(KeysMatching(h.store(), {{"tags", Arr({"x", "y", "z"})}}).empty());
  // Elements compare as scalars do: 1 equals 1.0.
  CHECK(KeysMatching(h.store(), {{"nums", Arr({1.0, 2})}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"nums", Arr({1})}}).empty());
  // An array is not its element, nor an element the array.
  CHECK(KeysMatching(h.store(), {{"tags", "x"}}) == "i5");
  CHECK(KeysMatching(h.store(), {{"s", Arr({"apple"})}}).empty());
  // Maps inside arrays compare deeply, numbers as numbers.
  CHECK(KeysMatching(h.store(),
                     {{"objs", Arr({Obj({{"a", 1}, {"b", Arr({1.0})}})})}}) ==
        "i3");
  CHECK(KeysMatching(h.store(),
                     {{"objs", Arr({Obj({{"a", 2}, {"b", Arr({1})}})})}})
            .empty());
}

TEST_CASE("store filter: operators compare numbers numerically") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // n: i1 1, i2 2.5, i3 1.0; i4 the string "1"; i5 none.
  CHECK(KeysMatching(h.store(), {{"n", Op("$eq", 1)}}) == "i1 i3");
  CHECK(KeysMatching(h.store(), {{"n", Op("$gt", 1)}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"n", Op("$gt", 1.5)}}) == "i2");
  CHECK(KeysMatching(h.store(), {{"n", Op("$gte", 1)}}) == "i1 i2 i3");
  CHECK(KeysMatching(h.store(), {{"n", Op("$lt", 2.5)}}) == "i1 i3");
  CHECK(KeysMatching(h.store(), {{"n", Op("$lte", 1)}}) == "i1 i3");
  CHECK(KeysMatching(h.store(), {{"n", Op("$lte", 2.5)}}) == "i1 i2 i3");
  CHECK(KeysMatching(h.store(), {{"n", Op("$lt", 1)}}).empty());
  CHECK(KeysMatching(h.store(), {{"n", Op("$gt", -1000000)}}) == "i1 i2 i3");
  // Several operators in one map must all hold: 1 <= n < 2.
  CHECK(KeysMatching(h.store(), {{"n", Obj({{"$gte", 1}, {"$lt", 2}})}}) ==
        "i1 i3");
  CHECK(
      KeysMatching(h.store(), {{"n", Obj({{"$gt", 1}, {"$lt", 2}})}}).empty());
}

TEST_CASE("store filter: operators compare strings bytewise") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // s: i1 "apple", i2 "banana", i3 "cherry"; i4 the number 3.
  CHECK(KeysMatching(h.store(), {{"s", Op("$eq", "apple")}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"s", Op("$gt", "apple")}}) == "i2 i3");
  CHECK(KeysMatching(h.store(), {{"s", Op("$gte", "banana")}}) == "i2 i3");
  CHECK(KeysMatching(h.store(), {{"s", Op("$lt", "b")}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"s", Op("$lte", "banana")}}) == "i1 i2");
  CHECK(KeysMatching(h.store(), {{"s", Op("$gt", "")}}) == "i1 i2 i3");
  // Uppercase sorts before lowercase in bytes.
  CHECK(KeysMatching(h.store(), {{"s", Op("$gt", "Zebra")}}) == "i1 i2 i3");
}

TEST_CASE("store filter: a number and a string never compare") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // Only i4 holds a string in n and a number in s.
  CHECK(KeysMatching(h.store(), {{"n", Op("$gt", "0")}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"n", Op("$lt", "9")}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"s", Op("$gt", 0)}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"s", Op("$lte", 1000)}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"n", Op("$eq", "1")}}) == "i4");
  CHECK(KeysMatching(h.store(), {{"s", Op("$eq", 3)}}) == "i4");
}

TEST_CASE("store filter: a missing field matches $ne and nothing else") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // k: i1 "a", i2 "b", i3 "c", i4 missing, i5 "a".
  CHECK(KeysMatching(h.store(), {{"k", Op("$ne", "a")}}) == "i2 i3 i4");
  CHECK(KeysMatching(h.store(), {{"k", Op("$ne", "zzz")}}) == "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"k", Op("$eq", "a")}}) == "i1 i5");
  CHECK(KeysMatching(h.store(), {{"k", Op("$gte", "")}}) == "i1 i2 i3 i5");
  CHECK(KeysMatching(h.store(), {{"k", Op("$lt", "zzz")}}) == "i1 i2 i3 i5");
  // $ne compares as equality does: 1.0 is not "distinct" from 1.
  CHECK(KeysMatching(h.store(), {{"n", Obj({{"$ne", 1.0}, {"$gt", 0}})}}) ==
        "i2");
  CHECK(KeysMatching(h.store(), {{"absent", Op("$ne", 1)}}) ==
        "i1 i2 i3 i4 i5");
  CHECK(KeysMatching(h.store(), {{"absent", Op("$eq", 1)}}).empty());
}

TEST_CASE("store filter: a map without operators matches nested fields") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // meta: i1 {lang en, score 5}, i2 {lang fr, score 2}, i3 "plain".
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"lang", "en"}})}}) == "i1");
  CHECK(KeysMatching(h.store(),
                     {{"meta", Obj({{"lang", "en"}, {"score", 5}})}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"lang", "en"}, {"score", 4}})}})
            .empty());
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"score", Op("$gt", 3)}})}}) ==
        "i1");
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"score", Op("$lt", 10)}})}}) ==
        "i1 i2");
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"lang", "de"}})}}).empty());
  // A nested field missing from a map is missing: $ne matches it, but only
  // where meta is a map at all.
  CHECK(KeysMatching(h.store(), {{"meta", Obj({{"x", Op("$ne", 1)}})}}) ==
        "i1 i2");
  // Only top-level fields are fields: "lang" is not one.
  CHECK(KeysMatching(h.store(), {{"lang", "en"}}).empty());
}

TEST_CASE("store filter: every condition must hold") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  CHECK(KeysMatching(h.store(), {{"n", 1}, {"k", "a"}}) == "i1");
  CHECK(KeysMatching(h.store(), {{"n", 1}, {"b", 1}}) == "i3");
  CHECK(KeysMatching(h.store(), {{"n", 1}, {"k", "b"}}).empty());
  CHECK(KeysMatching(h.store(),
                     {{"k", Op("$ne", "b")}, {"tags", Arr({"x"})}}) == "i3");
}

TEST_CASE(
    "store filter: it applies within the prefix, before offset and "
    "limit") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  // ("g") holds a copy of i1, which ("f") searches never show.
  SearchOp op = SearchUnder({});
  op.filter = {{"s", "apple"}};
  CHECK(Names(MustSearch(h.store(), op)) == "g:i1 f:i1");
  // i3, i2, i1 match, newest first; paging counts matches only.
  op = SearchUnder({"f"}, 1);
  op.filter = {{"n", Op("$gte", 1)}};
  CHECK(Names(MustSearch(h.store(), op)) == "f:i3");
  op.offset = 1;
  CHECK(Names(MustSearch(h.store(), op)) == "f:i2");
  op.offset = 2;
  op.limit = 5;
  CHECK(Names(MustSearch(h.store(), op)) == "f:i1");
}

TEST_CASE("store filter: an unknown operator is InvalidArgument") {
  StoreHarness h(EachBackend());
  PutFilterItems(h);
  for (const char* op_name : {"$foo", "$in", "$", "$EQ"}) {
    CAPTURE(op_name);
    SearchOp op = SearchUnder({"f"});
    op.filter = {{"n", Op(op_name, 1)}};
    STORE_CHECK_INVALID(h.store().Search(op).status());
    // Also nested, and next to a valid operator.
    op.filter = {{"meta", Obj({{"score", Op(op_name, 1)}})}};
    STORE_CHECK_INVALID(h.store().Search(op).status());
    op.filter = {{"n", Obj({{"$gt", 0}, {op_name, 1}})}};
    STORE_CHECK_INVALID(h.store().Search(op).status());
  }
}

}  // namespace
}  // namespace rockpoint::store_testing
