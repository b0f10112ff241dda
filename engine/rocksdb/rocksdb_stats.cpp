// Compact() and Stats(): maintenance and figures for `rockpoint stats`.

#include <filesystem>

#include "engine/backend_rules.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_options.h"

namespace rockpoint {

Status RocksDbCheckpointer::Compact() {
  if (db == nullptr) return StoreClosedError();
  RP_RETURN_IF_ERROR(CheckWritable());
  RP_RETURN_IF_ERROR(
      ToStatus(db->Flush(rocksdb::FlushOptions(),
                         {checkpoints, blobs, writes, index, meta}),
               "flush"));
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForceOptimized;
  for (rocksdb::ColumnFamilyHandle* family :
       {checkpoints, blobs, writes, index, meta}) {
    RP_RETURN_IF_ERROR(
        ToStatus(db->CompactRange(compact, family, nullptr, nullptr),
                 "compact " + family->GetName()));
  }
  return Status::OK();
}

Result<StoreStats> RocksDbCheckpointer::Stats() {
  if (db == nullptr) return StoreClosedError();
  StoreStats stats;
  for (rocksdb::ColumnFamilyHandle* family :
       {checkpoints, blobs, writes, index, meta}) {
    ColumnFamilyStats figures;
    figures.name = family->GetName();
    db->GetIntProperty(family, rocksdb::DB::Properties::kLiveSstFilesSize,
                       &figures.live_sst_bytes);
    db->GetIntProperty(family, rocksdb::DB::Properties::kLiveBlobFileSize,
                       &figures.blob_file_bytes);
    db->GetIntProperty(family, rocksdb::DB::Properties::kEstimateNumKeys,
                       &figures.estimated_keys);
    stats.column_families.push_back(std::move(figures));
  }
  std::error_code error;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(options.path, error)) {
    std::error_code size_error;
    if (entry.is_regular_file(size_error)) {
      const auto size = entry.file_size(size_error);
      if (!size_error) stats.total_disk_bytes += size;
    }
  }
  if (error) {
    return Status::IOError("stats: cannot list " + options.path + ": " +
                           error.message());
  }
  stats.bytes_written = counters->user_bytes();
  stats.compaction_bytes_written = counters->compaction_bytes();
  return stats;
}

}  // namespace rockpoint
