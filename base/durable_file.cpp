#include "base/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace rockpoint {

std::string ParentDirectory(const std::string& path) {
  size_t end = path.size();
  while (end > 1 && path[end - 1] == '/') --end;  // "dir/" names "dir"
  const size_t slash = path.rfind('/', end - 1);
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status SyncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::IOError("cannot open " + path +
                           " to sync it: " + std::strerror(errno));
  }
  const bool synced = ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!synced) {
    return Status::IOError("cannot sync " + path + ": " + std::strerror(error));
  }
  return Status::OK();
}

Status SyncParentDirectory(const std::string& path) {
  return SyncPath(ParentDirectory(path));
}

Status SyncDirectoryTree(const std::string& path) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (!entry.is_regular_file(error)) continue;
    RP_RETURN_IF_ERROR(SyncPath(entry.path().string()));
  }
  if (error) {
    return Status::IOError("cannot list " + path + ": " + error.message());
  }
  return SyncPath(path);
}

Status ExchangePaths(const std::string& a, const std::string& b) {
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) !=
      0) {
    return Status::IOError("cannot exchange " + a + " and " + b + ": " +
                           std::strerror(errno));
  }
  return SyncParentDirectory(a);
}

}  // namespace rockpoint
