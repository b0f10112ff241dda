// The memory StoreBackend: one ordered map per family behind a
// reader-writer lock. A reader holds the lock shared for its lifetime, so
// what it sees cannot change under it.
#include <array>
#include <map>
#include <mutex>
#include <shared_mutex>

#include "engine/store/store_backend.h"

namespace rockpoint::store_internal {
namespace {

using Family = std::map<std::string, std::string, std::less<>>;
using Families = std::array<Family, kStoreFamilyCount>;

class MemoryStoreReader final : public StoreReader {
 public:
  MemoryStoreReader(std::shared_mutex& mu, const Families& families)
      : lock_(mu), families_(families) {}

  Result<std::optional<std::string>> Read(StoreFamily family,
                                          std::string_view key) override {
    const Family& map = families_[static_cast<int>(family)];
    auto it = map.find(key);
    if (it == map.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }

  Status Scan(StoreFamily family, std::string_view begin, std::string_view end,
              const ScanVisitor& visit) override {
    const Family& map = families_[static_cast<int>(family)];
    for (auto it = map.lower_bound(begin); it != map.end(); ++it) {
      if (!end.empty() && it->first >= end) break;
      if (!visit(it->first, it->second)) break;
    }
    return Status::OK();
  }

 private:
  std::shared_lock<std::shared_mutex> lock_;
  const Families& families_;
};

class MemoryStoreBackend final : public StoreBackend {
 public:
  Result<std::unique_ptr<StoreReader>> NewReader() override {
    return std::unique_ptr<StoreReader>(
        std::make_unique<MemoryStoreReader>(mu_, families_));
  }

  Status Write(const std::vector<StoreMutation>& mutations,
               bool /*sync*/) override {
    std::unique_lock lock(mu_);
    for (const StoreMutation& mutation : mutations) {
      Family& map = families_[static_cast<int>(mutation.family)];
      if (mutation.value) {
        map.insert_or_assign(mutation.key, *mutation.value);
      } else {
        auto it = map.find(mutation.key);
        if (it != map.end()) map.erase(it);
      }
    }
    return Status::OK();
  }

  Status Close() override {
    std::unique_lock lock(mu_);
    for (Family& map : families_) map.clear();
    return Status::OK();
  }

 private:
  std::shared_mutex mu_;
  Families families_;
};

}  // namespace

std::unique_ptr<StoreBackend> NewMemoryStoreBackend() {
  return std::make_unique<MemoryStoreBackend>();
}

const char* StoreFamilyName(StoreFamily family) {
  switch (family) {
    case StoreFamily::kItems:
      return "store.items";
    case StoreFamily::kNamespaces:
      return "store.namespaces";
    case StoreFamily::kExpiry:
      return "store.expiry";
    case StoreFamily::kVectors:
      return "store.vectors";
    case StoreFamily::kMeta:
      return "store.meta";
    case StoreFamily::kRecent:
      return "store.recent";
  }
  return "store.unknown";
}

}  // namespace rockpoint::store_internal
