// Store ListNamespaces: the namespaces that hold items, each once, sorted
// label by label (bytewise, a namespace before those it prefixes); prefix
// and suffix conditions with "*" for any one label, all of which must hold;
// max_depth cuts (after the conditions) and deduplicates; then offset and
// limit. A namespace is gone once its last item is.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

using namespace std::string_literals;  // NOLINT: "\0"s labels

// A ListNamespacesOp of `conditions`, with limit 1000 unless given.
ListNamespacesOp ListOp(std::vector<NamespaceCondition> conditions = {},
                        std::optional<size_t> max_depth = std::nullopt,
                        size_t limit = 1000, size_t offset = 0) {
  ListNamespacesOp op;
  op.conditions = std::move(conditions);
  op.max_depth = max_depth;
  op.limit = limit;
  op.offset = offset;
  return op;
}

NamespaceCondition PrefixOf(Namespace path) {
  return {NamespaceMatch::kPrefix, std::move(path)};
}

NamespaceCondition SuffixOf(Namespace path) {
  return {NamespaceMatch::kSuffix, std::move(path)};
}

// One item in each of these namespaces (two in "a/b"), put in an order
// unrelated to the sorted one.
void PutNamespaceTree(Store& store) {
  for (const Namespace& ns : std::vector<Namespace>{{"b"},
                                                    {"a", "c"},
                                                    {"ab"},
                                                    {"a", "b", "c"},
                                                    {"a"},
                                                    {"a", "b"},
                                                    {"b", "x", "c"}}) {
    PutItem(store, ns, "k", Obj({{"v", 1}}));
  }
  PutItem(store, {"a", "b"}, "k2", Obj({{"v", 2}}));
}

TEST_CASE("store namespaces: each once, sorted label by label") {
  StoreHarness h(EachBackend());
  CHECK(MustList(h.store(), ListOp()).empty());
  PutNamespaceTree(h.store());
  CHECK(NsNames(MustList(h.store(), ListOp())) == "a a/b a/b/c a/c ab b b/x/c");
}

TEST_CASE("store namespaces: labels order by their bytes, unsigned") {
  StoreHarness h(EachBackend());
  // "a" < "a\0" < "a\x01" < "ab" < "\x80" < "\xff" as byte strings; and
  // ("a", "z") sorts before ("a\0"): the first labels differ, "a" < "a\0".
  for (const Namespace& ns : std::vector<Namespace>{{"\xff"},
                                                    {"a\0"s},
                                                    {"ab"},
                                                    {"a", "z"},
                                                    {"\x80"},
                                                    {"a\x01"},
                                                    {"a"},
                                                    {"a", "\xff"}}) {
    PutItem(h.store(), ns, "k", Obj({{"v", 1}}));
  }
  const std::vector<Namespace> expected = {{"a"},    {"a", "z"}, {"a", "\xff"},
                                           {"a\0"s}, {"a\x01"},  {"ab"},
                                           {"\x80"}, {"\xff"}};
  const std::vector<Namespace> listed = MustList(h.store(), ListOp());
  CHECK(NsNames(listed) == NsNames(expected));
  CHECK(listed == expected);
}

TEST_CASE("store namespaces: a prefix condition matches whole labels") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a"})}))) ==
        "a a/b a/b/c a/c");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a", "b"})}))) ==
        "a/b a/b/c");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a", "b", "c"})}))) ==
        "a/b/c");
  // Longer than every namespace, or no such label.
  CHECK(MustList(h.store(), ListOp({PrefixOf({"a", "b", "c", "d"})})).empty());
  CHECK(MustList(h.store(), ListOp({PrefixOf({"z"})})).empty());
  // "a" is not a prefix of the label "ab", nor "x" of "xy".
  PutItem(h.store(), {"x", "y"}, "k", Obj());
  PutItem(h.store(), {"xy"}, "k", Obj());
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"x"})}))) == "x/y");
}

TEST_CASE("store namespaces: a suffix condition matches the last labels") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"c"})}))) ==
        "a/b/c a/c b/x/c");
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"b", "c"})}))) ==
        "a/b/c");
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"b"})}))) == "a/b b");
  CHECK(MustList(h.store(), ListOp({SuffixOf({"x", "a", "b", "c"})})).empty());
  // "b" is not a suffix of the label "ab".
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"ab"})}))) == "ab");
}

TEST_CASE("store namespaces: \"*\" matches any one label") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  // Prefix: any first label, then "b" / "x".
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"*", "b"})}))) ==
        "a/b a/b/c");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"*", "x"})}))) ==
        "b/x/c");
  // "*" stands for exactly one label, never none: ("*") matches everything
  // with a first label, ("*", "*", "*") only the three-label namespaces.
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"*"})}))) ==
        "a a/b a/b/c a/c ab b b/x/c");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"*", "*", "*"})}))) ==
        "a/b/c b/x/c");
  // Suffix: anything, then "c"; "b", then anything.
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"*", "c"})}))) ==
        "a/b/c a/c b/x/c");
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"b", "*"})}))) ==
        "a/b/c");
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"x", "*"})}))) ==
        "b/x/c");
}

TEST_CASE("store namespaces: all conditions must hold") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a"}),
                                            SuffixOf({"c"})}))) == "a/b/c a/c");
  CHECK(NsNames(MustList(
            h.store(), ListOp({PrefixOf({"b"}), SuffixOf({"c"})}))) == "b/x/c");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a"}),
                                            PrefixOf({"*", "c"})}))) == "a/c");
  CHECK(
      MustList(h.store(), ListOp({PrefixOf({"a"}), PrefixOf({"b"})})).empty());
}

TEST_CASE("store namespaces: max_depth cuts and deduplicates") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  CHECK(NsNames(MustList(h.store(), ListOp({}, 1))) == "a ab b");
  CHECK(NsNames(MustList(h.store(), ListOp({}, 2))) == "a a/b a/c ab b b/x");
  CHECK(NsNames(MustList(h.store(), ListOp({}, 3))) ==
        "a a/b a/b/c a/c ab b b/x/c");
  CHECK(NsNames(MustList(h.store(), ListOp({}, 10))) ==
        "a a/b a/b/c a/c ab b b/x/c");
  // Conditions apply to the whole namespace, before the cut: the
  // namespaces ending in "c" are a/b/c, a/c and b/x/c.
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"c"})}, 1))) == "a b");
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"c"})}, 2))) ==
        "a/b a/c b/x");
  CHECK(NsNames(MustList(h.store(), ListOp({PrefixOf({"a", "b"})}, 1))) == "a");
}

TEST_CASE("store namespaces: offset and limit page the sorted list") {
  StoreHarness h(EachBackend());
  PutNamespaceTree(h.store());
  // a a/b a/b/c a/c ab b b/x/c
  CHECK(NsNames(MustList(h.store(), ListOp({}, std::nullopt, 2))) == "a a/b");
  CHECK(NsNames(MustList(h.store(), ListOp({}, std::nullopt, 2, 2))) ==
        "a/b/c a/c");
  CHECK(NsNames(MustList(h.store(), ListOp({}, std::nullopt, 100, 5))) ==
        "b b/x/c");
  CHECK(MustList(h.store(), ListOp({}, std::nullopt, 100, 7)).empty());
  CHECK(MustList(h.store(), ListOp({}, std::nullopt, 100, 1000)).empty());
  CHECK(MustList(h.store(), ListOp({}, std::nullopt, 0)).empty());
  // After the dedup of max_depth: a ab b.
  CHECK(NsNames(MustList(h.store(), ListOp({}, 1, 1, 1))) == "ab");
  // After the conditions: a/b/c a/c b/x/c.
  CHECK(NsNames(MustList(h.store(), ListOp({SuffixOf({"c"})}, std::nullopt, 1,
                                           1))) == "a/c");
}

TEST_CASE("store namespaces: the default limit is 100") {
  StoreHarness h(EachBackend());
  std::vector<StoreOp> puts;
  for (int i = 0; i < 105; ++i) {
    puts.emplace_back(MakePut({"n" + std::to_string(1000 + i)}, "k", Obj()));
  }
  REQUIRE(MustOk(h.store().Batch(puts)).size() == 105);
  const std::vector<Namespace> listed = MustList(h.store(), {});
  REQUIRE(listed.size() == 100);
  CHECK(listed.front() == Namespace{"n1000"});
  CHECK(listed.back() == Namespace{"n1099"});
}

TEST_CASE("store namespaces: a namespace lasts as long as one of its items") {
  StoreHarness h(EachBackend());
  PutItem(h.store(), {"a", "b"}, "k1", Obj());
  PutItem(h.store(), {"a", "b"}, "k2", Obj());
  PutItem(h.store(), {"a", "b", "c"}, "k", Obj());
  STORE_REQUIRE_OK(h.store().Delete({"a", "b"}, "k1"));
  CHECK(NsNames(MustList(h.store(), ListOp())) == "a/b a/b/c");
  STORE_REQUIRE_OK(h.store().Put(MakePut({"a", "b"}, "k2", std::nullopt)));
  // a/b is gone, though a/b/c (which it prefixes) remains.
  CHECK(NsNames(MustList(h.store(), ListOp())) == "a/b/c");
  CHECK(NsNames(MustList(h.store(), ListOp({}, 2))) == "a/b");
  STORE_REQUIRE_OK(h.store().Delete({"a", "b", "c"}, "k"));
  CHECK(MustList(h.store(), ListOp()).empty());
  // And it comes back with a new item.
  PutItem(h.store(), {"a", "b"}, "k3", Obj());
  CHECK(NsNames(MustList(h.store(), ListOp())) == "a/b");
  CheckSound(h.store());
}

TEST_CASE("store namespaces: labels with separator-like bytes stay apart") {
  StoreHarness h(EachBackend());
  // ("a", "b"), ("a\0b") and ("a:b") are three namespaces.
  PutItem(h.store(), {"a", "b"}, "k", Obj());
  PutItem(h.store(), {"a\0b"s}, "k", Obj());
  PutItem(h.store(), {"a:b"}, "k", Obj());
  PutItem(h.store(), {"a", "\0"s}, "k", Obj());
  CHECK(MustList(h.store(), ListOp()) ==
        std::vector<Namespace>{{"a", "\0"s}, {"a", "b"}, {"a\0b"s}, {"a:b"}});
  CHECK(MustList(h.store(), ListOp({PrefixOf({"a"})})) ==
        std::vector<Namespace>{{"a", "\0"s}, {"a", "b"}});
  CHECK(MustList(h.store(), ListOp({SuffixOf({"b"})})) ==
        std::vector<Namespace>{{"a", "b"}});
  CHECK(MustList(h.store(), ListOp({}, 1)) ==
        std::vector<Namespace>{{"a"}, {"a\0b"s}, {"a:b"}});
}

}  // namespace
}  // namespace rockpoint::store_testing
