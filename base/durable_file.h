// Making file-system changes survive a power loss (POSIX): a file's data is
// durable once the file is fsynced, a new, renamed or removed directory
// entry once its parent directory is fsynced. Used wherever rockpoint
// creates a file or directory itself (a SQLite database file, the CLI's
// exports); RocksDB stores create their directory through the store's
// rocksdb::FileSystem instead (engine/rocksdb/rocksdb_open.cpp).
//
// Thread-safety: functions of paths only.
#pragma once

#include <string>

#include "rockpoint/status.h"

namespace rockpoint {

// The directory holding `path`'s entry: the path without its last component
// ("." for a bare name; trailing slashes ignored; "/" for "/x").
std::string ParentDirectory(const std::string& path);

// fsyncs the file (or directory) `path`. IOError naming it on failure.
Status SyncPath(const std::string& path);

// fsyncs ParentDirectory(path), making `path`'s entry in it durable.
Status SyncParentDirectory(const std::string& path);

// fsyncs every regular file in the directory `path` (not recursing), then
// the directory itself.
Status SyncDirectoryTree(const std::string& path);

// Swaps the entries `a` and `b` (files or directories, in one directory) in
// one atomic step (Linux renameat2 RENAME_EXCHANGE), then fsyncs their
// directory: every observer, and the disk after a crash, sees both old
// entries or both new ones. IOError naming them on failure (nothing moved).
Status ExchangePaths(const std::string& a, const std::string& b);

}  // namespace rockpoint
