// The write side of a store: the mutations of a batch's puts, of TTL
// refreshes and of a sweep, planned on a reader of the current state under
// the Store's write lock, then applied by one StoreBackend::Write.
//
// Every plan keeps the families consistent: an item record, its recency
// entry, its expiry entry (when it has an expiry), its vectors, and its
// namespace's count.
//
// Thread-safety: the caller holds the Store's write lock.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/store/store_backend.h"
#include "engine/store/store_layout.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

struct WriteContext {
  StoreReader& reader;
  int64_t now_us;
  const StoreOpenOptions& options;
};

// Collects mutations; namespace counts are settled by Finish.
class MutationPlan {
 public:
  explicit MutationPlan(StoreReader& reader) : reader_(reader) {}

  // Plans `put` (the last put of its key in the batch).
  Status AddPut(const WriteContext& context, const PutOp& put);
  // Plans storing `item` as it is (an import): times, expiry and vectors
  // included, replacing any item at its key.
  Status AddImport(const WriteContext& context, const StoredItem& item);
  // Restarts the TTL of the stored item at `address` if it still has one
  // and has not expired.
  Status AddRefresh(const WriteContext& context, const ItemAddress& address);
  struct SweepCount {
    uint64_t entries = 0;  // expiry entries read (at most the limit)
    uint64_t removed = 0;  // items deleted
  };
  // Deletes the items of up to `limit` expiry entries due at
  // context.now_us (and entries whose item is gone).
  Result<SweepCount> AddSweep(const WriteContext& context, size_t limit);

  // The mutations, with each touched namespace's new count.
  Result<std::vector<StoreMutation>> Finish();

 private:
  // Removes the stored item (record, recency and expiry entries, vectors);
  // its count drops unless `replaced`.
  Status RemoveStored(const Namespace& ns, std::string_view key,
                      const ItemRecord& record, bool replaced);
  // Stores `record` and `vectors` at (ns, key), replacing `old` (the item
  // stored there, if any). InvalidArgument when the record is over the
  // value limit.
  Status StoreItemRecord(const WriteContext& context, const Namespace& ns,
                         std::string_view key,
                         const std::optional<ItemRecord>& old,
                         const ItemRecord& record,
                         const std::vector<FieldVector>& vectors);
  void Put(StoreFamily family, std::string key, std::string value);
  void Delete(StoreFamily family, std::string key);

  StoreReader& reader_;
  std::vector<StoreMutation> mutations_;
  // Namespace key -> change of its item count.
  std::map<std::string, int64_t> count_changes_;
};

}  // namespace rockpoint::store_internal
