#include "engine/rocksdb/rocksdb_options.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <memory>

#include "engine/rocksdb/key_layout.h"

namespace rockpoint {
namespace {

// Extracts the tuple prefix (tag, thread, ns): the first kPrefixElements
// elements. Keys with fewer whole elements are out of domain (no prefix
// bloom for them; scans over them use total order).
class TuplePrefixExtractor final : public rocksdb::SliceTransform {
 public:
  // Persisted in SST properties: changing it only disables the prefix
  // filters of older files.
  const char* Name() const override { return "rockpoint.TuplePrefix3"; }

  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    const auto length = rocksdb_layout::TuplePrefixLength(
        std::string_view(key.data(), key.size()), kPrefixElements);
    return rocksdb::Slice(key.data(), length.value_or(key.size()));
  }

  bool InDomain(const rocksdb::Slice& key) const override {
    return rocksdb_layout::TuplePrefixLength(
               std::string_view(key.data(), key.size()), kPrefixElements)
        .has_value();
  }
};

// Memtable insert hints for the index family: ("ts") for the global order
// (checkpoint ids mostly grow), ("tag", first id) for th, run and hd keys.
class IndexHintExtractor final : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "rockpoint.IndexHint"; }

  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    static const std::string* const kTsTag = new std::string(
        rocksdb_layout::TagPrefix(rocksdb_layout::kTimestampTag));
    const std::string_view bytes(key.data(), key.size());
    const int elements = bytes.starts_with(*kTsTag) ? 1 : 2;
    const auto length = rocksdb_layout::TuplePrefixLength(bytes, elements);
    return rocksdb::Slice(key.data(), length.value_or(key.size()));
  }

  // Whole keys only (3+ elements). RocksDB 7.8 shares the hints between
  // the point and the range-deletion memtables, so the begin key of a range
  // deletion (delete_thread's ("tag", thread)) must stay out of domain.
  bool InDomain(const rocksdb::Slice& key) const override {
    return rocksdb_layout::TuplePrefixLength(
               std::string_view(key.data(), key.size()), 3)
        .has_value();
  }
};

// "Existing value wins" (the blobs family): the value of a key is its base
// value (the last Put) if it has one, else its first Merge operand. Put
// writes blobs blind with Merge, so a stored blob is never replaced without
// a read. Operands are BlobRecords and compaction folds them into plain
// values, so the stored format is unchanged; a store holding unfolded
// operands needs this operator (the same name) to be read.
class ExistingWinsMergeOperator final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return "rockpoint.ExistingWins"; }

  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override {
    merge_out->existing_operand = merge_in.existing_value != nullptr
                                      ? *merge_in.existing_value
                                      : merge_in.operand_list.front();
    return true;
  }

  bool PartialMerge(const rocksdb::Slice& /*key*/,
                    const rocksdb::Slice& left_operand,
                    const rocksdb::Slice& /*right_operand*/,
                    std::string* new_value,
                    rocksdb::Logger* /*logger*/) const override {
    new_value->assign(left_operand.data(), left_operand.size());
    return true;
  }

  bool PartialMergeMulti(const rocksdb::Slice& /*key*/,
                         const std::deque<rocksdb::Slice>& operand_list,
                         std::string* new_value,
                         rocksdb::Logger* /*logger*/) const override {
    new_value->assign(operand_list.front().data(), operand_list.front().size());
    return true;
  }
};

bool ZstdSupported() {
  const auto supported = rocksdb::GetSupportedCompressions();
  return std::find(supported.begin(), supported.end(), rocksdb::kZSTD) !=
         supported.end();
}

rocksdb::ColumnFamilyOptions FamilyOptions(
    const std::shared_ptr<rocksdb::Cache>& cache, bool prefixed,
    bool compressed, uint64_t blob_min_bytes, size_t write_buffer_bytes,
    bool hint_index = false, bool hint_prefix = true,
    bool existing_wins = false) {
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.whole_key_filtering = true;
  table.cache_index_and_filter_blocks = true;
  table.pin_l0_filter_and_index_blocks_in_cache = true;
  table.format_version = 5;

  rocksdb::ColumnFamilyOptions family;
  family.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  family.write_buffer_size = write_buffer_bytes;
  family.level_compaction_dynamic_level_bytes = true;
  if (hint_index) {
    family.memtable_insert_with_hint_prefix_extractor =
        std::make_shared<IndexHintExtractor>();
  }
  if (prefixed) {
    family.prefix_extractor = std::make_shared<TuplePrefixExtractor>();
    // Memtable bloom over prefixes and whole keys: the existence checks of
    // put (blob, record) and put_writes mostly miss.
    family.memtable_prefix_bloom_size_ratio = 0.02;
    family.memtable_whole_key_filtering = true;
    // A (thread, ns) of checkpoints or writes grows at its end: insert next
    // to the last key. Not for blobs: a put of several channels inserts at
    // one place per channel, which invalidates the hint each time (a
    // recomputed hint costs more than a plain insert). Range deletion begin
    // keys ("tag", thread) are out of the extractor's domain (see
    // IndexHintExtractor).
    if (hint_prefix) {
      family.memtable_insert_with_hint_prefix_extractor =
          family.prefix_extractor;
    }
  }
  if (existing_wins) {
    family.merge_operator = std::make_shared<ExistingWinsMergeOperator>();
  }
  if (compressed) {
    const bool zstd = ZstdSupported();
    family.compression = zstd ? rocksdb::kZSTD : rocksdb::kNoCompression;
    family.bottommost_compression = family.compression;
    if (blob_min_bytes > 0) {
      family.enable_blob_files = true;
      family.min_blob_size = blob_min_bytes;
      family.blob_compression_type = family.compression;
      family.enable_blob_garbage_collection = true;
      // Large values share the block cache: without it every read of a
      // blob-file value is a file read.
      family.blob_cache = cache;
    }
  } else {
    family.compression = rocksdb::kNoCompression;
  }
  return family;
}

}  // namespace

StoreOptions MakeStoreOptions(const RocksDbOptions& options) {
  StoreOptions store;
  rocksdb::DBOptions& db = store.db;
  db.create_if_missing = options.create_if_missing;
  db.create_missing_column_families = true;
  db.max_background_jobs = 2;
  // Memtable insert hints (below) need single-threaded memtable inserts;
  // with them a put's four to six inserts land next to the previous put's,
  // which costs less than parallel inserts from scratch. Group commit (one
  // WAL write and fsync for concurrent writers) is unaffected.
  db.allow_concurrent_memtable_write = false;
  db.bytes_per_sync = 1 << 20;
  db.keep_log_file_num = 4;
  db.max_total_wal_size = uint64_t{256} << 20;
  db.statistics = rocksdb::CreateDBStatistics();
  db.statistics->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);

  auto cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  constexpr size_t kLargeBuffer = size_t{32} << 20;
  constexpr size_t kSmallBuffer = size_t{8} << 20;
  const uint64_t blob_min = options.blob_file_min_bytes;
  store.families = {
      {rocksdb::kDefaultColumnFamilyName,
       FamilyOptions(cache, false, false, 0, kSmallBuffer)},
      {kCheckpointsFamily, FamilyOptions(cache, true, false, 0, kLargeBuffer)},
      {kBlobsFamily, FamilyOptions(cache, true, true, blob_min, kLargeBuffer,
                                   /*hint_index=*/false,
                                   /*hint_prefix=*/false,
                                   /*existing_wins=*/true)},
      {kWritesFamily, FamilyOptions(cache, true, true, blob_min, kLargeBuffer)},
      {kIndexFamily, FamilyOptions(cache, false, false, 0, kSmallBuffer,
                                   /*hint_index=*/true)},
      {kMetaFamily, FamilyOptions(cache, false, false, 0, kSmallBuffer)},
  };
  return store;
}

}  // namespace rockpoint
