#include "engine/rocksdb/rocksdb_options.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <memory>

#include "engine/rocksdb/key_layout.h"

namespace rockpoint {
namespace {

// Extracts the first `Elements` tuple elements: (tag, thread, ns), or
// (tag, thread, ns, checkpoint_id) for writes. Keys with fewer whole
// elements are out of domain (no prefix bloom for them; scans over them use
// total order).
template <int Elements>
class TuplePrefixExtractor final : public rocksdb::SliceTransform {
 public:
  // Persisted in SST properties: changing it only disables the prefix
  // filters of older files.
  const char* Name() const override {
    static_assert(Elements == 3 || Elements == 4);
    return Elements == 3 ? "rockpoint.TuplePrefix3" : "rockpoint.TuplePrefix4";
  }

  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    const auto length = rocksdb_layout::TuplePrefixLength(
        std::string_view(key.data(), key.size()), Elements);
    return rocksdb::Slice(key.data(), length.value_or(key.size()));
  }

  bool InDomain(const rocksdb::Slice& key) const override {
    return rocksdb_layout::TuplePrefixLength(
               std::string_view(key.data(), key.size()), Elements)
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

// What sets one family's options apart from the others'.
struct FamilySpec {
  size_t write_buffer_bytes = size_t{8} << 20;
  // The prefix extractor's element count (TuplePrefixExtractor); 0: none.
  int prefix_elements = 0;
  // Memtable insert hints by this transform's prefix; null: none. Needs
  // single-threaded memtable inserts (MakeRocksDbSetup).
  std::shared_ptr<const rocksdb::SliceTransform> insert_hint;
  // zstd (when supported) and, for values of at least blob_min_bytes (0:
  // never), blob files.
  bool compressed = false;
  uint64_t blob_min_bytes = 0;
  bool existing_wins = false;  // ExistingWinsMergeOperator
};

std::shared_ptr<const rocksdb::SliceTransform> TuplePrefix(int elements) {
  if (elements == 4) return std::make_shared<TuplePrefixExtractor<4>>();
  return std::make_shared<TuplePrefixExtractor<3>>();
}

rocksdb::ColumnFamilyOptions FamilyOptions(
    const std::shared_ptr<rocksdb::Cache>& cache, const FamilySpec& spec) {
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.whole_key_filtering = true;
  table.cache_index_and_filter_blocks = true;
  // Every table's index and filter blocks stay pinned in the cache while
  // the table is open, as RocksDB keeps them by default outside the cache:
  // a point read or seek then costs no cache lookup (and release) per
  // table for them, and they still count against the cache's capacity.
  table.metadata_cache_options.unpartitioned_pinning =
      rocksdb::PinningTier::kAll;
  table.format_version = 5;

  rocksdb::ColumnFamilyOptions family;
  family.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  family.write_buffer_size = spec.write_buffer_bytes;
  family.level_compaction_dynamic_level_bytes = true;
  family.memtable_insert_with_hint_prefix_extractor = spec.insert_hint;
  if (spec.prefix_elements > 0) {
    family.prefix_extractor = TuplePrefix(spec.prefix_elements);
    // Memtable bloom over prefixes and whole keys: the existence checks of
    // put (blob, record) and put_writes mostly miss.
    family.memtable_prefix_bloom_size_ratio = 0.02;
    family.memtable_whole_key_filtering = true;
  }
  if (spec.existing_wins) {
    family.merge_operator = std::make_shared<ExistingWinsMergeOperator>();
  }
  family.compression = rocksdb::kNoCompression;
  if (spec.compressed) {
    const bool zstd = ZstdSupported();
    family.compression = zstd ? rocksdb::kZSTD : rocksdb::kNoCompression;
    family.bottommost_compression = family.compression;
    if (spec.blob_min_bytes > 0) {
      family.enable_blob_files = true;
      family.min_blob_size = spec.blob_min_bytes;
      family.blob_compression_type = family.compression;
      family.enable_blob_garbage_collection = true;
      // Large values share the block cache: without it every read of a
      // blob-file value is a file read.
      family.blob_cache = cache;
    }
  }
  return family;
}

}  // namespace

RocksDbSetup MakeRocksDbSetup(const RocksDbOptions& options) {
  RocksDbSetup store;
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
  // No rocksdb::Statistics: its tickers cost every call; the figures of
  // `stats` come from WriteCounters.
  store.counters = std::make_shared<WriteCounters>();
  db.listeners.push_back(store.counters);

  auto cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  constexpr size_t kLargeBuffer = size_t{32} << 20;
  const uint64_t blob_min = options.blob_file_min_bytes;
  // Memtable insert hints: a (thread, ns) of checkpoints or writes grows at
  // its end, so each insert goes next to the previous one of its (thread,
  // ns). A put of several channels inserts at one place per channel, so
  // blobs hint by (thread, ns, channel). Range-deletion begin keys ("tag",
  // thread) are out of the extractors' domains (see IndexHintExtractor).
  const auto by_namespace = TuplePrefix(3);
  store.families = {
      {rocksdb::kDefaultColumnFamilyName, FamilyOptions(cache, {})},
      {kCheckpointsFamily,
       FamilyOptions(cache, {.write_buffer_bytes = kLargeBuffer,
                             .prefix_elements = kPrefixElements,
                             .insert_hint = by_namespace})},
      {kBlobsFamily, FamilyOptions(cache, {.write_buffer_bytes = kLargeBuffer,
                                           .prefix_elements = kPrefixElements,
                                           .insert_hint = TuplePrefix(4),
                                           .compressed = true,
                                           .blob_min_bytes = blob_min,
                                           .existing_wins = true})},
      {kWritesFamily,
       FamilyOptions(cache, {.write_buffer_bytes = kLargeBuffer,
                             .prefix_elements = kWritesPrefixElements,
                             .insert_hint = by_namespace,
                             .compressed = true,
                             .blob_min_bytes = blob_min})},
      {kIndexFamily,
       FamilyOptions(cache,
                     {.insert_hint = std::make_shared<IndexHintExtractor>()})},
      {kMetaFamily, FamilyOptions(cache, {})},
  };
  return store;
}

}  // namespace rockpoint
