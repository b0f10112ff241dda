// Helpers shared by every operation of the RocksDB backend: status
// translation, bounded scans, stripe locks, the write path.
#include <functional>
#include <set>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_options.h"
#include "keys/tuple.h"
#include "serde/checkpoint_record_view.h"

namespace rockpoint {

Status ToStatus(const rocksdb::Status& status, std::string_view context) {
  if (status.ok()) return Status::OK();
  std::string message = std::string(context) + ": " + status.ToString();
  switch (status.code()) {
    case rocksdb::Status::kNotFound:
      return Status::NotFound(std::move(message));
    case rocksdb::Status::kCorruption:
      return Status::Corruption(std::move(message));
    case rocksdb::Status::kInvalidArgument:
    case rocksdb::Status::kNotSupported:
      return Status::InvalidArgument(std::move(message));
    case rocksdb::Status::kBusy:
    case rocksdb::Status::kTimedOut:
    case rocksdb::Status::kTryAgain:
      return Status::Busy(std::move(message));
    case rocksdb::Status::kAborted:
    case rocksdb::Status::kShutdownInProgress:
    case rocksdb::Status::kIncomplete:
      return Status::Aborted(std::move(message));
    case rocksdb::Status::kIOError: {
      // The LOCK file is held: by this process ("lock hold by current
      // process") or another one (flock's EAGAIN/EWOULDBLOCK).
      const std::string text = status.ToString();
      if (text.find("lock hold by current process") != std::string::npos ||
          text.find("Resource temporarily unavailable") != std::string::npos) {
        return Status::Busy(std::move(message));
      }
      return Status::IOError(std::move(message));
    }
    default:
      return Status::IOError(std::move(message));
  }
}

StripedLocks::Guard StripedLocks::Lock(
    const std::vector<std::string_view>& threads) {
  std::set<size_t> stripes;
  for (std::string_view thread : threads) {
    stripes.insert(std::hash<std::string_view>{}(thread) % kStripes);
  }
  Guard guard;
  guard.reserve(stripes.size());
  for (size_t stripe : stripes) guard.emplace_back(mutexes_[stripe]);
  return guard;
}

StripedLocks::Guard StripedLocks::LockAll() {
  Guard guard;
  guard.reserve(kStripes);
  for (std::mutex& mutex : mutexes_) guard.emplace_back(mutex);
  return guard;
}

RocksDbCheckpointer::Impl::~Impl() {
  if (db == nullptr) return;
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    db->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
  }
  handles.clear();
  db->Close().PermitUncheckedError();
  db.reset();
}

Status RocksDbCheckpointer::Impl::CheckWritable() const {
  if (options.read_only) {
    return Status::InvalidArgument("store opened read-only: " + options.path);
  }
  return Status::OK();
}

Status RocksDbCheckpointer::Impl::Write(rocksdb::WriteBatch& batch,
                                        std::string_view context) {
  if (batch.Count() == 0) return Status::OK();
  rocksdb::WriteOptions write;
  write.sync = options.sync_writes;
  return ToStatus(db->Write(write, &batch), context);
}

PrefixScan RocksDbCheckpointer::Impl::Scan(rocksdb::ColumnFamilyHandle* cf,
                                           const rocksdb::ReadOptions& read,
                                           std::string prefix,
                                           ScanOrder order) const {
  rocksdb::ReadOptions options = read;
  const bool has_extractor = cf == checkpoints || cf == blobs || cf == writes;
  // Prefix seek is exact only when the seek targets share the extractor's
  // prefix, i.e. the scan prefix holds at least its elements.
  options.total_order_seek =
      !has_extractor ||
      !rocksdb_layout::TuplePrefixLength(prefix, kPrefixElements).has_value();
  return PrefixScan(db.get(), cf, std::move(options), std::move(prefix), order);
}

Result<serde::CheckpointRecord> RocksDbCheckpointer::Impl::DecodeRecordAt(
    std::string_view key, std::string_view value) {
  auto record = serde::DecodeCheckpointRecordDirect(value);
  if (!record.ok()) {
    return rocksdb_layout::CorruptionAt("checkpoint record", key,
                                        record.status());
  }
  return std::move(record).value();
}

std::optional<std::string> IndexedRunId(const Metadata& metadata) {
  const Value* run_id = metadata.Find("run_id");
  if (run_id == nullptr || !run_id->is_string()) return std::nullopt;
  return run_id->as_string();
}

}  // namespace rockpoint
