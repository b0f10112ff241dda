// The store's read ops (store_reads.h).
#include "engine/store/store_reads.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "engine/store/newest_first.h"
#include "engine/store/store_filter.h"
#include "engine/store/store_layout.h"

namespace rockpoint::store_internal {
namespace {

// Appends to *items the items of `ranked` (best first) that lie in
// [begin, end), exist in the reader's snapshot, have not expired and pass
// the filter, with their scores, until *items holds `wanted`.
Status CollectScored(const ReadContext& context, const SearchOp& op,
                     const std::vector<ScoredItem>& ranked,
                     std::string_view begin, std::string_view end,
                     size_t wanted, std::vector<StoreItem>* items) {
  for (const ScoredItem& scored : ranked) {
    if (items->size() >= wanted) break;
    const std::string& key = scored.item_key;
    if (key < begin || (!end.empty() && key >= end)) continue;
    RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                        context.reader.Read(StoreFamily::kItems, key));
    // An index entry newer than the snapshot names an item it lacks.
    if (!stored) continue;
    RP_ASSIGN_OR_RETURN(ItemRecord record, DecodeItemRecord(*stored, key));
    if (IsExpired(record, context.now_us) ||
        !MatchesFilter(record.value, op.filter)) {
      continue;
    }
    RP_ASSIGN_OR_RETURN(ItemAddress address, DecodeItemKey(key));
    StoreItem item = ToStoreItem(std::move(address), std::move(record));
    item.score = scored.score;
    items->push_back(std::move(item));
  }
  return Status::OK();
}

// The first `wanted` items by the HNSW graph's ranking, or nullopt when the
// graph does not serve or yields fewer (the caller then searches exactly).
// Asks the graph for 4x the items wanted, then 4x more, up to 16x.
Result<std::optional<std::vector<StoreItem>>> ApproximateSearch(
    const ReadContext& context, const SearchOp& op, std::string_view begin,
    std::string_view end, size_t wanted) {
  using Found = std::optional<std::vector<StoreItem>>;
  const size_t total = context.index->size();
  if (wanted > total) return Found();
  const size_t first = std::max<size_t>(wanted * 4, 64);
  for (size_t k = first; k <= 16 * first; k *= 4) {
    auto nearest = context.index->Approximate(*op.query, std::min(k, total));
    if (!nearest) return Found();
    std::vector<StoreItem> items;
    RP_RETURN_IF_ERROR(
        CollectScored(context, op, *nearest, begin, end, wanted, &items));
    if (items.size() == wanted) return Found(std::move(items));
    if (k >= total) break;
  }
  return Found();
}

// Whether the HNSW graph should answer: the index is large and so is the
// part of it under the prefix (the whole index for no prefix, which needs
// no count).
bool PreferApproximate(const ReadContext& context, std::string_view begin,
                       std::string_view end) {
  const size_t exact_max = context.index_options->exact_search_max_vectors;
  if (context.index->size() <= exact_max) return false;
  return begin.empty() ||
         context.index->CountInRange(begin, end, exact_max) > exact_max;
}

std::vector<StoreItem> Page(std::vector<StoreItem> items, size_t offset,
                            size_t limit) {
  if (offset >= items.size()) return {};
  const size_t end = offset + std::min(limit, items.size() - offset);
  std::vector<StoreItem> page;
  page.reserve(end - offset);
  for (size_t i = offset; i < end; ++i) page.push_back(std::move(items[i]));
  return page;
}

bool LabelsMatch(const Namespace& ns, const Namespace& path, bool from_end) {
  if (ns.size() < path.size()) return false;
  const size_t start = from_end ? ns.size() - path.size() : 0;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] != "*" && path[i] != ns[start + i]) return false;
  }
  return true;
}

bool ConditionsHold(const Namespace& ns,
                    const std::vector<NamespaceCondition>& conditions) {
  for (const NamespaceCondition& condition : conditions) {
    if (!LabelsMatch(ns, condition.path,
                     condition.match == NamespaceMatch::kSuffix)) {
      return false;
    }
  }
  return true;
}

// The literal leading labels of the first prefix condition: every listed
// namespace starts with them, so the scan starts there.
Namespace ScanPrefix(const std::vector<NamespaceCondition>& conditions) {
  for (const NamespaceCondition& condition : conditions) {
    if (condition.match != NamespaceMatch::kPrefix) continue;
    Namespace literal;
    for (const std::string& label : condition.path) {
      if (label == "*") break;
      literal.push_back(label);
    }
    return literal;
  }
  return {};
}

}  // namespace

Result<std::optional<StoreItem>> GetItem(const ReadContext& context,
                                         const GetOp& op) {
  const std::string key = ItemKey(op.ns, op.key);
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      context.reader.Read(StoreFamily::kItems, key));
  if (!stored) return std::optional<StoreItem>();
  RP_ASSIGN_OR_RETURN(ItemRecord record, DecodeItemRecord(*stored, key));
  if (IsExpired(record, context.now_us)) return std::optional<StoreItem>();
  return std::optional<StoreItem>(
      ToStoreItem(ItemAddress{op.ns, op.key}, std::move(record)));
}

// A search with a query: the items of the best vectors, verified one by
// one against the snapshot; then, if fewer than offset + limit, the items
// without vectors, newest first.
Result<std::vector<StoreItem>> QuerySearch(const ReadContext& context,
                                           const SearchOp& op,
                                           std::string_view begin,
                                           std::string_view end) {
  if (op.limit == 0) return std::vector<StoreItem>();
  const size_t wanted =
      op.limit > SIZE_MAX - op.offset ? SIZE_MAX : op.offset + op.limit;
  if (PreferApproximate(context, begin, end)) {
    RP_ASSIGN_OR_RETURN(auto found,
                        ApproximateSearch(context, op, begin, end, wanted));
    if (found) return Page(std::move(*found), op.offset, op.limit);
  }
  // The best 4x wanted first; all of them only if too few of those pass.
  const size_t first =
      wanted > SIZE_MAX / 4 ? SIZE_MAX : std::max<size_t>(wanted * 4, 64);
  std::vector<ScoredItem> ranked =
      context.index->Exact(*op.query, begin, end, first);
  std::vector<StoreItem> items;
  RP_RETURN_IF_ERROR(
      CollectScored(context, op, ranked, begin, end, wanted, &items));
  if (items.size() < wanted && ranked.size() == first) {
    ranked = context.index->Exact(*op.query, begin, end, SIZE_MAX);
    items.clear();
    RP_RETURN_IF_ERROR(
        CollectScored(context, op, ranked, begin, end, wanted, &items));
  }
  if (items.size() < wanted) {
    std::unordered_set<std::string_view> scored;
    for (const ScoredItem& item : ranked) scored.insert(item.item_key);
    RP_ASSIGN_OR_RETURN(
        std::vector<StoreItem> unscored,
        NewestFirst(context, op, begin, end, scored, 0, wanted - items.size()));
    for (StoreItem& item : unscored) items.push_back(std::move(item));
  }
  return Page(std::move(items), op.offset, op.limit);
}

Result<std::vector<StoreItem>> SearchItems(const ReadContext& context,
                                           const SearchOp& op) {
  const std::string begin =
      op.ns_prefix.empty() ? std::string() : NamespaceKey(op.ns_prefix);
  const std::string end =
      op.ns_prefix.empty() ? std::string() : RangeEnd(begin);
  if (op.query) return QuerySearch(context, op, begin, end);
  return NewestFirst(context, op, begin, end, {}, op.offset, op.limit);
}

Result<std::vector<Namespace>> ListNamespaces(const ReadContext& context,
                                              const ListNamespacesOp& op) {
  const Namespace literal = ScanPrefix(op.conditions);
  const std::string begin =
      literal.empty() ? std::string() : NamespaceKey(literal);
  const std::string end = literal.empty() ? std::string() : RangeEnd(begin);
  std::vector<Namespace> listed;
  if (op.limit == 0) return listed;
  // Scan order is tuple order, so a cut namespace repeats only right after
  // itself: comparing with the previous one deduplicates.
  std::optional<Namespace> previous;
  size_t distinct = 0;
  Status failed;
  RP_RETURN_IF_ERROR(
      context.reader.Scan(StoreFamily::kNamespaces, begin, end,
                          [&](std::string_view key, std::string_view) {
                            auto ns = DecodeNamespaceKey(key);
                            if (!ns.ok()) {
                              failed = ns.status();
                              return false;
                            }
                            if (!ConditionsHold(*ns, op.conditions))
                              return true;
                            if (op.max_depth && ns->size() > *op.max_depth)
                              ns->resize(*op.max_depth);
                            if (previous && *previous == *ns) return true;
                            previous = *ns;
                            if (distinct++ < op.offset) return true;
                            listed.push_back(std::move(*ns));
                            return listed.size() < op.limit;
                          }));
  RP_RETURN_IF_ERROR(failed);
  return listed;
}

}  // namespace rockpoint::store_internal
