// The journal file: open and lock, append, sync, replace (journal_file.h).
#include "engine/jsonl/journal_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "base/durable_file.h"

namespace rockpoint::jsonl {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path + ": " + std::strerror(errno));
}

// Writes all of `bytes` at the end of fd.
Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return Status::OK();
}

// Locks fd exclusively without waiting.
Status Lock(int fd, const std::string& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return Status::OK();
  if (errno == EWOULDBLOCK) {
    return Status::Busy("journal " + path + " is open read-write elsewhere");
  }
  return Errno("cannot lock", path);
}

// True if fd is still the file at `path` (not replaced since it was opened).
bool StillAtPath(int fd, const std::string& path) {
  struct stat open_file, at_path;
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &at_path) == 0 &&
         open_file.st_dev == at_path.st_dev &&
         open_file.st_ino == at_path.st_ino;
}

// Creates `path` exclusively holding `initial`, synced with its directory,
// and returns its locked descriptor, or nullopt if it exists (another
// process created it first).
Result<std::optional<int>> Create(const std::string& path,
                                  std::string_view initial) {
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return std::optional<int>();
    return Errno("cannot create", path);
  }
  Status status = Lock(fd, path);
  if (status.ok()) status = WriteAll(fd, initial, path);
  if (status.ok() && ::fdatasync(fd) != 0) status = Errno("cannot sync", path);
  if (status.ok()) status = SyncParentDirectory(path);
  if (!status.ok()) {
    ::close(fd);
    return status;
  }
  return std::optional<int>(fd);
}

}  // namespace

std::string CompactionPath(const std::string& journal_path) {
  return journal_path + ".compact";
}

JournalFile::JournalFile(std::string path, int fd, uint64_t size)
    : path_(std::move(path)), fd_(fd), size_(size) {}

JournalFile::~JournalFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::unique_ptr<JournalFile>> JournalFile::Open(
    const std::string& path, Mode mode, bool create, std::string_view initial) {
  const bool writable = mode == Mode::kReadWrite;
  // A replacement renamed over the path between open and flock leaves us
  // holding the old file; retry on the new one (bounded: each retry means
  // another process finished a compaction meanwhile).
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
      if (!writable || !create) {
        return Status::NotFound("journal " + path + " does not exist");
      }
      RP_ASSIGN_OR_RETURN(std::optional<int> created, Create(path, initial));
      if (!created) continue;
      return std::unique_ptr<JournalFile>(
          new JournalFile(path, *created, initial.size()));
    }
    if (fd < 0) return Errno("cannot open", path);
    Status status = writable ? Lock(fd, path) : Status::OK();
    if (status.ok() && writable && !StillAtPath(fd, path)) {
      ::close(fd);
      continue;
    }
    struct stat info;
    if (status.ok() && ::fstat(fd, &info) != 0)
      status = Errno("cannot stat", path);
    if (status.ok() && !S_ISREG(info.st_mode)) {
      status = Status::InvalidArgument(path + " is not a regular file");
    }
    if (!status.ok()) {
      ::close(fd);
      return status;
    }
    if (writable) ::unlink(CompactionPath(path).c_str());
    return std::unique_ptr<JournalFile>(
        new JournalFile(path, fd, static_cast<uint64_t>(info.st_size)));
  }
  return Status::Busy("journal " + path + " keeps being replaced");
}

Result<std::string> JournalFile::ReadAll() const {
  std::string content(size_, '\0');
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t got =
        ::pread(fd_, content.data() + done, content.size() - done,
                static_cast<off_t>(done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot read", path_);
    }
    if (got == 0) break;  // cut by someone else: read what is there.
    done += static_cast<size_t>(got);
  }
  content.resize(done);
  return content;
}

Status JournalFile::Append(std::string_view bytes) {
  if (::lseek(fd_, static_cast<off_t>(size_), SEEK_SET) < 0) {
    return Errno("cannot seek in", path_);
  }
  Status status = WriteAll(fd_, bytes, path_);
  if (!status.ok()) {
    // Best effort: a partial group left behind is a torn tail anyway.
    (void)::ftruncate(fd_, static_cast<off_t>(size_));
    return status;
  }
  size_ += bytes.size();
  return Status::OK();
}

Status JournalFile::Sync() {
  if (::fdatasync(fd_) != 0) return Errno("cannot sync", path_);
  return Status::OK();
}

Status JournalFile::Truncate(uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    return Errno("cannot truncate", path_);
  }
  size_ = size;
  return Sync();
}

Status JournalFile::Replace(std::string_view content) {
  const std::string temp = CompactionPath(path_);
  const int fd =
      ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", temp);
  Status status = WriteAll(fd, content, temp);
  if (status.ok() && ::fdatasync(fd) != 0) status = Errno("cannot sync", temp);
  if (status.ok()) status = Lock(fd, temp);
  if (status.ok() && ::rename(temp.c_str(), path_.c_str()) != 0) {
    status = Errno("cannot rename " + temp + " to", path_);
  }
  if (!status.ok()) {
    ::close(fd);
    ::unlink(temp.c_str());
    return status;
  }
  ::close(fd_);  // releases the old file's lock; the new one is held.
  fd_ = fd;
  size_ = content.size();
  return SyncParentDirectory(path_);
}

}  // namespace rockpoint::jsonl
