// Newest-first search over the recent family (newest_first.h).
#include "engine/store/newest_first.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "engine/store/store_filter.h"
#include "keys/tuple.h"

namespace rockpoint::store_internal {
namespace {

struct Candidate {
  int64_t updated_at_us;
  std::string item_key;
};

bool NewerFirst(const Candidate& a, const Candidate& b) {
  return a.updated_at_us != b.updated_at_us ? a.updated_at_us > b.updated_at_us
                                            : a.item_key < b.item_key;
}

// Whether the item of `entry` is a candidate: present with the entry's
// update time (else Corruption), not expired, passing the filter.
Result<bool> Qualifies(const ReadContext& context, const SearchOp& op,
                       const RecentEntry& entry, std::string_view recent_key) {
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      context.reader.Read(StoreFamily::kItems, entry.item_key));
  if (!stored) {
    return Status::Corruption("store: recency entry of a missing item at " +
                              keys::Describe(recent_key));
  }
  RP_ASSIGN_OR_RETURN(ItemRecordView view,
                      ViewItemRecord(*stored, entry.item_key));
  if (view.updated_at_us != entry.updated_at_us) {
    return Status::Corruption(
        "store: recency entry disagrees with its item's update time at " +
        keys::Describe(recent_key));
  }
  if (IsExpired(view, context.now_us)) return false;
  if (op.filter.empty()) return true;
  auto matches = MatchesFilterEncoded(view.value, op.filter);
  if (!matches.ok()) {
    return Status::Corruption(matches.status().message() + " at " +
                              keys::Describe(entry.item_key));
  }
  return *matches;
}

// Appends to *candidates the newest `wanted` candidates of the namespace
// whose key is `ns_key`.
Status CollectNewest(const ReadContext& context, const SearchOp& op,
                     std::string_view ns_key,
                     const std::unordered_set<std::string_view>& skip,
                     size_t wanted, std::vector<Candidate>* candidates) {
  const std::string prefix = RecentPrefix(ns_key);
  size_t taken = 0;
  Status failed;
  RP_RETURN_IF_ERROR(context.reader.Scan(
      StoreFamily::kRecent, prefix, RangeEnd(prefix),
      [&](std::string_view recent_key, std::string_view) {
        auto entry = DecodeRecentKey(recent_key, prefix);
        if (!entry.ok()) {
          failed = entry.status();
          return false;
        }
        if (!skip.empty() && skip.count(entry->item_key) != 0) return true;
        auto qualifies = Qualifies(context, op, *entry, recent_key);
        if (!qualifies.ok()) {
          failed = qualifies.status();
          return false;
        }
        if (!*qualifies) return true;
        candidates->push_back(
            {entry->updated_at_us, std::move(entry->item_key)});
        return ++taken < wanted;
      }));
  return failed;
}

}  // namespace

StoreItem ToStoreItem(ItemAddress address, ItemRecord record) {
  StoreItem item;
  item.ns = std::move(address.ns);
  item.key = std::move(address.key);
  item.value = std::move(record.value);
  item.created_at_us = record.created_at_us;
  item.updated_at_us = record.updated_at_us;
  item.expires_at_us = record.expires_at_us;
  return item;
}

Result<std::vector<StoreItem>> NewestFirst(
    const ReadContext& context, const SearchOp& op, std::string_view begin,
    std::string_view end, const std::unordered_set<std::string_view>& skip,
    size_t offset, size_t limit) {
  if (limit == 0) return std::vector<StoreItem>();
  const size_t wanted = limit > SIZE_MAX - offset ? SIZE_MAX : offset + limit;
  std::vector<std::string> namespaces;
  RP_RETURN_IF_ERROR(
      context.reader.Scan(StoreFamily::kNamespaces, begin, end,
                          [&](std::string_view ns_key, std::string_view) {
                            namespaces.emplace_back(ns_key);
                            return true;
                          }));
  std::vector<Candidate> candidates;
  for (const std::string& ns_key : namespaces) {
    RP_RETURN_IF_ERROR(
        CollectNewest(context, op, ns_key, skip, wanted, &candidates));
  }
  if (offset >= candidates.size()) return std::vector<StoreItem>();
  const size_t stop = offset + std::min(limit, candidates.size() - offset);
  std::partial_sort(candidates.begin(), candidates.begin() + stop,
                    candidates.end(), NewerFirst);
  std::vector<StoreItem> page;
  page.reserve(stop - offset);
  for (size_t i = offset; i < stop; ++i) {
    const std::string& key = candidates[i].item_key;
    RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                        context.reader.Read(StoreFamily::kItems, key));
    if (!stored)
      return Status::Corruption("store: item vanished from a snapshot");
    RP_ASSIGN_OR_RETURN(ItemRecord record, DecodeItemRecord(*stored, key));
    RP_ASSIGN_OR_RETURN(ItemAddress address, DecodeItemKey(key));
    page.push_back(ToStoreItem(std::move(address), std::move(record)));
  }
  return page;
}

}  // namespace rockpoint::store_internal
