// Store::Front's export and import of whole items (rockpoint/store.h).
#include <cmath>
#include <mutex>

#include "engine/backend_rules.h"
#include "engine/store/store_front.h"
#include "engine/store/store_validation.h"
#include "engine/store/store_writes.h"

namespace rockpoint {

using store_internal::DecodeItemKey;
using store_internal::DecodeItemRecord;
using store_internal::DecodeVector;
using store_internal::ItemKey;
using store_internal::RangeEnd;
using store_internal::StoreFamily;

namespace {

// The vectors stored under `item_key`, in field order.
Result<std::vector<FieldVector>> ReadVectors(
    store_internal::StoreReader& reader, const std::string& item_key) {
  std::vector<FieldVector> vectors;
  Status failed;
  RP_RETURN_IF_ERROR(reader.Scan(
      StoreFamily::kVectors, item_key, RangeEnd(item_key),
      [&](std::string_view key, std::string_view value) {
        FieldVector field;
        auto address = DecodeItemKey(key, &field.field);
        auto vector = address.ok()
                          ? DecodeVector(value, key)
                          : Result<std::vector<float>>(address.status());
        if (!vector.ok()) {
          failed = vector.status();
          return false;
        }
        field.vector = std::move(vector).value();
        vectors.push_back(std::move(field));
        return true;
      }));
  RP_RETURN_IF_ERROR(failed);
  return vectors;
}

Status ValidateImported(const StoredItem& item, const StoreLimits& limits,
                        std::optional<size_t> dims) {
  PutOp put;
  put.ns = item.ns;
  put.key = item.key;
  put.value = item.value;
  put.vectors = item.vectors;
  RP_RETURN_IF_ERROR(store_internal::ValidateOp(put, limits, dims, false, ""));
  if (item.ttl_minutes && (!std::isfinite(*item.ttl_minutes) ||
                           *item.ttl_minutes <= 0 || !item.expires_at_us)) {
    return Status::InvalidArgument(
        "imported item has ttl_minutes but no expiry, or a ttl that is not "
        "a positive number of minutes");
  }
  return Status::OK();
}

}  // namespace

Status Store::Front::ExportItems(
    const std::function<Status(const StoredItem&)>& visit) {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend_->NewReader());
  Status failed;
  RP_RETURN_IF_ERROR(reader->Scan(
      StoreFamily::kItems, "", "",
      [&](std::string_view key, std::string_view value) {
        auto record = DecodeItemRecord(value, key);
        auto address =
            record.ok() ? DecodeItemKey(key)
                        : Result<store_internal::ItemAddress>(record.status());
        auto vectors = address.ok()
                           ? ReadVectors(*reader, std::string(key))
                           : Result<std::vector<FieldVector>>(address.status());
        if (!vectors.ok()) {
          failed = vectors.status();
          return false;
        }
        StoredItem item{std::move(address->ns),   std::move(address->key),
                        std::move(record->value), record->created_at_us,
                        record->updated_at_us,    record->expires_at_us,
                        record->ttl_minutes,      std::move(vectors).value()};
        failed = visit(item);
        return failed.ok();
      }));
  return failed;
}

Status Store::Front::ImportItems(const std::vector<StoredItem>& items) {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  if (options_.read_only) {
    return Status::InvalidArgument("store opened read-only: " + name_);
  }
  for (const StoredItem& item : items) {
    RP_RETURN_IF_ERROR(ValidateImported(item, options_.limits, dims));
  }
  base::MutexLock lock(&write_mu_);
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend_->NewReader());
  const store_internal::WriteContext context{*reader, Now(), options_};
  store_internal::MutationPlan plan(*reader);
  // The last item of a key wins, as with puts.
  std::map<std::string, const StoredItem*> last;
  for (const StoredItem& item : items) last[ItemKey(item.ns, item.key)] = &item;
  for (const auto& [unused, item] : last) {
    RP_RETURN_IF_ERROR(plan.AddImport(context, *item));
  }
  RP_ASSIGN_OR_RETURN(std::vector<store_internal::StoreMutation> mutations,
                      plan.Finish());
  reader.reset();
  if (mutations.empty()) return Status::OK();
  return Commit(mutations, options_.sync_writes);
}

}  // namespace rockpoint
