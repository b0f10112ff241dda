#include "engine/rocksdb/prefix_scan.h"

#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {

PrefixScan::PrefixScan(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf,
                       rocksdb::ReadOptions read, std::string prefix,
                       ScanOrder order)
    : bounds_(std::make_unique<Bounds>()), order_(order) {
  bounds_->upper = keys::TuplePrefixUpperBound(prefix);
  bounds_->prefix = std::move(prefix);
  bounds_->lower_slice = rocksdb::Slice(bounds_->prefix);
  bounds_->upper_slice = rocksdb::Slice(bounds_->upper);
  read.iterate_lower_bound = &bounds_->lower_slice;
  read.iterate_upper_bound = &bounds_->upper_slice;
  it_.reset(db->NewIterator(read, cf));
}

PrefixScan& PrefixScan::operator=(PrefixScan&& other) noexcept {
  it_ = std::move(other.it_);
  bounds_ = std::move(other.bounds_);
  order_ = other.order_;
  return *this;
}

void PrefixScan::SeekToStart() {
  if (order_ == ScanOrder::kForward) {
    it_->Seek(bounds_->lower_slice);
  } else {
    it_->SeekForPrev(bounds_->upper_slice);
  }
}

void PrefixScan::SeekTo(std::string_view target) {
  const rocksdb::Slice slice(target.data(), target.size());
  if (order_ == ScanOrder::kForward) {
    it_->Seek(slice);
  } else {
    it_->SeekForPrev(slice);
  }
}

Status PrefixScan::status(std::string_view context) const {
  return ToStatus(it_->status(), context);
}

}  // namespace rockpoint
