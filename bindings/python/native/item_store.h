// ItemStore: one open rockpoint::Store (rockpoint/store.h), LangGraph's
// long-term memory, for RockpointStore (langgraph/store/rockpoint).
//
// Python builds the ops as plain tuples (embeddings already computed):
//   ("get", namespace, key, refresh_ttl)
//   ("put", namespace, key, value, vectors, ttl)
//        value: a dict, or None (delete); vectors: [(field, [float...])];
//        ttl: "default" (the store's default_ttl_minutes), None (never) or
//        minutes (a number > 0)
//   ("search", namespace_prefix, filter, query_vector, limit, offset,
//        refresh_ttl)   filter: dict or None; query_vector: [float] or None
//   ("list", conditions, max_depth, limit, offset)
//        conditions: [("prefix" | "suffix", path)]; max_depth: int or None
// A namespace is a tuple (or list) of str. batch() returns one result per
// op, in order:
//   get     None or (namespace, key, value, created_us, updated_us,
//                    expires_us or None)
//   put     None
//   search  [(namespace, key, value, created_us, updated_us, expires_us,
//             score or None)]
//   list    [namespace]
// Times are microseconds since the Unix epoch, UTC.
//
// Values: a dict with str keys. None, bool, int (int64), float, str, bytes,
// list/tuple (read back as list) and dicts with str keys are stored as the
// engine's values, so filters compare them; anything else (datetimes, ints
// beyond int64, dicts with other keys, ...) is kept exactly as a leaf that
// `serde` (dumps_typed/loads_typed) writes and reads. In a filter an int
// beyond int64 becomes a float, so it still compares as a number.
//
// Errors: a wrong Python type is TypeError; an engine refusal raises the
// class of errors.h (InvalidArgumentError, a ValueError, for bad input); a
// failed batch changes nothing.
//
// Thread-safety: any number of Python threads may call one ItemStore; the
// GIL is released around every engine call (open, batch, sweep, index_stats,
// close).
// close() waits for the calls in flight, then closes the store (stopping
// its sweeper and releasing the RocksDB lock); later calls raise
// ClosedError. close() is idempotent.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "native/convert.h"
#include "rockpoint/store.h"

namespace rockpoint::py {

namespace nb = nanobind;

struct ItemStoreOptions {
  std::string url;  // "rocksdb:PATH", a bare PATH, or "memory:"
  bool sync_writes = true;
  bool read_only = false;
  bool create_if_missing = true;
  std::optional<size_t> dims;
  // StoreIndexOptions' search settings (with dims only); nullopt: the
  // engine's default.
  std::optional<size_t> exact_search_max_vectors;
  std::optional<size_t> hnsw_links;
  std::optional<size_t> hnsw_build_candidates;
  std::optional<size_t> hnsw_search_candidates;
  std::optional<double> default_ttl_minutes;
  bool refresh_on_read = true;
  std::optional<double> sweep_interval_minutes;
  size_t sweep_batch_size = 1000;
};

class ItemStore {
 public:
  // The engine's error (InvalidArgumentError, BusyError, ...) when the
  // store cannot be opened.
  static std::shared_ptr<ItemStore> Open(const ItemStoreOptions& options);
  ~ItemStore();
  ItemStore(const ItemStore&) = delete;
  ItemStore& operator=(const ItemStore&) = delete;

  // Runs the ops (see the file comment) as one Store::Batch.
  nb::list Batch(nb::handle ops, nb::handle serde);
  // Store::SweepExpired: deletes every expired item; how many.
  uint64_t Sweep();
  // Store::IndexStats: None without an index, else {"vectors": int,
  // "approximate_ready": bool}.
  nb::object IndexStats();
  void Close();

  bool closed();
  std::optional<size_t> dims() const { return dims_; }
  const std::string& name() const { return name_; }

 private:
  ItemStore(std::unique_ptr<Store> store, std::string name,
            std::optional<size_t> dims);

  std::shared_mutex mu_;          // shared: an engine call; exclusive: Close.
  std::unique_ptr<Store> store_;  // GUARDED_BY(mu_); null: closed.
  const std::string name_;
  const std::optional<size_t> dims_;
};

// Registers the class ItemStore in the module.
void RegisterItemStore(nb::module_& m);

// ---- Conversions (item_store_convert.cc); every function needs the GIL ----

// The ops of ItemStore::Batch. TypeError or ValueError naming the op for a
// wrong shape.
std::vector<StoreOp> StoreOpsFromPy(nb::handle ops, const Serde& serde);
// One result per op (same order as the ops it answers).
nb::list StoreResultsToPy(const std::vector<StoreOpResult>& results,
                          const Serde& serde);

}  // namespace rockpoint::py
