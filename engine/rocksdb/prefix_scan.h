// PrefixScan: the one way engine/rocksdb/ iterates over the keys under a
// prefix. It bounds a RocksDB iterator to [prefix, upper bound), walks it in
// ascending or descending key order, and hands out key and value views of
// the iterator's own (pinned) buffers: no copy per entry.
//
//   PrefixScan scan = backend.Scan(cf, read, prefix, ScanOrder::kReverse);
//   for (const PrefixScan::Entry& entry : scan) { ... entry.key() ... }
//   RP_RETURN_IF_ERROR(scan.status("what was being done"));
//
// An iterator that stops early on an error (I/O, corruption, Incomplete) is
// indistinguishable from one that ran off the prefix until status() is
// asked: every caller that reaches the end of a scan checks status().
//
// Thread-safety: a PrefixScan belongs to one thread at a time.
#pragma once

#include <rocksdb/db.h>

#include <memory>
#include <string>
#include <string_view>

#include "rockpoint/status.h"

namespace rockpoint {

// The key order a scan walks in; Next() moves one key along it.
enum class ScanOrder { kForward, kReverse };

class PrefixScan {
 public:
  // One entry of the scan. Its views point into the iterator and are valid
  // until the scan moves (Next, a seek) or is destroyed.
  class Entry {
   public:
    explicit Entry(const rocksdb::Iterator* it) : it_(it) {}
    std::string_view key() const { return it_->key().ToStringView(); }
    std::string_view value() const { return it_->value().ToStringView(); }

   private:
    const rocksdb::Iterator* it_;
  };

  // Range-for support: the scan's current entry until it is no longer
  // Valid(). Single pass; every Position of a scan is the same one.
  struct End {};
  class Position {
   public:
    explicit Position(PrefixScan* scan) : scan_(scan) {}
    Entry operator*() const { return Entry(scan_->it_.get()); }
    Position& operator++() {
      scan_->Next();
      return *this;
    }
    bool operator==(End) const { return !scan_->Valid(); }

   private:
    PrefixScan* scan_;
  };

  // What From() returns. Owns its target: a temporary one outlives the
  // range-for.
  class Suffix {
   public:
    Suffix(PrefixScan* scan, std::string target)
        : scan_(scan), target_(std::move(target)) {}
    Position begin() {
      scan_->SeekTo(target_);
      return Position(scan_);
    }
    End end() const { return {}; }

   private:
    PrefixScan* scan_;
    std::string target_;
  };

  // Iterates `cf` of `db` with `read` (its snapshot, fill_cache, readahead,
  // total_order_seek, ... kept as given), bounded by iterate_lower_bound =
  // `prefix` and iterate_upper_bound = keys::TuplePrefixUpperBound(prefix),
  // so every key seen starts with `prefix`. Unpositioned until a seek,
  // begin() or From().
  // REQUIRES: `db` and `cf` (and read.snapshot) outlive the scan.
  PrefixScan(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf,
             rocksdb::ReadOptions read, std::string prefix,
             ScanOrder order = ScanOrder::kForward);
  PrefixScan(PrefixScan&& other) noexcept = default;
  // The replaced iterator is destroyed before the bounds it points at.
  PrefixScan& operator=(PrefixScan&& other) noexcept;
  PrefixScan(const PrefixScan&) = delete;
  PrefixScan& operator=(const PrefixScan&) = delete;

  // Range-for over every key under the prefix: begin() seeks to the start.
  Position begin() {
    SeekToStart();
    return Position(this);
  }
  End end() const { return {}; }
  // Range-for over the keys from the first one at or after `target` in scan
  // order (see SeekTo) to the end of the prefix.
  Suffix From(std::string target) { return Suffix(this, std::move(target)); }

  // Positions at the first key in scan order: the smallest key under the
  // prefix (kForward), the largest (kReverse).
  void SeekToStart();
  // Positions at the first key at or after `target` in scan order: the
  // smallest key >= target (kForward), the largest key <= target (kReverse).
  void SeekTo(std::string_view target);
  bool Valid() const { return it_->Valid(); }
  // Moves to the next key in scan order. REQUIRES: Valid().
  void Next() {
    if (order_ == ScanOrder::kForward) {
      it_->Next();
    } else {
      it_->Prev();
    }
  }
  // REQUIRES: Valid(). Valid until the scan moves.
  std::string_view key() const { return it_->key().ToStringView(); }
  std::string_view value() const { return it_->value().ToStringView(); }

  const std::string& prefix() const { return bounds_->prefix; }
  // The exclusive upper bound: every key under the prefix is below it.
  const std::string& upper_bound() const { return bounds_->upper; }
  ScanOrder order() const { return order_; }

  // The iterator's error, `context` naming what was being done; OK when it
  // is positioned or simply ran off the prefix.
  Status status(std::string_view context) const;

 private:
  // Heap-allocated so that a PrefixScan can move while its iterator keeps
  // pointing at the bounds.
  struct Bounds {
    std::string prefix;
    std::string upper;
    rocksdb::Slice lower_slice;
    rocksdb::Slice upper_slice;
  };

  // Declared before it_: destroyed after the iterator that points at them.
  std::unique_ptr<Bounds> bounds_;
  std::unique_ptr<rocksdb::Iterator> it_;
  ScanOrder order_;
};

}  // namespace rockpoint
