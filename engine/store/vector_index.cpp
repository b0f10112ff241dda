// VectorIndex (vector_index.h): exact search over a sorted map of unit
// vectors, and an HNSW graph built in the background.
#include "engine/store/vector_index.h"

// hnswlib's SSE code prefetches one link past the end of a node's list (a
// heap read past its allocation); without it hnswlib is plain C++, and the
// distance is UnitDotSpace's below.
#define NO_MANUAL_VECTORIZATION
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "engine/store/store_layout.h"
#include "keys/tuple.h"

namespace rockpoint::store_internal {
namespace {

constexpr size_t kMinCapacity = 1024;
constexpr size_t kRandomSeed = 100;

// `in` scaled to unit length into `out` (all zeros stays zeros).
void Normalize(const float* in, size_t dims, float* out) {
  double norm = 0;
  for (size_t i = 0; i < dims; ++i) norm += static_cast<double>(in[i]) * in[i];
  const double scale = norm > 0 ? 1.0 / std::sqrt(norm) : 0.0;
  for (size_t i = 0; i < dims; ++i) {
    out[i] = static_cast<float>(in[i] * scale);
  }
}

float Dot(const float* a, const float* b, size_t dims) {
  // Independent partial sums let the loop pipeline (and vectorize).
  float sum[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= dims; i += 8) {
    for (size_t j = 0; j < 8; ++j) sum[j] += a[i + j] * b[i + j];
  }
  float total = 0;
  for (; i < dims; ++i) total += a[i] * b[i];
  for (float s : sum) total += s;
  return total;
}

// hnswlib's distance between unit vectors: 1 - their dot product (what
// hnswlib's InnerProductSpace computes, with the partial sums of Dot).
class UnitDotSpace final : public hnswlib::SpaceInterface<float> {
 public:
  explicit UnitDotSpace(size_t dims) : dims_(dims) {}
  size_t get_data_size() override { return dims_ * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &Distance; }
  void* get_dist_func_param() override { return &dims_; }

 private:
  static float Distance(const void* a, const void* b, const void* dims) {
    return 1.0f - Dot(static_cast<const float*>(a),
                      static_cast<const float*>(b),
                      *static_cast<const size_t*>(dims));
  }
  size_t dims_;
};

// Best score per item, best first (ties by item key).
std::vector<ScoredItem> BestPerItem(
    std::unordered_map<std::string, double>& best) {
  std::vector<ScoredItem> out;
  out.reserve(best.size());
  for (auto& [key, score] : best) out.push_back({key, score});
  std::sort(
      out.begin(), out.end(), [](const ScoredItem& a, const ScoredItem& b) {
        return a.score != b.score ? a.score > b.score : a.item_key < b.item_key;
      });
  return out;
}

}  // namespace

struct VectorIndex::Graph {
  Graph(size_t dims, size_t capacity, const StoreIndexOptions& options)
      : space(dims),
        hnsw(&space, capacity, options.hnsw_links,
             options.hnsw_build_candidates, kRandomSeed),
        capacity(capacity) {
    hnsw.setEf(options.hnsw_search_candidates);
  }

  // Adds or updates `slot`'s point.
  void Put(Slot slot, const float* row) {
    if (slot >= capacity) {
      capacity = std::max<size_t>(capacity * 2, size_t{slot} + 1);
      hnsw.resizeIndex(capacity);
    }
    hnsw.addPoint(row, slot);
    if (present.size() <= slot) present.resize(size_t{slot} + 1, false);
    present[slot] = true;
  }

  void Remove(Slot slot) {
    if (slot < present.size() && present[slot]) {
      hnsw.markDelete(slot);
      present[slot] = false;
    }
  }

  UnitDotSpace space;
  hnswlib::HierarchicalNSW<float> hnsw;
  size_t capacity;
  std::vector<bool> present;
};

VectorIndex::VectorIndex(const StoreIndexOptions& options)
    : options_(options), dims_(options.dims) {}

VectorIndex::~VectorIndex() { Stop(); }

void VectorIndex::Stop() {
  stopping_ = true;
  if (builder_.joinable()) builder_.join();
  std::unique_lock lock(mu_);
  graph_.reset();
}

Status VectorIndex::Load(StoreReader& reader) {
  std::unique_lock lock(mu_);
  Status failed;
  RP_RETURN_IF_ERROR(
      reader.Scan(StoreFamily::kVectors, "", "",
                  [&](std::string_view key, std::string_view value) {
                    failed = PutLocked(std::string(key), value);
                    return failed.ok();
                  }));
  RP_RETURN_IF_ERROR(failed);
  MaybeStartBuildLocked();
  return Status::OK();
}

Status VectorIndex::Apply(const std::vector<StoreMutation>& mutations) {
  std::unique_lock lock(mu_);
  for (const StoreMutation& mutation : mutations) {
    if (mutation.family != StoreFamily::kVectors) continue;
    if (mutation.value) {
      RP_RETURN_IF_ERROR(PutLocked(mutation.key, *mutation.value));
    } else {
      RemoveLocked(mutation.key);
    }
  }
  MaybeStartBuildLocked();
  return Status::OK();
}

Status VectorIndex::PutLocked(const std::string& vector_key,
                              std::string_view bytes) {
  RP_ASSIGN_OR_RETURN(std::vector<float> vector,
                      DecodeVector(bytes, vector_key));
  if (vector.size() != dims_) {
    return Status::Corruption(
        "store: vector of " + std::to_string(vector.size()) +
        " floats, the index has " + std::to_string(dims_) + ": " +
        keys::Describe(vector_key));
  }
  std::string field;
  RP_ASSIGN_OR_RETURN(ItemAddress address, DecodeItemKey(vector_key, &field));
  Slot slot;
  auto found = slots_.find(vector_key);
  if (found != slots_.end()) {
    slot = found->second;
  } else if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
    slots_.emplace(vector_key, slot);
  } else {
    slot = static_cast<Slot>(slot_item_key_.size());
    slot_item_key_.emplace_back();
    matrix_.resize(matrix_.size() + dims_);
    slots_.emplace(vector_key, slot);
  }
  slot_item_key_[slot] = ItemKey(address.ns, address.key);
  Normalize(vector.data(), dims_, matrix_.data() + size_t{slot} * dims_);
  if (building_) changed_while_building_.push_back(slot);
  if (graph_) graph_->Put(slot, Row(slot));
  return Status::OK();
}

void VectorIndex::RemoveLocked(const std::string& vector_key) {
  auto found = slots_.find(vector_key);
  if (found == slots_.end()) return;
  const Slot slot = found->second;
  slots_.erase(found);
  slot_item_key_[slot].clear();
  free_slots_.push_back(slot);
  if (building_) changed_while_building_.push_back(slot);
  if (graph_) graph_->Remove(slot);
}

void VectorIndex::MaybeStartBuildLocked() {
  if (graph_ || building_ || build_failed_ || stopping_ ||
      slots_.size() <= options_.exact_search_max_vectors) {
    return;
  }
  building_ = true;
  changed_while_building_.clear();
  if (builder_.joinable()) builder_.join();
  builder_ = std::thread([this] { Build(); });
}

void VectorIndex::Build() {
  // A copy of the live rows, taken under the shared lock.
  std::vector<std::pair<Slot, std::vector<float>>> rows;
  {
    std::shared_lock lock(mu_);
    rows.reserve(slots_.size());
    for (const auto& [unused, slot] : slots_) {
      rows.emplace_back(slot, std::vector<float>(Row(slot), Row(slot) + dims_));
    }
  }
  std::unique_ptr<Graph> graph;
  try {
    graph = std::make_unique<Graph>(
        dims_, std::max(kMinCapacity, rows.size() * 2), options_);
    for (const auto& [slot, row] : rows) {
      if (stopping_) break;
      graph->Put(slot, row.data());
    }
  } catch (const std::exception&) {
    graph.reset();  // out of memory: exact search goes on serving.
  }
  std::unique_lock lock(mu_);
  building_ = false;
  if (stopping_) return;
  if (!graph) {
    build_failed_ = true;
    return;
  }
  try {
    // Replays what changed meanwhile: each slot as it is now.
    for (Slot slot : changed_while_building_) {
      if (slot_item_key_[slot].empty()) {
        graph->Remove(slot);
      } else {
        graph->Put(slot, Row(slot));
      }
    }
  } catch (const std::exception&) {
    build_failed_ = true;
    return;
  }
  changed_while_building_.clear();
  graph_ = std::move(graph);
}

std::vector<ScoredItem> VectorIndex::Exact(const std::vector<float>& query,
                                           std::string_view begin,
                                           std::string_view end,
                                           size_t k) const {
  std::vector<float> unit(dims_);
  Normalize(query.data(), dims_, unit.data());
  // An item's vector keys are adjacent (each is its item key and a field),
  // so its best score is the best of a run.
  std::vector<std::pair<float, const std::string*>> best;
  std::shared_lock lock(mu_);
  for (auto it = slots_.lower_bound(begin); it != slots_.end(); ++it) {
    if (!end.empty() && it->first >= end) break;
    const float score = Dot(unit.data(), Row(it->second), dims_);
    const std::string* item = &slot_item_key_[it->second];
    if (!best.empty() && *best.back().second == *item) {
      best.back().first = std::max(best.back().first, score);
    } else {
      best.emplace_back(score, item);
    }
  }
  const size_t n = std::min(k, best.size());
  std::partial_sort(best.begin(), best.begin() + n, best.end(),
                    [](const auto& a, const auto& b) {
                      return a.first != b.first ? a.first > b.first
                                                : *a.second < *b.second;
                    });
  std::vector<ScoredItem> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i)
    out.push_back({*best[i].second, best[i].first});
  return out;
}

std::optional<std::vector<ScoredItem>> VectorIndex::Approximate(
    const std::vector<float>& query, size_t k) const {
  std::vector<float> unit(dims_);
  Normalize(query.data(), dims_, unit.data());
  std::unordered_map<std::string, double> best;
  std::shared_lock lock(mu_);
  if (!graph_) return std::nullopt;
  try {
    auto found = graph_->hnsw.searchKnn(unit.data(), k);
    for (; !found.empty(); found.pop()) {
      best.emplace(slot_item_key_[found.top().second], 0.0);
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  // The graph finds items; each item's score is the best of all its
  // vectors, scored exactly (the graph may have met only one of them).
  for (auto& [item_key, score] : best) {
    const std::string end = RangeEnd(item_key);
    double item_best = -2;  // below any cosine similarity.
    for (auto it = slots_.lower_bound(item_key);
         it != slots_.end() && it->first < end; ++it) {
      item_best =
          std::max<double>(item_best, Dot(unit.data(), Row(it->second), dims_));
    }
    score = item_best;
  }
  return BestPerItem(best);
}

bool VectorIndex::approximate_ready() const {
  std::shared_lock lock(mu_);
  return graph_ != nullptr;
}

size_t VectorIndex::size() const {
  std::shared_lock lock(mu_);
  return slots_.size();
}

size_t VectorIndex::CountInRange(std::string_view begin, std::string_view end,
                                 size_t cap) const {
  std::shared_lock lock(mu_);
  size_t count = 0;
  for (auto it = slots_.lower_bound(begin); it != slots_.end(); ++it) {
    if ((!end.empty() && it->first >= end) || count > cap) break;
    ++count;
  }
  return count;
}

}  // namespace rockpoint::store_internal
