// The write side of a store (store_writes.h).
#include "engine/store/store_writes.h"

#include <cmath>

#include "keys/tuple.h"

namespace rockpoint::store_internal {
namespace {

int64_t ExpiryAfter(int64_t now_us, double minutes) {
  return now_us + static_cast<int64_t>(std::llround(minutes * 60e6));
}

std::optional<double> TtlMinutes(const ItemTtl& ttl,
                                 const StoreTtlOptions& options) {
  switch (ttl.kind) {
    case ItemTtl::Kind::kStoreDefault:
      return options.default_ttl_minutes;
    case ItemTtl::Kind::kNever:
      return std::nullopt;
    case ItemTtl::Kind::kMinutes:
      return ttl.minutes;
  }
  return std::nullopt;
}

Result<std::optional<ItemRecord>> ReadRecord(StoreReader& reader,
                                             const std::string& item_key) {
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      reader.Read(StoreFamily::kItems, item_key));
  if (!stored) return std::optional<ItemRecord>();
  RP_ASSIGN_OR_RETURN(ItemRecord record, DecodeItemRecord(*stored, item_key));
  return std::optional<ItemRecord>(std::move(record));
}

}  // namespace

void MutationPlan::Put(StoreFamily family, std::string key, std::string value) {
  mutations_.push_back({family, std::move(key), std::move(value)});
}

void MutationPlan::Delete(StoreFamily family, std::string key) {
  mutations_.push_back({family, std::move(key), std::nullopt});
}

Status MutationPlan::RemoveStored(const Namespace& ns, std::string_view key,
                                  const ItemRecord& record, bool replaced) {
  const std::string item_key = ItemKey(ns, key);
  Delete(StoreFamily::kRecent, RecentKey(ns, record.updated_at_us, key));
  if (record.expires_at_us) {
    Delete(StoreFamily::kExpiry, ExpiryKey(*record.expires_at_us, ns, key));
  }
  std::vector<std::string> vectors;
  RP_RETURN_IF_ERROR(
      reader_.Scan(StoreFamily::kVectors, item_key, RangeEnd(item_key),
                   [&](std::string_view vector_key, std::string_view) {
                     vectors.emplace_back(vector_key);
                     return true;
                   }));
  for (std::string& vector_key : vectors) {
    Delete(StoreFamily::kVectors, std::move(vector_key));
  }
  if (!replaced) {
    Delete(StoreFamily::kItems, item_key);
    --count_changes_[NamespaceKey(ns)];
  }
  return Status::OK();
}

Status MutationPlan::AddPut(const WriteContext& context, const PutOp& put) {
  const std::string item_key = ItemKey(put.ns, put.key);
  RP_ASSIGN_OR_RETURN(std::optional<ItemRecord> old,
                      ReadRecord(reader_, item_key));
  if (!put.value) {
    if (old) {
      RP_RETURN_IF_ERROR(
          RemoveStored(put.ns, put.key, *old, /*replaced=*/false));
    }
    return Status::OK();
  }
  ItemRecord record;
  record.value = *put.value;
  record.created_at_us = old && !IsExpired(*old, context.now_us)
                             ? old->created_at_us
                             : context.now_us;
  record.updated_at_us = context.now_us;
  record.ttl_minutes = TtlMinutes(put.ttl, context.options.ttl);
  if (record.ttl_minutes) {
    record.expires_at_us = ExpiryAfter(context.now_us, *record.ttl_minutes);
  }
  return StoreItemRecord(context, put.ns, put.key, old, record, put.vectors);
}

Status MutationPlan::AddImport(const WriteContext& context,
                               const StoredItem& item) {
  RP_ASSIGN_OR_RETURN(std::optional<ItemRecord> old,
                      ReadRecord(reader_, ItemKey(item.ns, item.key)));
  ItemRecord record;
  record.value = item.value;
  record.created_at_us = item.created_at_us;
  record.updated_at_us = item.updated_at_us;
  record.expires_at_us = item.expires_at_us;
  record.ttl_minutes = item.ttl_minutes;
  return StoreItemRecord(context, item.ns, item.key, old, record, item.vectors);
}

Status MutationPlan::StoreItemRecord(const WriteContext& context,
                                     const Namespace& ns, std::string_view key,
                                     const std::optional<ItemRecord>& old,
                                     const ItemRecord& record,
                                     const std::vector<FieldVector>& vectors) {
  std::string encoded = EncodeItemRecord(record);
  const size_t max_bytes = context.options.limits.max_value_bytes;
  if (encoded.size() > max_bytes) {
    return Status::InvalidArgument(
        "item value is " + std::to_string(encoded.size()) +
        " bytes encoded, over the limit of " + std::to_string(max_bytes));
  }
  if (old) {
    RP_RETURN_IF_ERROR(RemoveStored(ns, key, *old, /*replaced=*/true));
  } else {
    ++count_changes_[NamespaceKey(ns)];
  }
  Put(StoreFamily::kItems, ItemKey(ns, key), std::move(encoded));
  Put(StoreFamily::kRecent, RecentKey(ns, record.updated_at_us, key),
      std::string());
  if (record.expires_at_us) {
    Put(StoreFamily::kExpiry, ExpiryKey(*record.expires_at_us, ns, key),
        std::string());
  }
  for (const FieldVector& field : vectors) {
    Put(StoreFamily::kVectors, VectorKey(ns, key, field.field),
        EncodeVector(field.vector));
  }
  return Status::OK();
}

Status MutationPlan::AddRefresh(const WriteContext& context,
                                const ItemAddress& address) {
  const std::string item_key = ItemKey(address.ns, address.key);
  RP_ASSIGN_OR_RETURN(std::optional<ItemRecord> record,
                      ReadRecord(reader_, item_key));
  if (!record || !record->ttl_minutes || !record->expires_at_us ||
      IsExpired(*record, context.now_us)) {
    return Status::OK();
  }
  const int64_t expires = ExpiryAfter(context.now_us, *record->ttl_minutes);
  if (expires == *record->expires_at_us) return Status::OK();
  Delete(StoreFamily::kExpiry,
         ExpiryKey(*record->expires_at_us, address.ns, address.key));
  Put(StoreFamily::kExpiry, ExpiryKey(expires, address.ns, address.key),
      std::string());
  record->expires_at_us = expires;
  Put(StoreFamily::kItems, item_key, EncodeItemRecord(*record));
  return Status::OK();
}

Result<MutationPlan::SweepCount> MutationPlan::AddSweep(
    const WriteContext& context, size_t limit) {
  std::vector<std::string> due;
  RP_RETURN_IF_ERROR(reader_.Scan(StoreFamily::kExpiry, std::string(),
                                  ExpiryUpperBound(context.now_us),
                                  [&](std::string_view key, std::string_view) {
                                    due.emplace_back(key);
                                    return due.size() < limit;
                                  }));
  SweepCount count{due.size(), 0};
  for (std::string& expiry_key : due) {
    RP_ASSIGN_OR_RETURN(auto entry, DecodeExpiryKey(expiry_key));
    auto& [expires_at, address] = entry;
    RP_ASSIGN_OR_RETURN(std::optional<ItemRecord> record,
                        ReadRecord(reader_, ItemKey(address.ns, address.key)));
    if (!record || record->expires_at_us != expires_at) {
      // An entry whose item is gone or expires at another time (only
      // damage leaves one): drop it.
      Delete(StoreFamily::kExpiry, std::move(expiry_key));
      continue;
    }
    RP_RETURN_IF_ERROR(
        RemoveStored(address.ns, address.key, *record, /*replaced=*/false));
    ++count.removed;
  }
  return count;
}

Result<std::vector<StoreMutation>> MutationPlan::Finish() {
  for (const auto& [ns_key, change] : count_changes_) {
    if (change == 0) continue;
    RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                        reader_.Read(StoreFamily::kNamespaces, ns_key));
    uint64_t count = 0;
    if (stored) {
      RP_ASSIGN_OR_RETURN(count, DecodeCount(*stored, ns_key));
    }
    const int64_t now = static_cast<int64_t>(count) + change;
    if (now <= 0) {
      Delete(StoreFamily::kNamespaces, ns_key);
    } else {
      Put(StoreFamily::kNamespaces, ns_key,
          EncodeCount(static_cast<uint64_t>(now)));
    }
  }
  count_changes_.clear();
  return std::move(mutations_);
}

}  // namespace rockpoint::store_internal
