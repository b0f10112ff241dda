// Search without a query: items newest updated first, read in that order
// from the recent family (engine/store/FORMAT.md), so a page of a filtered
// search reads about as many items as it takes to fill it, not every item
// under the prefix.
//
// Thread-safety: as the reader's (one thread per reader).
#pragma once

#include <cstddef>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/store/store_layout.h"
#include "engine/store/store_reads.h"
#include "rockpoint/store.h"

namespace rockpoint::store_internal {

StoreItem ToStoreItem(ItemAddress address, ItemRecord record);

// Items [offset, offset + limit) by newest updated_at (ties in item key
// order) of those under the namespace keys [begin, end) (both empty: every
// namespace) that have not expired, pass op.filter and are not in `skip`
// (item keys). Each namespace's recency entries are read until it has
// offset + limit candidates; only the page's items are decoded whole.
// Corruption when a recency entry disagrees with its item.
Result<std::vector<StoreItem>> NewestFirst(
    const ReadContext& context, const SearchOp& op, std::string_view begin,
    std::string_view end, const std::unordered_set<std::string_view>& skip,
    size_t offset, size_t limit);

}  // namespace rockpoint::store_internal
