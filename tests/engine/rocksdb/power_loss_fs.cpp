#include "engine/rocksdb/power_loss_fs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

namespace rockpoint::testing {
namespace {

namespace fs = std::filesystem;
using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;

// Old content larger than this is not kept (RocksDB renames only small
// files over others: CURRENT, IDENTITY, OPTIONS).
constexpr uint64_t kMaxKeptBytes = uint64_t{1} << 20;

std::string Normalize(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// (directory, name) of a normalized path.
std::pair<std::string, std::string> Split(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// A file opened for writing: tracks its size, reports syncs.
class WritableFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  WritableFile(std::unique_ptr<rocksdb::FSWritableFile> target,
               PowerLossFileSystem* fs, std::string path, uint64_t size)
      : FSWritableFileOwnerWrapper(std::move(target)),
        fs_(fs),
        path_(std::move(path)),
        size_(size) {}

  IOStatus Append(const rocksdb::Slice& data, const IOOptions& options,
                  IODebugContext* dbg) override {
    return fs_->Guarded([&](bool /*live*/) {
      IOStatus s = target()->Append(data, options, dbg);
      if (s.ok()) size_ += data.size();
      return s;
    });
  }
  IOStatus Append(const rocksdb::Slice& data, const IOOptions& options,
                  const rocksdb::DataVerificationInfo& /*info*/,
                  IODebugContext* dbg) override {
    return Append(data, options, dbg);
  }
  IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                            const IOOptions& options,
                            IODebugContext* dbg) override {
    return fs_->Guarded([&](bool /*live*/) {
      IOStatus s = target()->PositionedAppend(data, offset, options, dbg);
      if (s.ok()) size_ = std::max<uint64_t>(size_, offset + data.size());
      return s;
    });
  }
  IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                            const IOOptions& options,
                            const rocksdb::DataVerificationInfo& /*info*/,
                            IODebugContext* dbg) override {
    return PositionedAppend(data, offset, options, dbg);
  }
  IOStatus Truncate(uint64_t size, const IOOptions& options,
                    IODebugContext* dbg) override {
    return fs_->Guarded([&](bool /*live*/) {
      IOStatus s = target()->Truncate(size, options, dbg);
      if (s.ok()) size_ = size;
      return s;
    });
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return fs_->Guarded([&](bool live) {
      IOStatus s = target()->Sync(options, dbg);
      if (s.ok() && live) fs_->NoteSyncedLocked(path_, size_);
      return s;
    });
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return fs_->Guarded([&](bool live) {
      IOStatus s = target()->Fsync(options, dbg);
      if (s.ok() && live) fs_->NoteSyncedLocked(path_, size_);
      return s;
    });
  }
  // Counted, but makes nothing durable (sync_file_range).
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override {
    return fs_->Guarded([&](bool /*live*/) {
      return target()->RangeSync(offset, nbytes, options, dbg);
    });
  }

 private:
  PowerLossFileSystem* fs_;
  std::string path_;
  uint64_t size_;
};

class Directory final : public rocksdb::FSDirectoryWrapper {
 public:
  Directory(std::unique_ptr<rocksdb::FSDirectory> target,
            PowerLossFileSystem* fs, std::string path)
      : FSDirectoryWrapper(std::move(target)),
        fs_(fs),
        path_(std::move(path)) {}

  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return fs_->Guarded([&](bool live) {
      IOStatus s = FSDirectoryWrapper::Fsync(options, dbg);
      if (s.ok() && live) fs_->NoteDirectorySyncedLocked(path_);
      return s;
    });
  }
  IOStatus FsyncWithDirOptions(
      const IOOptions& options, IODebugContext* dbg,
      const rocksdb::DirFsyncOptions& dir_options) override {
    return fs_->Guarded([&](bool live) {
      IOStatus s =
          FSDirectoryWrapper::FsyncWithDirOptions(options, dbg, dir_options);
      if (s.ok() && live) fs_->NoteDirectorySyncedLocked(path_);
      return s;
    });
  }

 private:
  PowerLossFileSystem* fs_;
  std::string path_;
};

}  // namespace

PowerLossFileSystem::PowerLossFileSystem()
    : FileSystemWrapper(rocksdb::FileSystem::Default()) {
  // NewCompositeEnv takes a shared_ptr; this object is owned by the test,
  // so the Env gets a non-owning one.
  env_ = rocksdb::NewCompositeEnv(
      std::shared_ptr<rocksdb::FileSystem>(this, [](rocksdb::FileSystem*) {}));
}

void PowerLossFileSystem::CutPower() {
  std::lock_guard<std::mutex> lock(mu_);
  powered_ = false;
}

void PowerLossFileSystem::CutPowerAfter(int64_t calls) {
  std::lock_guard<std::mutex> lock(mu_);
  calls_left_ = calls;
}

bool PowerLossFileSystem::powered() const {
  std::lock_guard<std::mutex> lock(mu_);
  return powered_;
}

int64_t PowerLossFileSystem::calls() const {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_;
}

bool PowerLossFileSystem::MutateLocked() {
  if (powered_ && calls_left_ == 0) powered_ = false;
  if (!powered_) return false;
  if (calls_left_ > 0) --calls_left_;
  ++calls_;
  return true;
}

bool PowerLossFileSystem::Exists(const std::string& path) {
  return target()->FileExists(path, IOOptions(), nullptr).ok();
}

bool PowerLossFileSystem::EntryDurable(const std::string& path) const {
  const auto [dir, name] = Split(path);
  const auto entries = new_entries_.find(dir);
  return entries == new_entries_.end() || !entries->second.contains(name);
}

std::string PowerLossFileSystem::DurableContent(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  const auto synced = synced_.find(path);
  if (synced != synced_.end() && synced->second < content.size()) {
    content.resize(synced->second);
  }
  return content;
}

void PowerLossFileSystem::NoteNewEntry(const std::string& path,
                                       NewEntry entry) {
  const auto [dir, name] = Split(path);
  auto& entries = new_entries_[dir];
  const auto old = entries.find(name);
  if (old != entries.end()) {
    entry.old_content = old->second.old_content;
    entries.erase(old);
  }
  entries.emplace(name, std::move(entry));
}

void PowerLossFileSystem::NoteSyncedLocked(const std::string& path,
                                           uint64_t size) {
  synced_[path] = size;
}

void PowerLossFileSystem::NoteDirectorySyncedLocked(const std::string& dir) {
  new_entries_.erase(dir);
}

IOStatus PowerLossFileSystem::NewWritableFile(
    const std::string& raw_path, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool /*live*/) {
    const bool existed = Exists(path);
    std::unique_ptr<rocksdb::FSWritableFile> file;
    IOStatus s = target()->NewWritableFile(path, options, &file, dbg);
    if (!s.ok()) return s;
    synced_[path] = 0;
    if (!existed) NoteNewEntry(path, {});
    *result = std::make_unique<WritableFile>(std::move(file), this, path, 0);
    return s;
  });
}

IOStatus PowerLossFileSystem::ReopenWritableFile(
    const std::string& raw_path, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool /*live*/) {
    const bool existed = Exists(path);
    uint64_t size = 0;
    if (existed) {
      IOStatus s = target()->GetFileSize(path, IOOptions(), &size, dbg);
      if (!s.ok()) return s;
    }
    std::unique_ptr<rocksdb::FSWritableFile> file;
    IOStatus s = target()->ReopenWritableFile(path, options, &file, dbg);
    if (!s.ok()) return s;
    synced_.try_emplace(path, size);  // what was there is durable.
    if (!existed) NoteNewEntry(path, {});
    *result = std::make_unique<WritableFile>(std::move(file), this, path, size);
    return s;
  });
}

IOStatus PowerLossFileSystem::ReuseWritableFile(
    const std::string& raw_path, const std::string& raw_old_path,
    const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  const std::string old_path = Normalize(raw_old_path);
  return Guarded([&](bool /*live*/) {
    const bool from_durable = EntryDurable(old_path);
    std::unique_ptr<rocksdb::FSWritableFile> file;
    IOStatus s =
        target()->ReuseWritableFile(path, old_path, options, &file, dbg);
    if (!s.ok()) return s;
    synced_.erase(old_path);
    synced_[path] = 0;
    new_entries_[Split(old_path).first].erase(Split(old_path).second);
    NewEntry entry;
    if (from_durable) entry.renamed_from = old_path;
    NoteNewEntry(path, std::move(entry));
    *result = std::make_unique<WritableFile>(std::move(file), this, path, 0);
    return s;
  });
}

IOStatus PowerLossFileSystem::NewRandomRWFile(
    const std::string& raw_path, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSRandomRWFile>* result, IODebugContext* dbg) {
  // Not used by the stores under test; its writes are not modeled, so it
  // is refused rather than silently treated as durable.
  (void)raw_path;
  (void)options;
  (void)result;
  (void)dbg;
  return IOStatus::NotSupported("PowerLossFileSystem: random read-write files");
}

IOStatus PowerLossFileSystem::NewDirectory(
    const std::string& raw_path, const IOOptions& options,
    std::unique_ptr<rocksdb::FSDirectory>* result, IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  std::unique_ptr<rocksdb::FSDirectory> dir;
  IOStatus s = target()->NewDirectory(path, options, &dir, dbg);
  if (s.ok()) *result = std::make_unique<Directory>(std::move(dir), this, path);
  return s;
}

IOStatus PowerLossFileSystem::CreateDir(const std::string& raw_path,
                                        const IOOptions& options,
                                        IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool /*live*/) {
    IOStatus s = target()->CreateDir(path, options, dbg);
    if (s.ok()) NoteNewEntry(path, {});
    return s;
  });
}

IOStatus PowerLossFileSystem::CreateDirIfMissing(const std::string& raw_path,
                                                 const IOOptions& options,
                                                 IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool /*live*/) {
    const bool existed = Exists(path);
    IOStatus s = target()->CreateDirIfMissing(path, options, dbg);
    if (s.ok() && !existed) NoteNewEntry(path, {});
    return s;
  });
}

IOStatus PowerLossFileSystem::DeleteFile(const std::string& raw_path,
                                         const IOOptions& options,
                                         IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool live) {
    if (!live) return IOStatus::OK();  // the disk no longer changes.
    IOStatus s = target()->DeleteFile(path, options, dbg);
    if (s.ok()) {
      synced_.erase(path);
      const auto [dir, name] = Split(path);
      new_entries_[dir].erase(name);
    }
    return s;
  });
}

IOStatus PowerLossFileSystem::DeleteDir(const std::string& raw_path,
                                        const IOOptions& options,
                                        IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool live) {
    if (!live) return IOStatus::OK();
    IOStatus s = target()->DeleteDir(path, options, dbg);
    if (s.ok()) {
      const auto [dir, name] = Split(path);
      new_entries_[dir].erase(name);
    }
    return s;
  });
}

IOStatus PowerLossFileSystem::Truncate(const std::string& raw_path, size_t size,
                                       const IOOptions& options,
                                       IODebugContext* dbg) {
  const std::string path = Normalize(raw_path);
  return Guarded([&](bool live) {
    IOStatus s = target()->Truncate(path, size, options, dbg);
    auto synced = synced_.find(path);
    if (s.ok() && live && synced != synced_.end()) {
      synced->second = std::min<uint64_t>(synced->second, size);
    }
    return s;
  });
}

bool PowerLossFileSystem::CarrySyncedLength(const std::string& from,
                                            const std::string& to) {
  const auto synced = synced_.find(from);
  if (synced == synced_.end()) return false;
  synced_[to] = synced->second;
  return true;
}

IOStatus PowerLossFileSystem::RenameFile(const std::string& raw_from,
                                         const std::string& raw_to,
                                         const IOOptions& options,
                                         IODebugContext* dbg) {
  const std::string from = Normalize(raw_from);
  const std::string to = Normalize(raw_to);
  return Guarded([&](bool /*live*/) {
    NewEntry entry;
    if (Exists(to) && EntryDurable(to)) {
      uint64_t size = 0;
      if (target()->GetFileSize(to, IOOptions(), &size, dbg).ok() &&
          size <= kMaxKeptBytes) {
        entry.old_content = DurableContent(to);
      }
    }
    const bool from_durable = EntryDurable(from);
    IOStatus s = target()->RenameFile(from, to, options, dbg);
    if (!s.ok()) return s;
    if (CarrySyncedLength(from, to)) {
      synced_.erase(from);
    } else {
      synced_.erase(to);  // an untracked file is durable whole.
    }
    new_entries_[Split(from).first].erase(Split(from).second);
    if (from_durable) entry.renamed_from = from;
    NoteNewEntry(to, std::move(entry));
    return s;
  });
}

IOStatus PowerLossFileSystem::LinkFile(const std::string& raw_from,
                                       const std::string& raw_to,
                                       const IOOptions& options,
                                       IODebugContext* dbg) {
  const std::string from = Normalize(raw_from);
  const std::string to = Normalize(raw_to);
  return Guarded([&](bool /*live*/) {
    IOStatus s = target()->LinkFile(from, to, options, dbg);
    if (!s.ok()) return s;
    CarrySyncedLength(from, to);
    NoteNewEntry(to, {});
    return s;
  });
}

void PowerLossFileSystem::LosePower() {
  std::lock_guard<std::mutex> lock(mu_);
  std::error_code error;
  // Unsynced data: each file back to its synced size.
  for (const auto& [path, size] : synced_) {
    const auto actual = fs::file_size(path, error);
    if (error || actual <= size) continue;
    fs::resize_file(path, size, error);
    losses_.push_back("truncated " + path + " from " + std::to_string(actual) +
                      " to " + std::to_string(size) + " bytes");
  }
  // Unsynced entries, deepest directories first: renames revert, new
  // entries vanish, replaced content comes back.
  std::vector<std::string> dirs;
  for (const auto& [dir, entries] : new_entries_) dirs.push_back(dir);
  std::sort(dirs.begin(), dirs.end(),
            [](const std::string& a, const std::string& b) {
              return a.size() > b.size();
            });
  for (const std::string& dir : dirs) {
    for (const auto& [name, entry] : new_entries_[dir]) {
      const std::string path = dir == "/" ? "/" + name : dir + "/" + name;
      if (!fs::exists(fs::symlink_status(path, error))) continue;
      if (entry.renamed_from) {
        fs::rename(path, *entry.renamed_from, error);
        losses_.push_back("renamed " + path + " back to " +
                          *entry.renamed_from);
      } else {
        fs::remove_all(path, error);
        losses_.push_back("removed " + path + " (entry never synced)");
      }
      if (entry.old_content) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << *entry.old_content;
        losses_.push_back("restored the old content of " + path);
      }
    }
  }
  new_entries_.clear();
  synced_.clear();
}

}  // namespace rockpoint::testing
