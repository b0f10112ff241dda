// Store under concurrent use: calls from many threads at once all take
// effect, and each batch is atomic to readers, whose reads see one
// consistent snapshot.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/store_harness.h"
#include "rockpoint/store.h"

namespace rockpoint::store_testing {
namespace {

TEST_CASE("store concurrency: puts from many threads all land") {
  StoreOpenOptions options;
  options.sync_writes = false;
  StoreHarness h(EachBackend(), options);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 25;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&h, &failures, t] {
      for (int i = 0; i < kPerThread; ++i) {
        PutOp op = MakePut({"w", std::to_string(t)}, std::to_string(i),
                           Obj({{"i", i}}));
        if (!h.store().Put(op).ok()) ++failures;
        SearchOp search = SearchUnder({"w"});
        if (!h.store().Search(search).ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failures == 0);
  CHECK(MustSearch(h.store(), SearchUnder({"w"}, 1000)).size() ==
        size_t{kThreads * kPerThread});
  CHECK(NsNames(MustList(h.store(), {})) == "w/0 w/1 w/2 w/3");
  CheckSound(h.store());
}

TEST_CASE("store concurrency: readers never see half a batch") {
  StoreOpenOptions options;
  options.sync_writes = false;
  StoreHarness h(EachBackend(), options);
  PutItem(h.store(), {"x"}, "a", Obj({{"n", 0}}));
  PutItem(h.store(), {"x"}, "b", Obj({{"n", 0}}));
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::atomic<int> failures{0};
  std::thread reader([&] {
    GetOp get_a;
    get_a.ns = {"x"};
    get_a.key = "a";
    GetOp get_b = get_a;
    get_b.key = "b";
    while (!done) {
      Result<std::vector<StoreOpResult>> results =
          h.store().Batch({get_a, get_b, SearchUnder({"x"})});
      if (!results.ok()) {
        ++failures;
        continue;
      }
      const auto& a = std::get<std::optional<StoreItem>>((*results)[0]);
      const auto& b = std::get<std::optional<StoreItem>>((*results)[1]);
      const auto& found = std::get<std::vector<StoreItem>>((*results)[2]);
      if (!a || !b || found.size() != 2 || !(a->value == b->value) ||
          !(found[0].value == found[1].value) ||
          !(found[0].value == a->value)) {
        ++torn;
      }
    }
  });
  for (int n = 1; n <= 200; ++n) {
    const Status status = h.store()
                              .Batch({MakePut({"x"}, "a", Obj({{"n", n}})),
                                      MakePut({"x"}, "b", Obj({{"n", n}}))})
                              .status();
    if (!status.ok()) ++failures;
  }
  done = true;
  reader.join();
  CHECK(failures == 0);
  CHECK(torn == 0);
  CHECK(MustGetItem(h.store(), {"x"}, "b").value == Obj({{"n", 200}}));
  CheckSound(h.store());
}

TEST_CASE("store concurrency: a query sees each item with its vectors") {
  // Every item is put with the vector (1, y) and the value {"y": y}; a
  // query running beside the puts and deletes must score every item it
  // returns, and score it by the vector it was put with: the item and its
  // vectors are one atomic write, and a read sees one snapshot.
  StoreOpenOptions options;
  options.sync_writes = false;
  options.index = StoreIndexOptions{2};
  StoreHarness h(EachBackend(), options);
  std::atomic<bool> done{false};
  std::atomic<int> reads{0};
  std::atomic<int> unscored{0};
  std::atomic<int> misscored{0};
  std::atomic<int> failures{0};
  std::thread reader([&] {
    SearchOp op = SearchUnder({"q"}, 1000);
    op.query = std::vector<float>{1, 0};
    while (!done) {
      Result<std::vector<StoreItem>> found = h.store().Search(op);
      if (!found.ok()) {
        ++failures;
        continue;
      }
      ++reads;
      for (const StoreItem& item : *found) {
        const Value* y = item.value.Find("y");
        if (!item.score) {
          ++unscored;
        } else if (y == nullptr ||
                   std::abs(*item.score -
                            1 / std::sqrt(1.0 + y->as_int() * y->as_int())) >
                       1e-4) {
          ++misscored;
        }
      }
    }
  });
  // Items come and go, so that the reader's few results are often new.
  for (int i = 0; i < 3000; ++i) {
    const std::string key = "k" + std::to_string(i % 3);
    const int y = i % 7;
    Status status = h.store().Put(
        MakePut({"q"}, key, Obj({{"y", y}}), ItemTtl::StoreDefault(),
                {FieldVector{"f", {1, static_cast<float>(y)}}}));
    if (!status.ok()) ++failures;
    if (i % 2 == 1) {
      status = h.store().Delete({"q"}, key);
      if (!status.ok()) ++failures;
    }
  }
  done = true;
  reader.join();
  INFO("searches: " << reads.load());
  CHECK(failures.load() == 0);
  CHECK(unscored.load() == 0);
  CHECK(misscored.load() == 0);
}

}  // namespace
}  // namespace rockpoint::store_testing
