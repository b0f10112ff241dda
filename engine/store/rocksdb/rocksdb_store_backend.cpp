// The RocksDB StoreBackend: one column family per StoreFamily (named by
// StoreFamilyName), readers on a snapshot, writes as one WriteBatch. The
// directory may hold a checkpoint store too, sharing one database
// (engine/rocksdb/shared_db.h).
#include <rocksdb/db.h>
#include <rocksdb/utilities/options_util.h>
#include <rocksdb/write_batch.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/durable_file.h"
#include "engine/rocksdb/rocksdb_status.h"
#include "engine/rocksdb/shared_db.h"
#include "engine/store/store_backend.h"

namespace rockpoint::store_internal {
namespace {

using Handles = std::array<rocksdb::ColumnFamilyHandle*, kStoreFamilyCount>;

class RocksDbStoreReader final : public StoreReader {
 public:
  RocksDbStoreReader(rocksdb::DB* db, const Handles& handles)
      : db_(db), handles_(handles), snapshot_(db->GetSnapshot()) {}
  ~RocksDbStoreReader() override { db_->ReleaseSnapshot(snapshot_); }

  Result<std::optional<std::string>> Read(StoreFamily family,
                                          std::string_view key) override {
    if (Handle(family) == nullptr) return std::optional<std::string>();
    std::string value;
    rocksdb::Status read =
        db_->Get(Options(), Handle(family), rocksdb::Slice(key), &value);
    if (read.IsNotFound()) return std::optional<std::string>();
    RP_RETURN_IF_ERROR(ToStatus(read, "store read"));
    return std::optional<std::string>(std::move(value));
  }

  Status Scan(StoreFamily family, std::string_view begin, std::string_view end,
              const ScanVisitor& visit) override {
    if (Handle(family) == nullptr) return Status::OK();
    rocksdb::ReadOptions options = Options();
    rocksdb::Slice upper(end);
    if (!end.empty()) options.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(
        db_->NewIterator(options, Handle(family)));
    for (it->Seek(rocksdb::Slice(begin)); it->Valid(); it->Next()) {
      if (!visit(std::string_view(it->key().data(), it->key().size()),
                 std::string_view(it->value().data(), it->value().size()))) {
        break;
      }
    }
    return ToStatus(it->status(), "store scan");
  }

 private:
  rocksdb::ReadOptions Options() const {
    rocksdb::ReadOptions options;
    options.snapshot = snapshot_;
    return options;
  }
  rocksdb::ColumnFamilyHandle* Handle(StoreFamily family) const {
    return handles_[static_cast<int>(family)];
  }

  rocksdb::DB* db_;
  const Handles& handles_;
  const rocksdb::Snapshot* snapshot_;
};

class RocksDbStoreBackend final : public StoreBackend {
 public:
  explicit RocksDbStoreBackend(std::string path) : path_(std::move(path)) {}
  ~RocksDbStoreBackend() override { (void)Close(); }

  Result<std::unique_ptr<StoreReader>> NewReader() override {
    return std::unique_ptr<StoreReader>(
        std::make_unique<RocksDbStoreReader>(db_.get(), handles_));
  }

  Status Write(const std::vector<StoreMutation>& mutations,
               bool sync) override {
    rocksdb::WriteBatch batch;
    for (const StoreMutation& mutation : mutations) {
      rocksdb::ColumnFamilyHandle* family =
          handles_[static_cast<int>(mutation.family)];
      rocksdb::Status added =
          mutation.value ? batch.Put(family, mutation.key, *mutation.value)
                         : batch.Delete(family, mutation.key);
      RP_RETURN_IF_ERROR(ToStatus(added, "store write"));
    }
    rocksdb::WriteOptions options;
    options.sync = sync;
    return ToStatus(db_->Write(options, &batch), "store write " + path_);
  }

  // Syncs the WAL (so writes made without sync, TTL refreshes among them,
  // are durable too), then releases the database.
  Status Close() override {
    if (!db_) return Status::OK();
    Status status;
    if (!read_only_) status = ToStatus(db_->SyncWAL(), "sync WAL " + path_);
    handles_ = {};
    Status released = ReleaseSharedDb(db_, kItemStoreClaim);
    return status.ok() ? released : status;
  }

  // Opens the directory's database (or attaches to the checkpoint store's,
  // open in this process) with every store family; read-only, with those
  // of `on_disk` (a family an older format lacks reads as empty).
  Status Open(const RocksDbStoreSetup& setup,
              const std::vector<std::string>& on_disk) {
    read_only_ = setup.read_only;
    SharedDbRequest request{.path = setup.path,
                            .claim = kItemStoreClaim,
                            .families = {},
                            .read_only = setup.read_only,
                            .create_if_missing = setup.create_if_missing,
                            .encrypted = false,
                            .tuning = nullptr,
                            .env = nullptr};
    std::vector<int> opened;
    for (int i = 0; i < kStoreFamilyCount; ++i) {
      const std::string name = StoreFamilyName(static_cast<StoreFamily>(i));
      if (setup.read_only &&
          std::find(on_disk.begin(), on_disk.end(), name) == on_disk.end()) {
        continue;
      }
      request.families.push_back(name);
      opened.push_back(i);
    }
    Result<SharedDbHandle> shared = AcquireSharedDb(request);
    if (!shared.ok()) return OpenError(shared.status(), setup);
    db_ = std::move(shared->db);
    for (size_t i = 0; i < opened.size(); ++i) {
      handles_[opened[i]] = shared->families[i];
    }
    return Status::OK();
  }

 private:
  static Status OpenError(const Status& status,
                          const RocksDbStoreSetup& setup) {
    if (status.IsBusy()) {
      return Status::Busy(
          "item store is already open (in this or another "
          "process): " +
          setup.path);
    }
    return status;
  }

  std::string path_;
  bool read_only_ = false;
  // The directory's database, shared with a checkpoint store living there.
  std::shared_ptr<rocksdb::DB> db_;
  Handles handles_{};
};

// The column families of the database at `path`; none for a directory
// without a database (empty or new). InvalidArgument for a directory of
// files that are not a RocksDB database: only an empty one may become a
// store.
Result<std::vector<std::string>> FamiliesOnDisk(const std::string& path) {
  std::vector<std::string> names;
  const rocksdb::Status listed =
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names);
  if (listed.ok()) return names;
  std::error_code error;
  if (std::filesystem::exists(path + "/CURRENT", error)) {
    // A RocksDB database whose manifest could not be read.
    return ToStatus(listed, "read the column families of " + path);
  }
  if (std::filesystem::is_directory(path, error) &&
      !std::filesystem::is_empty(path, error)) {
    return Status::InvalidArgument("not a rockpoint item store: " + path +
                                   " is a directory of other files");
  }
  return std::vector<std::string>();
}

// Creates the directory `path` when missing and makes its entry durable.
Status CreateDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0) {
    if (errno == EEXIST) return Status::OK();
    return Status::IOError("create store directory " + path + ": " +
                           std::strerror(errno));
  }
  return SyncParentDirectory(path);
}

}  // namespace

Result<std::unique_ptr<StoreBackend>> OpenRocksDbStoreBackend(
    const RocksDbStoreSetup& setup) {
  if (setup.path.empty()) return Status::InvalidArgument("store path is empty");
  struct stat info {};
  const bool exists = ::stat(setup.path.c_str(), &info) == 0;
  if (!exists && (setup.read_only || !setup.create_if_missing)) {
    return Status::NotFound("no store at " + setup.path);
  }
  if (exists && !S_ISDIR(info.st_mode)) {
    return Status::InvalidArgument("not a store directory: " + setup.path);
  }
  RP_ASSIGN_OR_RETURN(const std::vector<std::string> on_disk,
                      FamiliesOnDisk(setup.path));
  const bool holds_store =
      std::any_of(on_disk.begin(), on_disk.end(), IsItemStoreFamily);
  if (exists && !holds_store && (setup.read_only || !setup.create_if_missing)) {
    return Status::NotFound("no item store at " + setup.path);
  }
  if (!exists) RP_RETURN_IF_ERROR(CreateDirectory(setup.path));
  auto backend = std::make_unique<RocksDbStoreBackend>(setup.path);
  RP_RETURN_IF_ERROR(backend->Open(setup, on_disk));
  return std::unique_ptr<StoreBackend>(std::move(backend));
}

}  // namespace rockpoint::store_internal
