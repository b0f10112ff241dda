// The journal file of a JSONL store (POSIX): opened exclusively (flock) or
// read-only, appended to, synced, cut back, and replaced atomically.
//
// The lock is an flock() on the journal itself. A replacement (Replace) is
// locked before it is renamed over the journal, and Open checks that the
// file it locked is still the one at the path (retrying otherwise), so two
// read-write opens never both succeed, whatever compaction does meanwhile.
//
// Thread-safety: none; JsonlCheckpointer serializes calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::jsonl {

class JournalFile {
 public:
  enum class Mode { kReadOnly, kReadWrite };

  // Opens `path`. With kReadWrite, locks it (Busy if another open file
  // holds the lock) and, if it does not exist and `create` is set, creates
  // it holding `initial` (synced, and its directory synced). NotFound if it
  // does not exist and may not be created.
  static Result<std::unique_ptr<JournalFile>> Open(const std::string& path,
                                                   Mode mode, bool create,
                                                   std::string_view initial);
  ~JournalFile();
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;

  // The whole file as it is now.
  Result<std::string> ReadAll() const;
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

  // Appends `bytes`; on failure cuts the file back to its size before (so
  // no partial group stays behind when the cut succeeds).
  Status Append(std::string_view bytes);
  // fdatasync.
  Status Sync();
  // Cuts the file to `size` bytes and syncs it.
  Status Truncate(uint64_t size);
  // Replaces the file's content with `content` atomically: writes
  // PATH.compact, syncs it, locks it, renames it over PATH and syncs the
  // directory; then this object holds the new file.
  Status Replace(std::string_view content);

 private:
  JournalFile(std::string path, int fd, uint64_t size);

  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// The temporary file Replace writes (removed by a read-write Open).
std::string CompactionPath(const std::string& journal_path);

}  // namespace rockpoint::jsonl
