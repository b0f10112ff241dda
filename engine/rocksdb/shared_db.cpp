// The process's registry of open RocksDB directories (shared_db.h).
#include "engine/rocksdb/shared_db.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "base/mutex.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_options.h"
#include "engine/rocksdb/rocksdb_status.h"

namespace rockpoint {
namespace {

using base::Mutex;
using base::MutexLock;

// One open database and every column family open on it.
class SharedDb {
 public:
  // `setup`: what the database was opened with (its families' options
  // share one block cache; a family created later gets its options too).
  SharedDb(std::string key, std::unique_ptr<rocksdb::DB> db,
           const RocksDbSetup& setup)
      : key_(std::move(key)),
        db_(std::move(db)),
        counters_(setup.counters),
        layout_(setup.families) {}
  ~SharedDb() { (void)Close(); }

  // The registry key ("" when not shared: a read-only database).
  const std::string& key() const { return key_; }
  rocksdb::DB* db() const { return db_.get(); }
  const std::shared_ptr<WriteCounters>& counters() const { return counters_; }
  const std::vector<rocksdb::ColumnFamilyDescriptor>& layout() const {
    return layout_;
  }

  void Adopt(const std::string& name, rocksdb::ColumnFamilyHandle* handle)
      EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    families_[name] = handle;
  }

  // The handle of family `name`, created with `options` when missing.
  Result<rocksdb::ColumnFamilyHandle*> Family(
      const std::string& name, const rocksdb::ColumnFamilyOptions& options)
      EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    auto found = families_.find(name);
    if (found != families_.end()) return found->second;
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    RP_RETURN_IF_ERROR(ToStatus(db_->CreateColumnFamily(options, name, &handle),
                                "create column family " + name));
    families_[name] = handle;
    return handle;
  }

  // Takes `claim`; false when a holder has it.
  bool Claim(const std::string& claim) EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return claims_.insert(claim).second;
  }
  void Unclaim(const std::string& claim) EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    claims_.erase(claim);
  }

  std::vector<std::string> FamilyNames() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    std::vector<std::string> names;
    for (const auto& [name, handle] : families_) names.push_back(name);
    return names;
  }

  // Releases every handle and closes the database (idempotent).
  Status Close() EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    if (!db_) return Status::OK();
    Status status;
    for (auto& [name, handle] : families_) {
      Status released =
          ToStatus(db_->DestroyColumnFamilyHandle(handle), "release handle");
      if (status.ok()) status = std::move(released);
    }
    families_.clear();
    Status closed = ToStatus(db_->Close(), "close " + key_);
    if (status.ok()) status = std::move(closed);
    db_.reset();
    return status;
  }

 private:
  const std::string key_;
  std::unique_ptr<rocksdb::DB> db_;
  const std::shared_ptr<WriteCounters> counters_;
  const std::vector<rocksdb::ColumnFamilyDescriptor> layout_;
  Mutex mu_;
  std::map<std::string, rocksdb::ColumnFamilyHandle*> families_ GUARDED_BY(mu_);
  std::set<std::string> claims_ GUARDED_BY(mu_);
};

// The registry: shared databases by directory, and every open SharedDb by
// its database (for ReleaseSharedDb).
struct Registry {
  Mutex mu;
  std::map<std::string, std::weak_ptr<SharedDb>> by_path GUARDED_BY(mu);
  std::map<rocksdb::DB*, std::weak_ptr<SharedDb>> by_db GUARDED_BY(mu);
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed
  return *registry;
}

// The registry key of a directory: its canonical path when it exists.
std::string DirectoryKey(const std::string& path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::canonical(path, error);
  return error ? path : canonical.string();
}

// The names of the families on disk at `path`; empty when no database is
// there yet.
std::vector<std::string> FamiliesOnDisk(const std::string& path,
                                        rocksdb::Env* env) {
  rocksdb::DBOptions options;
  if (env != nullptr) options.env = env;
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(options, path, &names).ok()) {
    names.clear();
  }
  return names;
}

// The options family `name` of the rockpoint directory layout is opened
// with: the checkpoint families' from `layout` (MakeRocksDbSetup's, one
// block cache), RocksDB's defaults for `default` and every item store
// family; InvalidArgument for any other name (a database that is not a
// rockpoint directory).
Result<rocksdb::ColumnFamilyOptions> LayoutOptions(
    const std::string& name,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& layout) {
  if (name == rocksdb::kDefaultColumnFamilyName || IsItemStoreFamily(name)) {
    return rocksdb::ColumnFamilyOptions();
  }
  for (const rocksdb::ColumnFamilyDescriptor& family : layout) {
    if (family.name == name) return family.options;
  }
  return Status::InvalidArgument("column family \"" + name +
                                 "\" is not one of rockpoint's (not a "
                                 "rockpoint directory?)");
}

Result<std::vector<rocksdb::ColumnFamilyDescriptor>> Descriptors(
    const std::vector<std::string>& names,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& layout) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyOptions options,
                        LayoutOptions(name, layout));
    descriptors.emplace_back(name, std::move(options));
  }
  return descriptors;
}

Status OpenError(const rocksdb::Status& opened, const std::string& path,
                 bool read_only) {
  Status status = ToStatus(opened, "open " + path);
  if (status.IsBusy()) {
    const bool ours = opened.ToString().find("lock hold by current process") !=
                      std::string::npos;
    return Status::Busy((ours ? "store is already open in this process: "
                              : "store is locked by another process: ") +
                        path);
  }
  if (read_only && opened.IsInvalidArgument()) {
    return Status::InvalidArgument("cannot open store read-only: " +
                                   status.message());
  }
  return status;
}

// Opens the database at request.path: every family on disk (read-write;
// the requested ones are created after the neighbours are checked), or the
// requested ones only (read-only).
Result<std::shared_ptr<SharedDb>> OpenDb(const SharedDbRequest& request,
                                         const std::string& key) {
  const RocksDbOptions defaults;
  const RocksDbOptions& tuning =
      request.tuning != nullptr ? *request.tuning : defaults;
  RocksDbSetup setup = MakeRocksDbSetup(tuning);
  setup.db.create_if_missing = request.create_if_missing;
  if (request.env != nullptr) setup.db.env = request.env;
  std::vector<std::string> names = {rocksdb::kDefaultColumnFamilyName};
  if (request.read_only) {
    names.insert(names.end(), request.families.begin(), request.families.end());
  } else {
    for (std::string& name : FamiliesOnDisk(request.path, request.env)) {
      if (name != rocksdb::kDefaultColumnFamilyName) names.push_back(name);
    }
  }
  RP_ASSIGN_OR_RETURN(std::vector<rocksdb::ColumnFamilyDescriptor> families,
                      Descriptors(names, setup.families));
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status opened =
      request.read_only
          ? rocksdb::DB::OpenForReadOnly(setup.db, request.path, families,
                                         &handles, &raw)
          : rocksdb::DB::Open(setup.db, request.path, families, &handles, &raw);
  if (!opened.ok()) return OpenError(opened, request.path, request.read_only);
  auto shared =
      std::make_shared<SharedDb>(key, std::unique_ptr<rocksdb::DB>(raw), setup);
  for (size_t i = 0; i < names.size(); ++i) shared->Adopt(names[i], handles[i]);
  return shared;
}

// Whether the checkpoint store in `shared` is encrypted: its `meta` family
// holds a key check (engine/rocksdb/FORMAT.md, "Encryption").
Result<bool> HoldsEncryptedCheckpoints(SharedDb& shared) {
  const std::vector<std::string> names = shared.FamilyNames();
  if (std::find(names.begin(), names.end(), kMetaFamily) == names.end()) {
    return false;
  }
  RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * meta,
                      shared.Family(kMetaFamily, {}));
  std::string value;
  rocksdb::Status read = shared.db()->Get(
      rocksdb::ReadOptions(), meta,
      rocksdb_layout::MetaKey(rocksdb_layout::kKeyCheckMeta), &value);
  if (read.IsNotFound()) return false;
  RP_RETURN_IF_ERROR(ToStatus(read, "read key check"));
  return true;
}

// InvalidArgument when the caller and the part already in `shared` are an
// encrypted checkpoint store and an item store (shared_db.h).
Status CheckNeighbours(SharedDb& shared, const SharedDbRequest& request) {
  if (request.claim == kItemStoreClaim) {
    RP_ASSIGN_OR_RETURN(const bool encrypted,
                        HoldsEncryptedCheckpoints(shared));
    if (encrypted) {
      return Status::InvalidArgument(
          "cannot open an item store beside an encrypted checkpoint store: "
          "its records would not be encrypted; give it its own directory (" +
          request.path + ")");
    }
  }
  if (request.encrypted) {
    const std::vector<std::string> names = shared.FamilyNames();
    if (std::any_of(names.begin(), names.end(), IsItemStoreFamily)) {
      return Status::InvalidArgument(
          "cannot open an encrypted checkpoint store where an item store "
          "lives, whose records are not encrypted: " +
          request.path);
    }
  }
  return Status::OK();
}

Result<SharedDbHandle> HandleOf(const std::shared_ptr<SharedDb>& shared,
                                const SharedDbRequest& request) {
  RP_RETURN_IF_ERROR(CheckNeighbours(*shared, request));
  SharedDbHandle handle;
  for (const std::string& name : request.families) {
    RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyOptions options,
                        LayoutOptions(name, shared->layout()));
    RP_ASSIGN_OR_RETURN(rocksdb::ColumnFamilyHandle * family,
                        shared->Family(name, options));
    handle.families.push_back(family);
  }
  handle.counters = shared->counters();
  handle.db = std::shared_ptr<rocksdb::DB>(shared, shared->db());
  return handle;
}

}  // namespace

Result<SharedDbHandle> AcquireSharedDb(const SharedDbRequest& request) {
  if (request.path.empty()) return Status::InvalidArgument("path is empty");
  Registry& registry = TheRegistry();
  MutexLock lock(&registry.mu);
  const std::string key = request.read_only ? "" : DirectoryKey(request.path);
  std::shared_ptr<SharedDb> shared;
  if (!request.read_only) {
    auto found = registry.by_path.find(key);
    if (found != registry.by_path.end()) shared = found->second.lock();
  }
  const bool opened_here = shared == nullptr;
  if (!opened_here && !shared->Claim(request.claim)) {
    return Status::Busy("store is already open in this process: " +
                        request.path);
  }
  if (opened_here) {
    RP_ASSIGN_OR_RETURN(shared, OpenDb(request, key));
    shared->Claim(request.claim);
    if (!request.read_only) registry.by_path[key] = shared;
    registry.by_db[shared->db()] = shared;
  }
  Result<SharedDbHandle> handle = HandleOf(shared, request);
  if (!handle.ok()) {
    shared->Unclaim(request.claim);
    if (opened_here) {
      registry.by_path.erase(key);
      registry.by_db.erase(shared->db());
    }
  }
  return handle;
}

Status ReleaseSharedDb(std::shared_ptr<rocksdb::DB>& db,
                       const std::string& claim) {
  if (db == nullptr) return Status::OK();
  Registry& registry = TheRegistry();
  MutexLock lock(&registry.mu);
  auto found = registry.by_db.find(db.get());
  std::shared_ptr<SharedDb> shared;
  if (found != registry.by_db.end()) shared = found->second.lock();
  if (shared != nullptr) shared->Unclaim(claim);
  // Under the registry's lock no other holder can appear, so a count of two
  // (the caller's and `shared`) means this is the last.
  if (shared == nullptr || shared.use_count() > 2) {
    db.reset();
    return Status::OK();
  }
  registry.by_db.erase(found);
  db.reset();
  if (!shared->key().empty()) registry.by_path.erase(shared->key());
  return shared->Close();
}

}  // namespace rockpoint
