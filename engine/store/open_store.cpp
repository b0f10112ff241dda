// OpenStore: a store by URL, its format and index checked against the
// options (rockpoint/store.h).
#include <charconv>

#include "engine/store/store_backend.h"
#include "engine/store/store_front.h"
#include "engine/store/store_layout.h"
#include "engine/store/store_validation.h"
#include "rockpoint/store.h"

namespace rockpoint {
namespace {

using store_internal::StoreBackend;
using store_internal::StoreFamily;
using store_internal::StoreMutation;

constexpr std::string_view kRocksDbScheme = "rocksdb:";
constexpr std::string_view kMemoryUrl = "memory:";

Result<int64_t> ReadMetaNumber(store_internal::StoreReader& reader,
                               std::string_view name,
                               const std::string& where) {
  RP_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      reader.Read(StoreFamily::kMeta, name));
  if (!stored) return int64_t{-1};
  int64_t number = 0;
  auto [end, error] =
      std::from_chars(stored->data(), stored->data() + stored->size(), number);
  if (error != std::errc() || end != stored->data() + stored->size() ||
      number < 1) {
    return Status::Corruption("store meta \"" + std::string(name) +
                              "\" is not a positive number: " + where);
  }
  return number;
}

Result<bool> HasItems(store_internal::StoreReader& reader) {
  bool any = false;
  RP_RETURN_IF_ERROR(reader.Scan(StoreFamily::kItems, "", "",
                                 [&](std::string_view, std::string_view) {
                                   any = true;
                                   return false;
                                 }));
  return any;
}

// Appends the recency entry of every item: a format 1 store's upgrade.
Status AddRecencyEntries(store_internal::StoreReader& reader,
                         std::vector<StoreMutation>* mutations) {
  Status failed;
  RP_RETURN_IF_ERROR(
      reader.Scan(StoreFamily::kItems, "", "",
                  [&](std::string_view key, std::string_view value) {
                    auto address = store_internal::DecodeItemKey(key);
                    auto view = store_internal::ViewItemRecord(value, key);
                    if (!address.ok() || !view.ok()) {
                      failed = address.ok() ? view.status() : address.status();
                      return false;
                    }
                    mutations->push_back(
                        {StoreFamily::kRecent,
                         store_internal::RecentKey(
                             address->ns, view->updated_at_us, address->key),
                         std::string()});
                    return true;
                  }));
  return failed;
}

// Checks the stored format version and index dims against `options`;
// stamps them into a new store (or an index's first use). A format 1 store
// opened for writing is upgraded: its recency entries and the new version
// in one atomic write.
Status CheckMeta(StoreBackend& backend, const StoreOpenOptions& options,
                 const std::string& name) {
  RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                      backend.NewReader());
  RP_ASSIGN_OR_RETURN(
      int64_t format,
      ReadMetaNumber(*reader, store_internal::kFormatMeta, name));
  RP_ASSIGN_OR_RETURN(int64_t dims,
                      ReadMetaNumber(*reader, store_internal::kDimsMeta, name));
  std::vector<StoreMutation> stamps;
  if (format < 0) {
    RP_ASSIGN_OR_RETURN(bool has_items, HasItems(*reader));
    if (has_items) {
      return Status::Corruption("store holds items but no format version: " +
                                name);
    }
    stamps.push_back({StoreFamily::kMeta,
                      std::string(store_internal::kFormatMeta),
                      std::to_string(store_internal::kStoreFormatVersion)});
  } else if (format == store_internal::kFormatWithoutRecent) {
    if (options.read_only) {
      return Status::InvalidArgument(
          "store format 1 lacks the recency index of format 2; open it once "
          "for writing to upgrade it: " +
          name);
    }
    RP_RETURN_IF_ERROR(AddRecencyEntries(*reader, &stamps));
    stamps.push_back({StoreFamily::kMeta,
                      std::string(store_internal::kFormatMeta),
                      std::to_string(store_internal::kStoreFormatVersion)});
  } else if (format != store_internal::kStoreFormatVersion) {
    return Status::InvalidArgument(
        "store format " + std::to_string(format) +
        " is newer than this build reads (" +
        std::to_string(store_internal::kStoreFormatVersion) + "): " + name);
  }
  if (options.index) {
    const auto wanted = static_cast<int64_t>(options.index->dims);
    if (dims > 0 && dims != wanted) {
      return Status::InvalidArgument("store's vectors have " +
                                     std::to_string(dims) +
                                     " dimensions, index asks for " +
                                     std::to_string(wanted) + ": " + name);
    }
    if (dims < 0) {
      stamps.push_back({StoreFamily::kMeta,
                        std::string(store_internal::kDimsMeta),
                        std::to_string(wanted)});
    }
  }
  reader.reset();
  if (stamps.empty() || options.read_only) return Status::OK();
  return backend.Write(stamps, /*sync=*/true);
}

}  // namespace

Result<std::unique_ptr<Store>> OpenStore(std::string_view url,
                                         const StoreOpenOptions& options) {
  RP_RETURN_IF_ERROR(store_internal::ValidateOpenOptions(options));
  if (url.empty()) return Status::InvalidArgument("store URL is empty");
  std::unique_ptr<StoreBackend> backend;
  std::string name;
  if (url == kMemoryUrl) {
    backend = store_internal::NewMemoryStoreBackend();
    name = std::string(kMemoryUrl);
  } else if (url.substr(0, 7) == "sqlite:" || url.substr(0, 6) == "jsonl:" ||
             url.substr(0, 9) == "postgres:" ||
             url.substr(0, 11) == "postgresql:" ||
             url.substr(0, 7) == "memory:") {
    return Status::NotSupported(
        "an item store lives on RocksDB or in memory, not at " +
        std::string(url));
  } else {
    std::string path(url.substr(0, kRocksDbScheme.size()) == kRocksDbScheme
                         ? url.substr(kRocksDbScheme.size())
                         : url);
    RP_ASSIGN_OR_RETURN(backend,
                        store_internal::OpenRocksDbStoreBackend(
                            {.path = path,
                             .create_if_missing = options.create_if_missing,
                             .read_only = options.read_only}));
    name = "rocksdb:" + path;
  }
  RP_RETURN_IF_ERROR(CheckMeta(*backend, options, name));
  std::unique_ptr<store_internal::VectorIndex> index;
  if (options.index) {
    index = std::make_unique<store_internal::VectorIndex>(*options.index);
    RP_ASSIGN_OR_RETURN(std::unique_ptr<store_internal::StoreReader> reader,
                        backend->NewReader());
    RP_RETURN_IF_ERROR(index->Load(*reader));
  }
  auto front = std::make_unique<Store::Front>(std::move(backend), options, name,
                                              std::move(index));
  return std::unique_ptr<Store>(
      new Store(std::move(front), options, std::move(name)));
}

}  // namespace rockpoint
