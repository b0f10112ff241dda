// Store vector search (StoreOpenOptions::index): a Search with a query
// ranks the items under the prefix that pass the filter by the best cosine
// similarity of their vectors, best first, with the score set; items
// without vectors follow with no score; offset and limit apply after
// ranking. A put replaces an item's vectors, a delete removes them. Vectors
// of the wrong length, or any vector on a store without index, are
// InvalidArgument.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

StoreOpenOptions Indexed(size_t dims = 3) {
  StoreOpenOptions options;
  options.index = StoreIndexOptions{dims};
  return options;
}

FieldVector Vec(std::string field, std::vector<float> vector) {
  return FieldVector{std::move(field), std::move(vector)};
}

SearchOp QueryUnder(Namespace prefix, std::vector<float> query,
                    size_t limit = 100) {
  SearchOp op = SearchUnder(std::move(prefix), limit);
  op.query = std::move(query);
  return op;
}

// Items in ("v") put one microsecond apart, with their cosine to (1, 0, 0):
//   a (1, 0, 0) 1; d (0.9, 0.1, 0) 0.9939; c (1, 1, 0) 0.7071;
//   b (0, 1, 0) 0; f (-1, 0, 0) -1; e no vector.
void PutRankedItems(StoreHarness& h) {
  const std::vector<std::pair<std::string, std::vector<float>>> items = {
      {"e", {}},         {"b", {0, 1, 0}}, {"a", {1, 0, 0}},
      {"f", {-1, 0, 0}}, {"c", {1, 1, 0}}, {"d", {0.9f, 0.1f, 0}},
  };
  for (const auto& [key, vector] : items) {
    std::vector<FieldVector> vectors;
    if (!vector.empty()) vectors.push_back(Vec("content", vector));
    PutItem(h.store(), {"v"}, key, Obj({{"key", key}}), ItemTtl::StoreDefault(),
            vectors);
    h.clock().Advance(1);
  }
}

TEST_CASE("store vectors: the store reports its dimensions") {
  StoreHarness h(EachBackend(), Indexed(5));
  CHECK(h.store().dims() == std::optional<size_t>(5));
}

TEST_CASE("store vectors: a query ranks by cosine similarity, best first") {
  StoreHarness h(EachBackend(), Indexed());
  PutRankedItems(h);
  const std::vector<StoreItem> found =
      MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}));
  CHECK(Names(found) == "v:a v:d v:c v:b v:f v:e");
  REQUIRE(found.size() == 6);
  const double expected[] = {1.0, 0.9 / std::sqrt(0.82), 1 / std::sqrt(2.0),
                             0.0, -1.0};
  for (size_t i = 0; i < 5; ++i) {
    CAPTURE(found[i].key);
    REQUIRE(found[i].score.has_value());
    CHECK(*found[i].score == doctest::Approx(expected[i]).epsilon(1e-4));
  }
  // The item without vectors comes last, unscored; the rest of it is whole.
  CHECK_FALSE(found[5].score.has_value());
  CHECK(found[5].value == Obj({{"key", "e"}}));
  CHECK(found[0].value == Obj({{"key", "a"}}));
  CHECK(found[0].created_at_us == kStartUs + 2);

  // Cosine ignores length: a longer query ranks the same.
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {7, 0, 0}))) ==
        "v:a v:d v:c v:b v:f v:e");
  // (0.2, 1, 0): b 0.98, c 0.83, d 0.30, a 0.20, f -0.20.
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {0.2f, 1, 0}))) ==
        "v:b v:c v:d v:a v:f v:e");
}

TEST_CASE("store vectors: offset and limit apply after ranking") {
  StoreHarness h(EachBackend(), Indexed());
  PutRankedItems(h);
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}, 2))) ==
        "v:a v:d");
  SearchOp op = QueryUnder({"v"}, {1, 0, 0}, 2);
  op.offset = 2;
  CHECK(Names(MustSearch(h.store(), op)) == "v:c v:b");
  op.offset = 4;
  CHECK(Names(MustSearch(h.store(), op)) == "v:f v:e");
  op.offset = 6;
  CHECK(MustSearch(h.store(), op).empty());
  // The default limit holds with a query too.
  op = SearchOp{};
  op.query = std::vector<float>{1, 0, 0};
  CHECK(MustSearch(h.store(), op).size() == 6);
}

TEST_CASE("store vectors: an item scores its best vector") {
  StoreHarness h(EachBackend(), Indexed());
  PutItem(h.store(), {"v"}, "two", Obj(), ItemTtl::StoreDefault(),
          {Vec("title", {0, 1, 0}), Vec("body", {1, 0, 0})});
  PutItem(h.store(), {"v"}, "one", Obj(), ItemTtl::StoreDefault(),
          {Vec("body", {1, 1, 0})});
  for (const std::vector<float>& query :
       {std::vector<float>{1, 0, 0}, std::vector<float>{0, 1, 0}}) {
    const std::vector<StoreItem> found =
        MustSearch(h.store(), QueryUnder({"v"}, query));
    CHECK(Names(found) == "v:two v:one");
    REQUIRE(found.size() == 2);
    CHECK(found[0].score == doctest::Approx(1.0).epsilon(1e-4));
  }
}

TEST_CASE("store vectors: the prefix and the filter apply with a query") {
  StoreHarness h(EachBackend(), Indexed());
  PutRankedItems(h);
  PutItem(h.store(), {"w"}, "a", Obj({{"key", "a"}}), ItemTtl::StoreDefault(),
          {Vec("content", {1, 0, 0})});
  PutItem(h.store(), {"v", "sub"}, "a", Obj({{"key", "a"}}),
          ItemTtl::StoreDefault(), {Vec("content", {1, 0, 0.01f})});
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v", "sub"}, {1, 0, 0}))) ==
        "v/sub:a");
  CHECK(MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0})).size() == 7);
  SearchOp op = QueryUnder({"v"}, {1, 0, 0});
  op.filter = {{"key", Obj({{"$ne", "a"}})}};
  CHECK(Names(MustSearch(h.store(), op)) == "v:d v:c v:b v:f v:e");
  op.filter = {{"key", Obj({{"$gte", "c"}})}};
  CHECK(Names(MustSearch(h.store(), op)) == "v:d v:c v:f v:e");
  CHECK(MustSearch(h.store(), QueryUnder({}, {1, 0, 0})).size() == 8);
}

TEST_CASE("store vectors: a put replaces the vectors, a delete removes them") {
  StoreHarness h(EachBackend(), Indexed());
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 1}}), ItemTtl::StoreDefault(),
          {Vec("title", {1, 0, 0}), Vec("body", {0, 1, 0})});
  PutItem(h.store(), {"v"}, "ref", Obj(), ItemTtl::StoreDefault(),
          {Vec("body", {0.5f, 0.5f, 0})});
  auto score_of_k = [&](std::vector<float> query) -> std::optional<double> {
    for (const StoreItem& item :
         MustSearch(h.store(), QueryUnder({"v"}, std::move(query)))) {
      if (item.key == "k") return item.score;
    }
    FAIL("k not found");
    return std::nullopt;
  };
  CHECK(score_of_k({1, 0, 0}) == doctest::Approx(1.0).epsilon(1e-4));

  // The old "title" vector is gone: only "body" (0, 1, 0) is left.
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 2}}), ItemTtl::StoreDefault(),
          {Vec("body", {0, 1, 0})});
  CHECK(score_of_k({1, 0, 0}) == doctest::Approx(0.0).epsilon(1e-4));
  CHECK(score_of_k({0, 1, 0}) == doctest::Approx(1.0).epsilon(1e-4));

  // A put without vectors leaves the item none.
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 3}}));
  CHECK_FALSE(score_of_k({0, 1, 0}).has_value());
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {0, 1, 0}))) ==
        "v:ref v:k");

  // Delete, then put without vectors: none come back.
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 4}}), ItemTtl::StoreDefault(),
          {Vec("title", {1, 0, 0})});
  CHECK(score_of_k({1, 0, 0}) == doctest::Approx(1.0).epsilon(1e-4));
  STORE_REQUIRE_OK(h.store().Delete({"v"}, "k"));
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}))) == "v:ref");
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 5}}));
  CHECK_FALSE(score_of_k({1, 0, 0}).has_value());
  CheckSound(h.store());
}

TEST_CASE("store vectors: zero vectors score 0") {
  StoreHarness h(EachBackend(), Indexed());
  PutItem(h.store(), {"v"}, "zero", Obj(), ItemTtl::StoreDefault(),
          {Vec("content", {0, 0, 0})});
  PutItem(h.store(), {"v"}, "neg", Obj(), ItemTtl::StoreDefault(),
          {Vec("content", {-1, 0, 0})});
  PutItem(h.store(), {"v"}, "none", Obj());
  std::vector<StoreItem> found =
      MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}));
  CHECK(Names(found) == "v:zero v:neg v:none");
  REQUIRE(found.size() == 3);
  REQUIRE(found[0].score.has_value());
  CHECK(*found[0].score == 0.0);
  // A zero query scores every vector 0 (never NaN).
  found = MustSearch(h.store(), QueryUnder({"v"}, {0, 0, 0}));
  REQUIRE(found.size() == 3);
  for (const StoreItem& item : found) {
    CAPTURE(item.key);
    if (item.key == "none") {
      CHECK_FALSE(item.score.has_value());
    } else {
      REQUIRE(item.score.has_value());
      CHECK(*item.score == 0.0);
    }
  }
  CHECK(found[2].key == "none");
}

TEST_CASE("store vectors: ranking many items is exact") {
  constexpr size_t kDims = 8;
  StoreHarness h(EachBackend(), Indexed(kDims));
  // Deterministic pseudo-random vectors, components in [-1, 1].
  uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1;
  };
  auto random_vector = [&] {
    std::vector<float> v(kDims);
    for (float& x : v) x = next();
    return v;
  };
  auto cosine = [](const std::vector<float>& a, const std::vector<float>& b) {
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      dot += double{a[i]} * b[i];
      na += double{a[i]} * a[i];
      nb += double{b[i]} * b[i];
    }
    return dot / std::sqrt(na * nb);
  };
  const std::vector<float> query = random_vector();
  std::vector<StoreOp> puts;
  std::map<std::string, double> expected;  // key -> best cosine.
  for (int i = 0; i < 80; ++i) {
    const std::string key = "k" + std::to_string(i);
    std::vector<FieldVector> vectors;
    double best = -2;
    for (int f = 0; f < 1 + i % 3; ++f) {
      vectors.push_back(Vec("f" + std::to_string(f), random_vector()));
      best = std::max(best, cosine(vectors.back().vector, query));
    }
    expected[key] = best;
    puts.emplace_back(MakePut({"v"}, key, Obj({{"i", i}}),
                              ItemTtl::StoreDefault(), std::move(vectors)));
  }
  REQUIRE(MustOk(h.store().Batch(puts)).size() == 80);
  std::vector<double> best_scores;
  for (const auto& [key, score] : expected) best_scores.push_back(score);
  std::sort(best_scores.rbegin(), best_scores.rend());

  const std::vector<StoreItem> found =
      MustSearch(h.store(), QueryUnder({"v"}, query, 15));
  REQUIRE(found.size() == 15);
  for (size_t i = 0; i < found.size(); ++i) {
    CAPTURE(found[i].key);
    REQUIRE(found[i].score.has_value());
    // Its own score, in rank order: the top 15 of all.
    CHECK(*found[i].score ==
          doctest::Approx(expected[found[i].key]).epsilon(1e-4));
    CHECK(*found[i].score == doctest::Approx(best_scores[i]).epsilon(1e-4));
  }
}

TEST_CASE("store vectors: vectors of the wrong length are InvalidArgument") {
  StoreHarness h(EachBackend(), Indexed());
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 1}}), ItemTtl::StoreDefault(),
          {Vec("content", {1, 0, 0})});
  const std::string before = Everything(h.store());
  for (const std::vector<float>& bad :
       {std::vector<float>{}, std::vector<float>{1, 0},
        std::vector<float>{1, 0, 0, 0}}) {
    CAPTURE(bad.size());
    STORE_CHECK_INVALID(
        h.store().Put(MakePut({"v"}, "k", Obj({{"v", 2}}),
                              ItemTtl::StoreDefault(), {Vec("content", bad)})));
    // One bad vector among good ones refuses the put.
    STORE_CHECK_INVALID(
        h.store().Put(MakePut({"v"}, "new", Obj(), ItemTtl::StoreDefault(),
                              {Vec("good", {0, 1, 0}), Vec("bad", bad)})));
    STORE_CHECK_INVALID(h.store().Search(QueryUnder({"v"}, bad)).status());
  }
  CHECK(Everything(h.store()) == before);
  // The item kept its vector.
  const std::vector<StoreItem> found =
      MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}));
  REQUIRE(found.size() == 1);
  CHECK(found[0].score == doctest::Approx(1.0).epsilon(1e-4));
}

TEST_CASE("store vectors: a NaN or infinite component is InvalidArgument") {
  StoreHarness h(EachBackend(), Indexed());
  const std::string before = Everything(h.store());
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()}) {
    CAPTURE(bad);
    STORE_CHECK_INVALID(h.store().Put(MakePut(
        {"v"}, "k", Obj(), ItemTtl::StoreDefault(), {Vec("f", {1, bad, 0})})));
    STORE_CHECK_INVALID(
        h.store().Search(QueryUnder({"v"}, {bad, 0, 0})).status());
  }
  CHECK(Everything(h.store()) == before);
}

TEST_CASE(
    "store vectors: each item keeps its own vectors, whatever bytes "
    "its key holds") {
  using namespace std::string_literals;  // NOLINT: "\0"s keys
  StoreHarness h(EachBackend(), Indexed());
  // Keys and labels whose encodings continue one another's bytes.
  const std::vector<std::pair<Namespace, std::string>> ids = {
      {{"a"}, "b"},      {{"a"}, "b\0x"s}, {{"a"}, "b\xff"},
      {{"a", "b"}, "x"}, {{"a\0b"s}, "x"}, {{"a"}, ""},
  };
  for (const auto& [ns, key] : ids) {
    PutItem(h.store(), ns, key, Obj(), ItemTtl::StoreDefault(),
            {Vec("f", {1, 0, 0})});
  }
  // Deleting ("a"):"b" and re-putting ("a"):"" without vectors takes only
  // their own vectors.
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "b"));
  PutItem(h.store(), {"a"}, "", Obj());
  std::string scored;
  for (const StoreItem& item :
       MustSearch(h.store(), QueryUnder({}, {1, 0, 0}))) {
    if (!item.score) continue;
    CHECK(*item.score == doctest::Approx(1.0).epsilon(1e-4));
    scored += ItemName(item.ns, item.key) + " ";
  }
  for (const char* expected :
       {"a:b\\x00x ", "a:b\\xff ", "a/b:x ", "a\\x00b:x "}) {
    CHECK_MESSAGE(scored.find(expected) != std::string::npos,
                  expected << " not in " << scored);
  }
  CHECK(scored.find("a:b ") == std::string::npos);
  CHECK(scored.find("a: ") == std::string::npos);
  CheckSound(h.store());
}

TEST_CASE("store vectors: without an index, vectors are InvalidArgument") {
  StoreHarness h(EachBackend());
  CHECK_FALSE(h.store().dims().has_value());
  PutItem(h.store(), {"v"}, "k", Obj({{"v", 1}}));
  const std::string before = Everything(h.store());
  STORE_CHECK_INVALID(
      h.store().Put(MakePut({"v"}, "k2", Obj(), ItemTtl::StoreDefault(),
                            {Vec("content", {1, 0, 0})})));
  STORE_CHECK_INVALID(h.store().Search(QueryUnder({"v"}, {1, 0, 0})).status());
  CHECK(Everything(h.store()) == before);
}

TEST_CASE("store vectors: dims 0 is refused at OpenStore") {
  const Backend backend = EachBackend();
  testing::TempDir dir("store");
  const std::string url =
      backend == Backend::kMemory ? "memory:" : "rocksdb:" + dir.Sub("db");
  STORE_CHECK_INVALID(OpenStore(url, Indexed(0)).status());
}

TEST_CASE("store vectors: an expired item is not ranked") {
  StoreHarness h(EachBackend(), Indexed());
  PutItem(h.store(), {"v"}, "brief", Obj(), ItemTtl::Minutes(1),
          {Vec("content", {1, 0, 0})});
  PutItem(h.store(), {"v"}, "lasting", Obj(), ItemTtl::Never(),
          {Vec("content", {0, 1, 0})});
  h.clock().AdvanceMinutes(2);
  CHECK(Names(MustSearch(h.store(), QueryUnder({"v"}, {1, 0, 0}))) ==
        "v:lasting");
}

}  // namespace
}  // namespace rockpoint::store_testing
