// RawRocksDb: the baseline, a bare RocksDB database (default options, one
// column family) that stores the same serialized bytes rockpoint stores, as
// one plain Put per operation. It is the physical limit for the layout: what
// a put, a get by id and a "latest" reverse seek cost with no engine on top
// (no validation, no blob existence check, no index entries, no decoding).
// No RocksDB type appears here; bench/raw_rocksdb.cpp is the only bench file
// that includes RocksDB headers.
//
// Thread-safety: safe to call from many threads (RocksDB is).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint::bench {

class RawRocksDb {
 public:
  // Creates (or opens) a database in `path`; every write uses
  // WriteOptions.sync = sync_writes.
  static Result<std::unique_ptr<RawRocksDb>> Open(const std::string& path,
                                                  bool sync_writes);
  ~RawRocksDb();

  Status Put(std::string_view key, std::string_view value);
  // The value of `key` copied into *value; NotFound if absent.
  Status Get(std::string_view key, std::string* value);
  // The value of the greatest key that starts with the encoded tuple
  // `prefix` (one SeekForPrev over a bounded iterator); NotFound if none.
  Status GetLastWithPrefix(std::string_view prefix, std::string* value);
  // Flushes the memtable and compacts everything (as
  // RocksDbCheckpointer::Compact does), so reads come from table files.
  Status Compact();

 private:
  struct Impl;
  explicit RawRocksDb(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rockpoint::bench
