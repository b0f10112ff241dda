// The read ops of a store, on one consistent StoreReader: Get, Search and
// ListNamespaces. An item whose expiry is at or before `now_us` is never
// returned.
//
// Thread-safety: as the reader's (one thread per reader).
#pragma once

#include <optional>
#include <vector>

#include "engine/store/store_backend.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

struct ReadContext {
  StoreReader& reader;
  int64_t now_us;
};

Result<std::optional<StoreItem>> GetItem(const ReadContext& context,
                                         const GetOp& op);
// Without a query: newest updated first (ties in key order). With one: by
// best cosine similarity, items without vectors after (newest first).
Result<std::vector<StoreItem>> SearchItems(const ReadContext& context,
                                           const SearchOp& op);
Result<std::vector<Namespace>> ListNamespaces(const ReadContext& context,
                                              const ListNamespacesOp& op);

// The cosine similarity of two vectors of one length; 0 when either is all
// zeros.
double CosineSimilarity(const std::vector<float>& a,
                        const std::vector<float>& b);

}  // namespace rockpoint::store_internal
