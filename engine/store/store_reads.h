// The read ops of a store, on one consistent StoreReader: Get, Search and
// ListNamespaces. An item whose expiry is at or before `now_us` is never
// returned.
//
// Thread-safety: as the reader's (one thread per reader).
#pragma once

#include <optional>
#include <vector>

#include "engine/store/store_backend.h"
#include "engine/store/vector_index.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

struct ReadContext {
  StoreReader& reader;
  int64_t now_us;
  // Both null without an index (a query is then refused before reading).
  const VectorIndex* index = nullptr;
  const std::optional<StoreIndexOptions>& index_options;
};

Result<std::optional<StoreItem>> GetItem(const ReadContext& context,
                                         const GetOp& op);
// Without a query: newest updated first (ties in key order). With one: by
// best cosine similarity, items without vectors after (newest first); when
// the HNSW graph serves and at least offset + limit of the items of its
// nearest vectors pass the prefix and filter, those alone (docs/STORE.md).
Result<std::vector<StoreItem>> SearchItems(const ReadContext& context,
                                           const SearchOp& op);
Result<std::vector<Namespace>> ListNamespaces(const ReadContext& context,
                                              const ListNamespacesOp& op);

}  // namespace rockpoint::store_internal
