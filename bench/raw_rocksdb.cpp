// The one bench file with RocksDB headers (see raw_rocksdb.h).
#include "bench/raw_rocksdb.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include "keys/tuple.h"

namespace rockpoint::bench {
namespace {

Status Translate(const rocksdb::Status& status, std::string_view what) {
  if (status.ok()) return Status::OK();
  if (status.IsNotFound()) return Status::NotFound(std::string(what));
  return Status::IOError(std::string(what) + ": " + status.ToString());
}

}  // namespace

struct RawRocksDb::Impl {
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::WriteOptions write;
};

RawRocksDb::RawRocksDb(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RawRocksDb::~RawRocksDb() = default;

Result<std::unique_ptr<RawRocksDb>> RawRocksDb::Open(const std::string& path,
                                                     bool sync_writes) {
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* db = nullptr;
  RP_RETURN_IF_ERROR(
      Translate(rocksdb::DB::Open(options, path, &db), "raw open " + path));
  auto impl = std::make_unique<Impl>();
  impl->db.reset(db);
  impl->write.sync = sync_writes;
  return std::unique_ptr<RawRocksDb>(new RawRocksDb(std::move(impl)));
}

Status RawRocksDb::Put(std::string_view key, std::string_view value) {
  return Translate(
      impl_->db->Put(impl_->write, rocksdb::Slice(key.data(), key.size()),
                     rocksdb::Slice(value.data(), value.size())),
      "raw put");
}

Status RawRocksDb::Get(std::string_view key, std::string* value) {
  return Translate(
      impl_->db->Get(rocksdb::ReadOptions(),
                     rocksdb::Slice(key.data(), key.size()), value),
      "raw get");
}

Status RawRocksDb::GetLastWithPrefix(std::string_view prefix,
                                     std::string* value) {
  const std::string upper = keys::TuplePrefixUpperBound(prefix);
  const rocksdb::Slice lower_slice(prefix.data(), prefix.size());
  const rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions read;
  read.iterate_lower_bound = &lower_slice;
  read.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read));
  it->SeekForPrev(upper_slice);
  if (!it->Valid()) {
    RP_RETURN_IF_ERROR(Translate(it->status(), "raw seek"));
    return Status::NotFound("raw seek: no key under prefix");
  }
  value->assign(it->value().data(), it->value().size());
  return Status::OK();
}

Status RawRocksDb::Compact() {
  RP_RETURN_IF_ERROR(
      Translate(impl_->db->Flush(rocksdb::FlushOptions()), "raw flush"));
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForceOptimized;
  return Translate(impl_->db->CompactRange(compact, nullptr, nullptr),
                   "raw compact");
}

}  // namespace rockpoint::bench
