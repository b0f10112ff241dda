// The store's read ops (store_reads.h).
#include "engine/store/store_reads.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "engine/store/store_filter.h"
#include "engine/store/store_layout.h"
#include "keys/tuple.h"

namespace rockpoint::store_internal {
namespace {

StoreItem ToItem(ItemAddress address, ItemRecord record) {
  StoreItem item;
  item.ns = std::move(address.ns);
  item.key = std::move(address.key);
  item.value = std::move(record.value);
  item.created_at_us = record.created_at_us;
  item.updated_at_us = record.updated_at_us;
  item.expires_at_us = record.expires_at_us;
  return item;
}

// The best similarity to `query` of each item's vectors under `prefix`,
// keyed by item key.
Result<std::unordered_map<std::string, double>> ScoreVectors(
    const ReadContext& context, const std::string& begin,
    const std::string& end, const std::vector<float>& query) {
  std::unordered_map<std::string, double> best;
  Status failed;
  RP_RETURN_IF_ERROR(context.reader.Scan(
      StoreFamily::kVectors, begin, end,
      [&](std::string_view key, std::string_view value) {
        auto vector = DecodeVector(value, keys::Describe(key));
        if (!vector.ok() || vector->size() != query.size()) {
          failed =
              vector.ok()
                  ? Status::Corruption("store: vector of the wrong length in " +
                                       keys::Describe(key))
                  : vector.status();
          return false;
        }
        std::string field;
        auto address = DecodeItemKey(key, &field);
        if (!address.ok()) {
          failed = address.status();
          return false;
        }
        const double score = CosineSimilarity(query, *vector);
        // The item key is the vector key less its field element.
        std::string item_key = ItemKey(address->ns, address->key);
        auto [it, inserted] = best.emplace(std::move(item_key), score);
        if (!inserted) it->second = std::max(it->second, score);
        return true;
      }));
  RP_RETURN_IF_ERROR(failed);
  return best;
}

void OrderByUpdated(std::vector<StoreItem>& items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const StoreItem& a, const StoreItem& b) {
                     return a.updated_at_us > b.updated_at_us;
                   });
}

void OrderByScore(std::vector<StoreItem>& items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const StoreItem& a, const StoreItem& b) {
                     if (a.score.has_value() != b.score.has_value()) {
                       return a.score.has_value();
                     }
                     if (a.score && *a.score != *b.score) {
                       return *a.score > *b.score;
                     }
                     return a.updated_at_us > b.updated_at_us;
                   });
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

double CosineSimilarity(const std::vector<float>& a,
                        const std::vector<float>& b) {
  double dot = 0, norm_a = 0, norm_b = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    norm_a += static_cast<double>(a[i]) * a[i];
    norm_b += static_cast<double>(b[i]) * b[i];
  }
  if (norm_a == 0 || norm_b == 0) return 0;
  return dot / (std::sqrt(norm_a) * std::sqrt(norm_b));
}

Result<std::optional<StoreItem>> GetItem(const ReadContext& context,
                                         const GetOp& op) {
  const std::string key = ItemKey(op.ns, op.key);
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      context.reader.Read(StoreFamily::kItems, key));
  if (!stored) return std::optional<StoreItem>();
  RP_ASSIGN_OR_RETURN(ItemRecord record,
                      DecodeItemRecord(*stored, keys::Describe(key)));
  if (IsExpired(record, context.now_us)) return std::optional<StoreItem>();
  return std::optional<StoreItem>(
      ToItem(ItemAddress{op.ns, op.key}, std::move(record)));
}

Result<std::vector<StoreItem>> SearchItems(const ReadContext& context,
                                           const SearchOp& op) {
  const std::string begin =
      op.ns_prefix.empty() ? std::string() : NamespaceKey(op.ns_prefix);
  const std::string end =
      op.ns_prefix.empty() ? std::string() : RangeEnd(begin);
  std::unordered_map<std::string, double> scores;
  if (op.query) {
    RP_ASSIGN_OR_RETURN(scores, ScoreVectors(context, begin, end, *op.query));
  }
  std::vector<StoreItem> items;
  Status failed;
  RP_RETURN_IF_ERROR(context.reader.Scan(
      StoreFamily::kItems, begin, end,
      [&](std::string_view key, std::string_view value) {
        auto record = DecodeItemRecord(value, keys::Describe(key));
        auto address = record.ok() ? DecodeItemKey(key)
                                   : Result<ItemAddress>(record.status());
        if (!address.ok()) {
          failed = address.status();
          return false;
        }
        if (IsExpired(*record, context.now_us) ||
            !MatchesFilter(record->value, op.filter)) {
          return true;
        }
        StoreItem item =
            ToItem(std::move(address).value(), std::move(record).value());
        if (op.query) {
          auto score = scores.find(std::string(key));
          if (score != scores.end()) item.score = score->second;
        }
        items.push_back(std::move(item));
        return true;
      }));
  RP_RETURN_IF_ERROR(failed);
  if (op.query) {
    OrderByScore(items);
  } else {
    OrderByUpdated(items);
  }
  return Page(std::move(items), op.offset, op.limit);
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
