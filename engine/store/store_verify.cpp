// Store::Front::Verify: every record read, the families checked against
// each other (engine/store/FORMAT.md states what must hold).
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <unordered_set>

#include "engine/backend_rules.h"
#include "engine/store/store_front.h"
#include "keys/tuple.h"

namespace rockpoint {

using store_internal::StoreFamily;

namespace {

// What the items family implies about the other families.
struct Expected {
  std::unordered_set<std::string> items;
  std::map<std::string, uint64_t> counts;  // namespace key -> items
  std::set<std::string> expiry_keys;
  std::set<std::string> recent_keys;
};

Status ReadItems(store_internal::StoreReader& reader, int64_t now_us,
                 Expected& expected, StoreVerifyReport& report) {
  return reader.Scan(
      StoreFamily::kItems, "", "",
      [&](std::string_view key, std::string_view value) {
        ++report.items;
        auto address = store_internal::DecodeItemKey(key);
        auto record = store_internal::DecodeItemRecord(value, key);
        if (!address.ok() || !record.ok()) {
          report.problems.push_back(
              (address.ok() ? record.status() : address.status()).message());
          return true;
        }
        expected.items.emplace(key);
        ++expected.counts[store_internal::NamespaceKey(address->ns)];
        expected.recent_keys.insert(store_internal::RecentKey(
            address->ns, record->updated_at_us, address->key));
        if (record->expires_at_us) {
          expected.expiry_keys.insert(store_internal::ExpiryKey(
              *record->expires_at_us, address->ns, address->key));
          if (store_internal::IsExpired(*record, now_us)) {
            ++report.expired_items;
          }
        }
        return true;
      });
}

Status CheckNamespaces(store_internal::StoreReader& reader, Expected& expected,
                       StoreVerifyReport& report) {
  RP_RETURN_IF_ERROR(reader.Scan(
      StoreFamily::kNamespaces, "", "",
      [&](std::string_view key, std::string_view value) {
        ++report.namespaces;
        auto count = store_internal::DecodeCount(value, key);
        auto it = expected.counts.find(std::string(key));
        const uint64_t items = it == expected.counts.end() ? 0 : it->second;
        if (!count.ok()) {
          report.problems.push_back(count.status().message());
        } else if (*count != items) {
          report.problems.push_back("namespace " + keys::Describe(key) +
                                    " counts " + std::to_string(*count) +
                                    " items, holds " + std::to_string(items));
        }
        if (it != expected.counts.end()) expected.counts.erase(it);
        return true;
      }));
  for (const auto& [key, items] : expected.counts) {
    report.problems.push_back("namespace " + keys::Describe(key) + " holds " +
                              std::to_string(items) +
                              " items but has no count");
  }
  return Status::OK();
}

// What an index family (one key per item, derived from its record) must
// hold, and how its findings read.
struct IndexCheck {
  StoreFamily family;
  std::set<std::string>* expected_keys;
  uint64_t* entries;
  const char* entry;      // "expiry entry"
  const char* unmatched;  // "matches no item's expiry"
  const char* item;       // "item expiring at"
  const char* missing;    // "has no expiry entry"
};

// Every key of check.family must be an expected one, and every expected
// key present.
Status CheckIndex(store_internal::StoreReader& reader, const IndexCheck& check,
                  StoreVerifyReport& report) {
  RP_RETURN_IF_ERROR(reader.Scan(
      check.family, "", "", [&](std::string_view key, std::string_view) {
        ++*check.entries;
        if (check.expected_keys->erase(std::string(key)) == 0) {
          report.problems.push_back(std::string(check.entry) + " " +
                                    keys::Describe(key) + " " +
                                    check.unmatched);
        }
        return true;
      }));
  for (const std::string& key : *check.expected_keys) {
    report.problems.push_back(std::string(check.item) + " " +
                              keys::Describe(key) + " " + check.missing);
  }
  return Status::OK();
}

Status CheckVectors(store_internal::StoreReader& reader,
                    const Expected& expected, std::optional<size_t> dims,
                    StoreVerifyReport& report) {
  return reader.Scan(
      StoreFamily::kVectors, "", "",
      [&](std::string_view key, std::string_view value) {
        ++report.vectors;
        std::string field;
        auto address = store_internal::DecodeItemKey(key, &field);
        auto vector = store_internal::DecodeVector(value, key);
        if (!address.ok() || !vector.ok()) {
          report.problems.push_back(
              (address.ok() ? vector.status() : address.status()).message());
          return true;
        }
        const std::string item =
            store_internal::ItemKey(address->ns, address->key);
        if (expected.items.count(item) == 0) {
          report.problems.push_back("vector " + keys::Describe(key) +
                                    " belongs to no item");
        }
        if (dims && vector->size() != *dims) {
          report.problems.push_back("vector " + keys::Describe(key) + " has " +
                                    std::to_string(vector->size()) +
                                    " floats, the index " +
                                    std::to_string(*dims));
        }
        return true;
      });
}

}  // namespace

Result<StoreVerifyReport> Store::Front::Verify() {
  std::shared_lock life(life_mu_);
  if (closed_) return StoreClosedError();
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend_->NewReader());
  StoreVerifyReport report;
  Expected expected;
  RP_RETURN_IF_ERROR(ReadItems(*reader, Now(), expected, report));
  RP_RETURN_IF_ERROR(CheckNamespaces(*reader, expected, report));
  RP_RETURN_IF_ERROR(CheckIndex(
      *reader,
      {StoreFamily::kExpiry, &expected.expiry_keys, &report.expiry_entries,
       "expiry entry", "matches no item's expiry", "item expiring at",
       "has no expiry entry"},
      report));
  RP_RETURN_IF_ERROR(CheckIndex(
      *reader,
      {StoreFamily::kRecent, &expected.recent_keys, &report.recent_entries,
       "recency entry", "matches no item's update time", "item updated at",
       "has no recency entry"},
      report));
  RP_ASSIGN_OR_RETURN(
      std::optional<std::string> format,
      reader->Read(StoreFamily::kMeta, store_internal::kFormatMeta));
  if (!format) report.problems.push_back("meta has no format version");
  // The vectors' length is the index's, else the one the store recorded.
  RP_ASSIGN_OR_RETURN(
      std::optional<std::string> stored_dims,
      reader->Read(StoreFamily::kMeta, store_internal::kDimsMeta));
  std::optional<size_t> vector_dims = dims;
  if (!vector_dims && stored_dims) {
    vector_dims =
        static_cast<size_t>(std::strtoull(stored_dims->c_str(), nullptr, 10));
  }
  RP_RETURN_IF_ERROR(CheckVectors(*reader, expected, vector_dims, report));
  return report;
}

}  // namespace rockpoint
