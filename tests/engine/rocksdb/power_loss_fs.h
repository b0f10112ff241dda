// PowerLossFileSystem: a rocksdb::FileSystem for tests that models what a
// power loss keeps of the changes made through it (the model of RocksDB's
// own FaultInjectionTestFS, which Debian's librocksdb-dev does not ship):
//
//   * a file's data survives up to the size it had at its last Sync or
//     Fsync (RangeSync and Close make nothing durable);
//   * a directory entry created through this file system (a new file, a
//     directory, a rename's or a link's target) survives only if its parent
//     directory was fsynced (FSDirectory::Fsync) after the entry was made;
//     an unsynced rename reverts: the target gets its old content back (or
//     vanishes) and a source that was durable gets its name back;
//   * files and entries that existed before the file system was created are
//     durable; deletions are kept (not modeled).
//
// CutPower() (or CutPowerAfter(K): after K more mutating calls) is the
// instant the machine stops, as the disk sees it: the process goes on
// unaware and its calls still succeed (RocksDB is not driven into its error
// paths), but nothing they do counts as durable any more, and deletions no
// longer happen. LosePower() then rewrites the real directory tree to what
// the model says survived the cut. A test opens a store through env(),
// writes, counts as acknowledged only the calls that returned before the
// cut (powered() still true), drops the store, calls LosePower() and
// reopens the store with the real file system.
//
// Thread-safety: safe to call from RocksDB's threads; one mutex.
#pragma once

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rockpoint::testing {

class PowerLossFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  PowerLossFileSystem();

  static const char* kClassName() { return "PowerLossFileSystem"; }
  const char* Name() const override { return kClassName(); }

  // An Env whose file system is this one (for DBOptions::env).
  rocksdb::Env* env() { return env_.get(); }

  // From now on (after `calls` more mutating calls, for CutPowerAfter),
  // every mutating call fails with IOError "power cut (injected)".
  void CutPower();
  void CutPowerAfter(int64_t calls);
  bool powered() const;
  // Mutating calls made while powered so far.
  int64_t calls() const;
  // Applies the loss to the real files. REQUIRES: the power was cut and no
  // file of this file system is still open for writing.
  void LosePower();
  // What LosePower did, one line per change, for a failing test's message.
  const std::vector<std::string>& losses() const { return losses_; }

  // --- rocksdb::FileSystem ---
  rocksdb::IOStatus NewWritableFile(
      const std::string& path, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& path, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& path, const std::string& old_path,
      const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewRandomRWFile(
      const std::string& path, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSRandomRWFile>* result,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewDirectory(const std::string& path,
                                 const rocksdb::IOOptions& options,
                                 std::unique_ptr<rocksdb::FSDirectory>* result,
                                 rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus CreateDir(const std::string& path,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus CreateDirIfMissing(const std::string& path,
                                       const rocksdb::IOOptions& options,
                                       rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus DeleteFile(const std::string& path,
                               const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus DeleteDir(const std::string& path,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus Truncate(const std::string& path, size_t size,
                             const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus RenameFile(const std::string& from, const std::string& to,
                               const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus LinkFile(const std::string& from, const std::string& to,
                             const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override;

  // --- for the file and directory wrappers (power_loss_fs.cpp) ---
  // Runs the mutating call `call(live)` under the mutex; `live` is false
  // once the power is cut (then the call's effects must not be recorded as
  // durable). `call` may call the *Locked functions.
  template <typename Call>
  rocksdb::IOStatus Guarded(Call call) {
    std::lock_guard<std::mutex> lock(mu_);
    return call(MutateLocked());
  }
  // The file `path` (written through this file system) is durable up to
  // `size` bytes. REQUIRES: mu_ held (inside Guarded).
  void NoteSyncedLocked(const std::string& path, uint64_t size);
  // The entries of directory `dir` made so far are durable.
  // REQUIRES: mu_ held (inside Guarded).
  void NoteDirectorySyncedLocked(const std::string& dir);

 private:
  // An entry of a directory made since its last fsync.
  struct NewEntry {
    // A rename's source, when the source name was durable: it comes back.
    std::optional<std::string> renamed_from;
    // The content the target had durably before a rename or a new file
    // replaced it; nullopt when the name was new.
    std::optional<std::string> old_content;
  };

  // Counts one mutating call; false once the power is cut.
  bool MutateLocked();
  bool Exists(const std::string& path);
  // Whether `path`'s entry is durable in its parent (not a NewEntry).
  bool EntryDurable(const std::string& path) const;
  // The bytes of `path` that are durable now (its synced prefix).
  std::string DurableContent(const std::string& path) const;
  // Gives `to` the synced length tracked for `from`; false (and nothing
  // changed) when `from` is untracked, that is durable whole.
  // REQUIRES: mu_ held (inside Guarded).
  bool CarrySyncedLength(const std::string& from, const std::string& to);
  // Records a new entry at `path`; an entry made there before and not yet
  // synced keeps the old durable content it recorded.
  void NoteNewEntry(const std::string& path, NewEntry entry);

  std::unique_ptr<rocksdb::Env> env_;
  mutable std::mutex mu_;
  bool powered_ = true;
  int64_t calls_left_ = -1;  // -1: no cut planned.
  int64_t calls_ = 0;
  // Files written through this file system: durable size.
  std::map<std::string, uint64_t> synced_;
  // dir -> name -> entry made since the dir's last fsync.
  std::map<std::string, std::map<std::string, NewEntry>> new_entries_;
  std::vector<std::string> losses_;
};

}  // namespace rockpoint::testing
