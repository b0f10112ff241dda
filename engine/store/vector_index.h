// VectorIndex: an in-memory copy of a store's vectors, for similarity
// search. Loaded from the vectors family at open and kept up to date by the
// Store after each write; nothing of it is persisted, so it cannot disagree
// with the stored vectors after a crash.
//
//   - Exact: the best cosine similarity of each item whose vectors lie in a
//     key range (a namespace prefix), scoring every vector there.
//   - Approximate: once the index holds more than exact_search_max_vectors
//     vectors, an HNSW graph (hnswlib, inner product on unit vectors) is
//     built in a background thread from a copy of the vectors; changes made
//     meanwhile are replayed onto it before it serves. Until then, and when
//     it cannot answer, the caller uses the exact search.
//
// Thread-safety: any number of searches at once; Apply excludes them
// (a reader-writer lock). The builder thread is joined by Stop() and the
// destructor.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/store_backend.h"
#include "rockpoint/status.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

// An item (its item key, store_layout.h) and its best similarity.
struct ScoredItem {
  std::string item_key;
  double score = 0;
};

class VectorIndex {
 public:
  explicit VectorIndex(const StoreIndexOptions& options);
  ~VectorIndex();
  VectorIndex(const VectorIndex&) = delete;
  VectorIndex& operator=(const VectorIndex&) = delete;

  // Loads every vector of the store (before any search).
  Status Load(StoreReader& reader);
  // Applies the vector puts and deletes of a committed write.
  Status Apply(const std::vector<StoreMutation>& mutations);
  // Waits for the builder and drops the HNSW graph.
  void Stop();

  // The `k` items with a vector key in [begin, end) (end empty: no end)
  // whose best similarity to `query` is highest, best first.
  std::vector<ScoredItem> Exact(const std::vector<float>& query,
                                std::string_view begin, std::string_view end,
                                size_t k) const;
  // The items of the `k` vectors nearest to `query` (best similarity per
  // item, best first), or nullopt while no HNSW graph serves.
  std::optional<std::vector<ScoredItem>> Approximate(
      const std::vector<float>& query, size_t k) const;

  // Vectors held.
  size_t size() const;
  // Whether the HNSW graph serves Approximate.
  bool approximate_ready() const;
  // Vectors in [begin, end), counting at most `cap` + 1.
  size_t CountInRange(std::string_view begin, std::string_view end,
                      size_t cap) const;

 private:
  struct Graph;
  using Slot = uint32_t;

  Status PutLocked(const std::string& vector_key, std::string_view bytes);
  void RemoveLocked(const std::string& vector_key);
  void MaybeStartBuildLocked();
  void Build();
  const float* Row(Slot slot) const {
    return matrix_.data() + size_t{slot} * dims_;
  }

  const StoreIndexOptions options_;
  const size_t dims_;

  mutable std::shared_mutex mu_;
  // Vector key -> slot; a slot's row in matrix_ holds its unit vector.
  std::map<std::string, Slot, std::less<>> slots_;
  std::vector<std::string> slot_item_key_;
  std::vector<float> matrix_;
  std::vector<Slot> free_slots_;
  // The serving graph (null until built), and what changed while building.
  std::unique_ptr<Graph> graph_;
  bool building_ = false;
  // A build ran out of memory: exact search serves from then on.
  bool build_failed_ = false;
  std::vector<Slot> changed_while_building_;
  std::thread builder_;
  std::atomic<bool> stopping_{false};
};

}  // namespace rockpoint::store_internal
