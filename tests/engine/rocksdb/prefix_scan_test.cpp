// Tests of engine/rocksdb/prefix_scan.h on a plain RocksDB database: the
// keys a scan yields in both orders (the prefix's own key included, keys
// just outside it excluded, 0xff bytes at the bound), empty ranges,
// positioning, moves, and an iterator error surfacing as a Status.
#include "engine/rocksdb/prefix_scan.h"

#include <doctest/doctest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"

namespace rockpoint::testing {
namespace {

using namespace std::string_literals;

// A database in a fresh directory holding `keys` (value: "v" + key),
// flushed to an SST file.
class Database {
 public:
  explicit Database(const std::vector<std::string>& keys) {
    Open();
    for (const std::string& key : keys) {
      REQUIRE(db_->Put(rocksdb::WriteOptions(), key, "v" + key).ok());
    }
    REQUIRE(db_->Flush(rocksdb::FlushOptions()).ok());
  }

  // Closes and opens the database again: the block cache starts empty.
  void Reopen() {
    db_.reset();
    Open();
  }

  PrefixScan Scan(std::string prefix, ScanOrder order,
                  rocksdb::ReadOptions read = rocksdb::ReadOptions()) {
    return PrefixScan(db_.get(), db_->DefaultColumnFamily(), std::move(read),
                      std::move(prefix), order);
  }

 private:
  void Open() {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* db = nullptr;
    REQUIRE(rocksdb::DB::Open(options, dir_.path(), &db).ok());
    db_.reset(db);
  }

  TempDir dir_;
  std::unique_ptr<rocksdb::DB> db_;
};

// Every key the range-for yields; REQUIREs each value to match its key and
// the scan to end without error.
std::vector<std::string> Keys(PrefixScan& scan) {
  std::vector<std::string> keys;
  for (PrefixScan::Entry entry : scan) {
    REQUIRE(entry.value() == "v" + std::string(entry.key()));
    keys.emplace_back(entry.key());
  }
  RP_REQUIRE_OK(scan.status("test scan"));
  return keys;
}

std::vector<std::string> Reversed(std::vector<std::string> keys) {
  std::reverse(keys.begin(), keys.end());
  return keys;
}

// Around the prefix "b\x01": keys just before it, the prefix itself, keys
// under it, its upper bound "b\x01\xff" and keys past it.
const std::vector<std::string> kAroundB = {"a"s,
                                           "b"s,
                                           "b\x00\xff"s,
                                           "b\x01"s,
                                           "b\x01\x00"s,
                                           "b\x01\x01x"s,
                                           "b\x01\xfe\xff"s,
                                           "b\x01\xff"s,
                                           "b\x01\xff\x00"s,
                                           "b\x02"s,
                                           "c"s};
const std::vector<std::string> kUnderB = {"b\x01"s, "b\x01\x00"s, "b\x01\x01x"s,
                                          "b\x01\xfe\xff"s};

TEST_CASE("PrefixScan yields exactly the keys under the prefix, in order") {
  Database db(kAroundB);
  PrefixScan forward = db.Scan("b\x01"s, ScanOrder::kForward);
  CHECK(Keys(forward) == kUnderB);
  PrefixScan reverse = db.Scan("b\x01"s, ScanOrder::kReverse);
  CHECK(Keys(reverse) == Reversed(kUnderB));
  // A second pass starts over.
  CHECK(Keys(forward) == kUnderB);
  CHECK(forward.prefix() == "b\x01"s);
  CHECK(forward.upper_bound() == "b\x01\xff"s);
}

TEST_CASE("PrefixScan: a prefix ending in 0xff bytes") {
  Database db({"c\xfe\xff"s, "c\xff"s, "c\xff\x00"s, "c\xff\xfe\xff"s,
               "c\xff\xff"s, "c\xff\xff\xff"s, "d"s});
  const std::vector<std::string> under = {"c\xff"s, "c\xff\x00"s,
                                          "c\xff\xfe\xff"s};
  PrefixScan forward = db.Scan("c\xff"s, ScanOrder::kForward);
  CHECK(Keys(forward) == under);
  PrefixScan reverse = db.Scan("c\xff"s, ScanOrder::kReverse);
  CHECK(Keys(reverse) == Reversed(under));
}

TEST_CASE("PrefixScan: an empty range yields nothing, without error") {
  Database db(kAroundB);
  for (const std::string& prefix : {"b\x00"s, "bb"s, "\xff"s, "zz"s}) {
    CAPTURE(prefix);
    for (ScanOrder order : {ScanOrder::kForward, ScanOrder::kReverse}) {
      PrefixScan scan = db.Scan(prefix, order);
      CHECK(Keys(scan).empty());
      scan.SeekToStart();
      CHECK_FALSE(scan.Valid());
      RP_REQUIRE_OK(scan.status("empty"));
    }
  }
}

TEST_CASE("PrefixScan: the empty prefix covers every key below 0xff") {
  Database db({"\x00"s, "a"s, "\xfe\xff"s, "\xff"s, "\xff\x01"s});
  PrefixScan scan = db.Scan("", ScanOrder::kForward);
  CHECK(Keys(scan) == std::vector<std::string>{"\x00"s, "a"s, "\xfe\xff"s});
}

TEST_CASE("PrefixScan: SeekTo and From position in scan order") {
  Database db(kAroundB);
  PrefixScan forward = db.Scan("b\x01"s, ScanOrder::kForward);
  forward.SeekTo("b\x01\x00\x01"s);  // between two keys: the next one up
  REQUIRE(forward.Valid());
  CHECK(forward.key() == "b\x01\x01x"s);
  forward.Next();
  CHECK(forward.key() == "b\x01\xfe\xff"s);
  forward.Next();
  CHECK_FALSE(forward.Valid());  // the bound, not "b\x01\xff"

  PrefixScan reverse = db.Scan("b\x01"s, ScanOrder::kReverse);
  reverse.SeekTo("b\x01\x00\x01"s);  // between two keys: the next one down
  REQUIRE(reverse.Valid());
  CHECK(reverse.key() == "b\x01\x00"s);
  reverse.Next();
  CHECK(reverse.key() == "b\x01"s);
  reverse.Next();
  CHECK_FALSE(reverse.Valid());  // the bound, not "b\x00\xff"

  std::vector<std::string> from;
  for (PrefixScan::Entry entry : reverse.From("b\x01\x01x"s)) {
    from.emplace_back(entry.key());
  }
  CHECK(from ==
        std::vector<std::string>{"b\x01\x01x"s, "b\x01\x00"s, "b\x01"s});
  RP_REQUIRE_OK(reverse.status("from"));
}

TEST_CASE("PrefixScan: a moved scan keeps its bounds") {
  Database db(kAroundB);
  PrefixScan original = db.Scan("b\x01"s, ScanOrder::kForward);
  PrefixScan moved(std::move(original));
  CHECK(Keys(moved) == kUnderB);
  PrefixScan assigned = db.Scan("a"s, ScanOrder::kForward);
  assigned = std::move(moved);
  CHECK(Keys(assigned) == kUnderB);
}

TEST_CASE("PrefixScan: an iterator error surfaces as a Status") {
  Database db(kAroundB);
  db.Reopen();  // nothing in the block cache, nothing in the memtable
  rocksdb::ReadOptions cache_only;
  cache_only.read_tier = rocksdb::kBlockCacheTier;  // Incomplete on a miss
  for (ScanOrder order : {ScanOrder::kForward, ScanOrder::kReverse}) {
    PrefixScan scan = db.Scan("b\x01"s, order, cache_only);
    size_t seen = 0;
    for (PrefixScan::Entry entry [[maybe_unused]] : scan) ++seen;
    CHECK(seen == 0);
    const Status status = scan.status("cold read");
    CHECK_FALSE(status.ok());
    CHECK(status.code() == StatusCode::kAborted);
    CHECK(status.message().find("cold read: ") == 0);
  }
}

}  // namespace
}  // namespace rockpoint::testing
