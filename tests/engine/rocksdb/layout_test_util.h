// Helpers of the RocksDB layout and store tests: opening a store with test
// options, reading a column family raw, key and batch inspection, and a raw
// RocksDB open of a closed store.
#pragma once

#include <doctest/doctest.h>
#include <rocksdb/db.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/transaction_log.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint::testing::layout_test {

inline std::unique_ptr<RocksDbCheckpointer> OpenAt(const std::string& path,
                                                   bool read_only = false,
                                                   uint64_t blob_min = 64
                                                                       << 10) {
  RocksDbOptions options;
  options.path = path;
  options.sync_writes = false;
  options.read_only = read_only;
  options.blob_file_min_bytes = blob_min;
  options.block_cache_bytes = 4 << 20;
  return Unwrap(RocksDbCheckpointer::Open(options));
}

// A chain cp0001..cp(n) in thread "t" over delta channel "m": the value
// "seed" stored at 1, then only version bumps; each checkpoint gets one
// write "<write_prefix><n>" of task "k", and `metadata`.
inline void PutSeededChain(Checkpointer& store, int n,
                           const std::string& write_prefix,
                           const Value& metadata = Value::MakeMap()) {
  for (int i = 1; i <= n; ++i) {
    DoPut(store,
          {.thread = "t",
           .id = CpId(i),
           .parent = i > 1 ? std::optional(CpId(i - 1)) : std::nullopt,
           .values = i == 1
                         ? std::map<std::string, TypedValue>{{"m", Val("seed")}}
                         : std::map<std::string, TypedValue>{},
           .versions = {{"m", int64_t{i}}},
           .metadata = metadata});
    DoWrites(store, "t", CpId(i), {W("m", write_prefix + std::to_string(i))},
             "k");
  }
}

inline keys::Tuple T(std::initializer_list<keys::Element> elements) {
  return keys::Tuple(elements);
}

inline std::string S(const char* text) { return std::string(text); }

// Every key of one column family of the open store, in order.
inline std::vector<std::string> KeysOf(RocksDbCheckpointer& store,
                                       rocksdb::ColumnFamilyHandle* family) {
  std::vector<std::string> keys;
  std::unique_ptr<rocksdb::Iterator> it(
      store.db->NewIterator(rocksdb::ReadOptions(), family));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  REQUIRE(it->status().ok());
  return keys;
}

// Every value of one column family of the open store, in key order.
inline std::vector<std::string> RawValuesOf(
    RocksDbCheckpointer& store, rocksdb::ColumnFamilyHandle* family) {
  std::vector<std::string> values;
  std::unique_ptr<rocksdb::Iterator> it(
      store.db->NewIterator(rocksdb::ReadOptions(), family));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    values.push_back(it->value().ToString());
  }
  REQUIRE(it->status().ok());
  return values;
}

inline std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

inline std::vector<std::string> Encoded(std::vector<keys::Tuple> tuples) {
  std::vector<std::string> keys;
  for (const keys::Tuple& tuple : tuples) keys.push_back(keys::Encode(tuple));
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Op counts of the write batches logged after sequence number `after`.
inline std::vector<uint32_t> BatchesSince(rocksdb::DB* db,
                                          rocksdb::SequenceNumber after) {
  std::vector<uint32_t> counts;
  if (db->GetLatestSequenceNumber() == after) return counts;
  std::unique_ptr<rocksdb::TransactionLogIterator> it;
  REQUIRE(db->GetUpdatesSince(after + 1, &it).ok());
  for (; it->Valid(); it->Next()) {
    rocksdb::BatchResult batch = it->GetBatch();
    counts.push_back(batch.writeBatchPtr->Count());
  }
  return counts;
}

// A raw RocksDB open of a closed store, every column family with default
// options.
struct RawDb {
  explicit RawDb(const std::string& path) {
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names)
                .ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const std::string& name : names)
      families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    rocksdb::DB* raw = nullptr;
    REQUIRE(
        rocksdb::DB::Open(rocksdb::DBOptions(), path, families, &handles, &raw)
            .ok());
    db.reset(raw);
    for (size_t i = 0; i < names.size(); ++i) by_name[names[i]] = handles[i];
  }
  ~RawDb() {
    for (auto* handle : handles) {
      db->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    }
  }
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::map<std::string, rocksdb::ColumnFamilyHandle*> by_name;
};

}  // namespace rockpoint::testing::layout_test
