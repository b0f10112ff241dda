// Store vector search above StoreIndexOptions::exact_search_max_vectors,
// where an HNSW graph may answer: the results may miss some of the best
// items (recall is vector_index_test.cpp's concern), but never break the
// contract: only items under the prefix that pass the filter and have not
// expired, best first, each scored by its own vectors, replaced and deleted
// vectors gone; a prefix small enough is still ranked exactly. IndexStats
// counts the vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

constexpr size_t kApproxDims = 16;
constexpr size_t kApproxExactMax = 100;

// Deterministic vectors with components in [-1, 1).
class ApproxVectors {
 public:
  explicit ApproxVectors(uint32_t seed) : state_(seed) {}
  std::vector<float> Next() {
    std::vector<float> v(kApproxDims);
    for (float& x : v) {
      state_ = state_ * 1664525u + 1013904223u;
      x = static_cast<float>(state_ >> 8) / static_cast<float>(1u << 23) - 1;
    }
    return v;
  }

 private:
  uint32_t state_;
};

double ApproxCosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double{a[i]} * b[i];
    na += double{a[i]} * a[i];
    nb += double{b[i]} * b[i];
  }
  return dot / std::sqrt(na * nb);
}

StoreOpenOptions ApproxOptions() {
  StoreOpenOptions options;
  options.sync_writes = false;
  options.index = StoreIndexOptions{kApproxDims};
  options.index->exact_search_max_vectors = kApproxExactMax;
  return options;
}

StoreIndexStats MustStats(Store& store) {
  std::optional<StoreIndexStats> stats = MustOk(store.IndexStats());
  REQUIRE(stats.has_value());
  return *stats;
}

// 600 items, one vector each: "big" holds 590 (i = 0..589), "small" 10;
// value {"i": i, "even": i % 2 == 0}. Returns the vectors by key, after
// waiting (up to a minute) for the graph to serve.
std::map<std::string, std::vector<float>> PutManyVectors(StoreHarness& h) {
  ApproxVectors source(42);
  std::map<std::string, std::vector<float>> vectors;
  std::vector<StoreOp> puts;
  for (int i = 0; i < 600; ++i) {
    const std::string key = "k" + std::to_string(i);
    vectors[key] = source.Next();
    puts.emplace_back(MakePut(
        {i < 590 ? "big" : "small"}, key, Obj({{"i", i}, {"even", i % 2 == 0}}),
        ItemTtl::StoreDefault(), {FieldVector{"f", vectors[key]}}));
  }
  REQUIRE(MustOk(h.store().Batch(puts)).size() == 600);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!MustStats(h.store()).approximate_ready) {
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                    "the HNSW graph did not serve within a minute");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return vectors;
}

// REQUIREs that `found` is best first and each item's score is the cosine
// of its own (single) vector to `query`.
void CheckScoredByOwnVector(
    const std::vector<StoreItem>& found, const std::vector<float>& query,
    const std::map<std::string, std::vector<float>>& vectors) {
  for (size_t i = 0; i < found.size(); ++i) {
    CAPTURE(found[i].key);
    REQUIRE(found[i].score.has_value());
    CHECK(*found[i].score ==
          doctest::Approx(ApproxCosine(vectors.at(found[i].key), query))
              .epsilon(1e-4));
    if (i > 0) CHECK(*found[i].score <= *found[i - 1].score + 1e-9);
  }
}

TEST_CASE("store approximate: IndexStats counts vectors, one per field") {
  const Backend backend = EachBackend();
  {
    StoreHarness plain(backend);
    CHECK_FALSE(MustOk(plain.store().IndexStats()).has_value());
  }
  StoreHarness h(backend, ApproxOptions());
  CHECK(MustStats(h.store()).vectors == 0);
  CHECK_FALSE(MustStats(h.store()).approximate_ready);
  PutItem(h.store(), {"a"}, "two", Obj(), ItemTtl::StoreDefault(),
          {FieldVector{"x", std::vector<float>(kApproxDims, 1)},
           FieldVector{"y", std::vector<float>(kApproxDims, 2)}});
  PutItem(h.store(), {"a"}, "none", Obj());
  CHECK(MustStats(h.store()).vectors == 2);
  PutItem(h.store(), {"a"}, "two", Obj(), ItemTtl::StoreDefault(),
          {FieldVector{"z", std::vector<float>(kApproxDims, 1)}});
  CHECK(MustStats(h.store()).vectors == 1);
  STORE_REQUIRE_OK(h.store().Delete({"a"}, "two"));
  CHECK(MustStats(h.store()).vectors == 0);
  STORE_REQUIRE_OK(h.store().Close());
  CHECK(h.store().IndexStats().status().IsAborted());
}

TEST_CASE(
    "store approximate: results keep to the prefix, the filter and "
    "the ranking") {
  StoreHarness h(EachBackend(), ApproxOptions());
  const auto vectors = PutManyVectors(h);
  CHECK(MustStats(h.store()).vectors == 600);
  ApproxVectors queries(7);
  for (int q = 0; q < 5; ++q) {
    const std::vector<float> query = queries.Next();
    SearchOp op = SearchUnder({"big"}, 10);
    op.query = query;
    std::vector<StoreItem> found = MustSearch(h.store(), op);
    CHECK(found.size() == 10);
    CheckScoredByOwnVector(found, query, vectors);
    for (const StoreItem& item : found) CHECK(item.ns == Namespace{"big"});

    op.filter = {{"even", true}};
    found = MustSearch(h.store(), op);
    CHECK(found.size() == 10);
    CheckScoredByOwnVector(found, query, vectors);
    for (const StoreItem& item : found) {
      CHECK(item.value.Find("even")->as_bool());
    }
  }
}

TEST_CASE("store approximate: a small prefix is still ranked exactly") {
  StoreHarness h(EachBackend(), ApproxOptions());
  const auto vectors = PutManyVectors(h);
  const std::vector<float> query = ApproxVectors(9).Next();
  // ("small") holds 10 vectors, under exact_search_max_vectors.
  std::vector<std::pair<double, std::string>> expected;
  for (int i = 590; i < 600; ++i) {
    const std::string key = "k" + std::to_string(i);
    expected.emplace_back(ApproxCosine(vectors.at(key), query), key);
  }
  std::sort(expected.rbegin(), expected.rend());
  SearchOp op = SearchUnder({"small"}, 4);
  op.query = query;
  const std::vector<StoreItem> found = MustSearch(h.store(), op);
  REQUIRE(found.size() == 4);
  for (size_t i = 0; i < found.size(); ++i) {
    CHECK(found[i].key == expected[i].second);
  }
}

TEST_CASE(
    "store approximate: expired, deleted and replaced vectors never "
    "answer") {
  StoreHarness h(EachBackend(), ApproxOptions());
  auto vectors = PutManyVectors(h);
  const std::vector<float> query = ApproxVectors(11).Next();
  SearchOp op = SearchUnder({"big"}, 10);
  op.query = query;
  const std::vector<StoreItem> before = MustSearch(h.store(), op);
  REQUIRE(before.size() == 10);

  // The first result expires, the second is deleted, the third gets a
  // vector opposite to the query in place of its own.
  PutItem(h.store(), {"big"}, before[0].key, before[0].value,
          ItemTtl::Minutes(1), {FieldVector{"f", vectors[before[0].key]}});
  STORE_REQUIRE_OK(h.store().Delete({"big"}, before[1].key));
  std::vector<float> opposite = query;
  for (float& x : opposite) x = -x;
  PutItem(h.store(), {"big"}, before[2].key, before[2].value,
          ItemTtl::StoreDefault(), {FieldVector{"g", opposite}});
  vectors[before[2].key] = opposite;
  h.clock().AdvanceMinutes(2);

  const std::vector<StoreItem> after = MustSearch(h.store(), op);
  CHECK(after.size() == 10);
  CheckScoredByOwnVector(after, query, vectors);
  for (const StoreItem& item : after) {
    CHECK(item.key != before[0].key);
    CHECK(item.key != before[1].key);
    CHECK(item.key != before[2].key);
  }
}

}  // namespace
}  // namespace rockpoint::store_testing
