// The approximate (HNSW) path of vector search: recall against exact
// search, updates and deletes once the graph serves, prefixes and filters
// (with the exact fallback), and the rebuild after a reopen.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <set>
#include <thread>

#include "rockpoint/store.h"
#include "temp_dir.h"

namespace rockpoint {
namespace {

constexpr size_t kDims = 64;
constexpr size_t kLatent = 8;

// Points of low intrinsic dimension (a random linear map of 8-dim Gaussian
// points plus noise), as text embeddings are; fixed by the seed.
class PointSource {
 public:
  explicit PointSource(uint32_t seed) : rng_(seed), map_(kDims * kLatent) {
    for (float& x : map_) x = normal_(rng_);
  }
  std::vector<float> Next() {
    float z[kLatent];
    for (float& x : z) x = normal_(rng_);
    std::vector<float> v(kDims);
    for (size_t i = 0; i < kDims; ++i) {
      for (size_t j = 0; j < kLatent; ++j) v[i] += map_[i * kLatent + j] * z[j];
      v[i] += 0.3f * normal_(rng_);
    }
    return v;
  }

 private:
  std::mt19937 rng_;
  std::normal_distribution<float> normal_;
  std::vector<float> map_;
};

double Cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double{a[i]} * b[i];
    na += double{a[i]} * a[i];
    nb += double{b[i]} * b[i];
  }
  return dot / std::sqrt(na * nb);
}

StoreOpenOptions IndexedOptions(size_t exact_max) {
  StoreOpenOptions options;
  options.sync_writes = false;
  options.index = StoreIndexOptions{};
  options.index->dims = kDims;
  options.index->exact_search_max_vectors = exact_max;
  return options;
}

PutOp ItemPut(const Namespace& ns, size_t i, std::vector<float> vector) {
  PutOp put;
  put.ns = ns;
  put.key = "item-" + std::to_string(i);
  put.value = serde::Value(
      serde::Value::Map{{"i", static_cast<int64_t>(i)}, {"even", i % 2 == 0}});
  put.vectors = {{"text", std::move(vector)}};
  return put;
}

// Waits (up to a minute) until the HNSW graph serves.
void WaitForGraph(Store& store) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    auto stats = store.IndexStats();
    REQUIRE(stats.ok());
    REQUIRE(stats->has_value());
    if ((*stats)->approximate_ready) return;
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                    "the HNSW graph was not built within a minute");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::vector<std::string> Keys(const std::vector<StoreItem>& items) {
  std::vector<std::string> keys;
  for (const StoreItem& item : items) keys.push_back(item.key);
  return keys;
}

struct Loaded {
  std::unique_ptr<Store> store;
  std::vector<std::vector<float>> vectors;
};

Loaded Load(const std::string& url, size_t n, size_t exact_max) {
  auto opened = OpenStore(url, IndexedOptions(exact_max));
  REQUIRE(opened.ok());
  Loaded loaded{std::move(*opened), {}};
  PointSource source(7);
  std::vector<StoreOp> ops;
  for (size_t i = 0; i < n; ++i) {
    loaded.vectors.push_back(source.Next());
    ops.push_back(
        ItemPut({"docs", i % 4 == 0 ? "a" : "b"}, i, loaded.vectors.back()));
  }
  REQUIRE(loaded.store->Batch(ops).ok());
  WaitForGraph(*loaded.store);
  return loaded;
}

TEST_CASE("approximate search finds 95% of the exact top-10") {
  testing::TempDir dir("hnsw");
  const size_t n = 3000;
  Loaded loaded = Load("rocksdb:" + dir.path() + "/store", n, 500);
  PointSource queries(99);
  double recall = 0;
  const int kQueries = 40;
  for (int q = 0; q < kQueries; ++q) {
    std::vector<float> query = queries.Next();
    std::vector<std::pair<double, size_t>> exact;
    for (size_t i = 0; i < n; ++i) {
      exact.emplace_back(-Cosine(query, loaded.vectors[i]), i);
    }
    std::partial_sort(exact.begin(), exact.begin() + 10, exact.end());
    std::set<std::string> truth;
    for (int k = 0; k < 10; ++k) {
      truth.insert("item-" + std::to_string(exact[k].second));
    }
    SearchOp search;
    search.query = query;
    auto found = loaded.store->Search(search);
    REQUIRE(found.ok());
    REQUIRE(found->size() == 10);
    for (size_t k = 1; k < found->size(); ++k) {
      CHECK((*found)[k - 1].score >= (*found)[k].score);
    }
    for (const StoreItem& item : *found) recall += truth.count(item.key);
  }
  recall /= 10.0 * kQueries;
  MESSAGE("recall@10 = " << recall);
  CHECK(recall >= 0.95);
}

TEST_CASE("the graph follows puts and deletes once it serves") {
  Loaded loaded = Load("memory:", 2000, 200);
  Store& store = *loaded.store;
  // A new vector for item-5: a query equal to it finds item-5 first.
  std::vector<float> moved = PointSource(1234).Next();
  REQUIRE(store.Put(ItemPut({"docs", "b"}, 5, moved)).ok());
  SearchOp search;
  search.query = moved;
  search.limit = 3;
  auto found = store.Search(search);
  REQUIRE(found.ok());
  REQUIRE(!found->empty());
  CHECK((*found)[0].key == "item-5");
  CHECK((*found)[0].score.value() == doctest::Approx(1.0).epsilon(1e-4));
  // Deleted, it is never returned.
  REQUIRE(store.Delete({"docs", "b"}, "item-5").ok());
  found = store.Search(search);
  REQUIRE(found.ok());
  for (const StoreItem& item : *found) CHECK(item.key != "item-5");
}

TEST_CASE("approximate search keeps to the prefix and the filter") {
  Loaded loaded = Load("memory:", 2000, 200);
  Store& store = *loaded.store;
  SearchOp search;
  search.query = PointSource(5).Next();
  search.ns_prefix = {"docs", "a"};  // every 4th item
  search.filter = {{"even", true}};
  search.limit = 20;
  auto found = store.Search(search);
  REQUIRE(found.ok());
  CHECK(found->size() == 20);
  for (const StoreItem& item : *found) {
    CHECK(item.ns == Namespace{"docs", "a"});
    CHECK(item.value.as_map().at("even") == serde::Value(true));
  }
  // A filter only one item passes: the exact fallback finds it.
  search.ns_prefix = {};
  search.filter = {{"i", 1999}};
  found = store.Search(search);
  REQUIRE(found.ok());
  CHECK(Keys(*found) == std::vector<std::string>{"item-1999"});
}

TEST_CASE("a reopened store rebuilds the graph from its stored vectors") {
  testing::TempDir dir("hnsw-reopen");
  const std::string url = "rocksdb:" + dir.path() + "/store";
  std::vector<float> probe;
  {
    Loaded loaded = Load(url, 1500, 300);
    probe = loaded.vectors[42];
    REQUIRE(loaded.store->Close().ok());
  }
  auto reopened = OpenStore(url, IndexedOptions(300));
  REQUIRE(reopened.ok());
  WaitForGraph(**reopened);
  auto stats = (*reopened)->IndexStats();
  REQUIRE(stats.ok());
  CHECK((*stats)->vectors == 1500);
  SearchOp search;
  search.query = probe;
  search.limit = 1;
  auto found = (*reopened)->Search(search);
  REQUIRE(found.ok());
  CHECK(Keys(*found) == std::vector<std::string>{"item-42"});
}

}  // namespace
}  // namespace rockpoint
