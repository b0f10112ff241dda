// Helpers shared by every operation of the RocksDB backend: status
// translation, bounded scans, stripe locks, the write path.
#include <functional>
#include <set>

#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "engine/rocksdb/rocksdb_options.h"
#include "engine/rocksdb/shared_db.h"
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

// NO_THREAD_SAFETY_ANALYSIS: stripes are taken in a loop (see StripedLocks).
StripedLocks::Guard StripedLocks::Lock(
    const std::vector<std::string_view>& threads) NO_THREAD_SAFETY_ANALYSIS {
  std::set<size_t> stripes;
  for (std::string_view thread : threads) {
    stripes.insert(std::hash<std::string_view>{}(thread) % kStripes);
  }
  Guard guard;
  guard.held_.reserve(stripes.size());
  for (size_t stripe : stripes) {
    mutexes_[stripe].Lock();
    guard.held_.push_back(&mutexes_[stripe]);
  }
  return guard;
}

// NO_THREAD_SAFETY_ANALYSIS: stripes are taken in a loop (see StripedLocks).
StripedLocks::Guard StripedLocks::LockAll() NO_THREAD_SAFETY_ANALYSIS {
  Guard guard;
  guard.held_.reserve(kStripes);
  for (base::Mutex& mutex : mutexes_) {
    mutex.Lock();
    guard.held_.push_back(&mutex);
  }
  return guard;
}

// NO_THREAD_SAFETY_ANALYSIS: releases what Lock or LockAll took in a loop.
StripedLocks::Guard::~Guard() NO_THREAD_SAFETY_ANALYSIS {
  for (auto it = held_.rbegin(); it != held_.rend(); ++it) (*it)->Unlock();
}

RocksDbCheckpointer::~RocksDbCheckpointer() {
  Status ignored = Close();
  (void)ignored;
  // Busy: snapshots outlive the store, against TupleCursor's REQUIRES.
  (void)ReleaseSharedDb(db, kCheckpointStoreClaim);
}

Status RocksDbCheckpointer::DoClose() {
  if (db == nullptr) return Status::OK();
  // Only this store's snapshots count: an item store sharing the database
  // keeps its own.
  const uint64_t snapshots = live_snapshots.load(std::memory_order_relaxed);
  if (snapshots > 0) {
    return Status::Busy("cannot close " + options.path + ": " +
                        std::to_string(snapshots) +
                        " snapshots (cursors) are alive");
  }
  Status status;
  if (!options.read_only) status = ToStatus(db->SyncWAL(), "sync WAL");
  checkpoints = blobs = writes = index = meta = nullptr;
  Status closed = ReleaseSharedDb(db, kCheckpointStoreClaim);
  if (status.ok()) status = std::move(closed);
  return status;
}

Status RocksDbCheckpointer::CheckWritable() const {
  if (options.read_only) {
    return Status::InvalidArgument("store opened read-only: " + options.path);
  }
  return Status::OK();
}

Status RocksDbCheckpointer::Write(rocksdb::WriteBatch& batch,
                                  std::string_view context) {
  if (batch.Count() == 0) return Status::OK();
  rocksdb::WriteOptions write;
  write.sync = options.sync_writes;
  RP_RETURN_IF_ERROR(ToStatus(db->Write(write, &batch), context));
  counters->AddUserBytes(batch.GetDataSize());
  return Status::OK();
}

PrefixScan RocksDbCheckpointer::Scan(rocksdb::ColumnFamilyHandle* cf,
                                     const rocksdb::ReadOptions& read,
                                     std::string prefix,
                                     ScanOrder order) const {
  rocksdb::ReadOptions options = read;
  const int elements = cf == writes ? kWritesPrefixElements
                       : cf == checkpoints || cf == blobs ? kPrefixElements
                                                          : 0;
  // Prefix seek is exact only when the seek targets share the extractor's
  // prefix, i.e. the scan prefix holds at least its elements.
  options.total_order_seek =
      elements == 0 ||
      !rocksdb_layout::TuplePrefixLength(prefix, elements).has_value();
  return PrefixScan(db.get(), cf, std::move(options), std::move(prefix), order);
}

Result<serde::CheckpointRecord> RocksDbCheckpointer::DecodeRecordAt(
    std::string_view key, std::string_view value) const {
  std::string buffer;
  RP_ASSIGN_OR_RETURN(const std::string_view plain,
                      Plain(key, value, "checkpoint record", &buffer));
  auto record = serde::DecodeCheckpointRecordDirect(plain);
  if (!record.ok()) {
    return rocksdb_layout::CorruptionAt("checkpoint record", key,
                                        record.status());
  }
  return std::move(record).value();
}

Result<std::string> RocksDbCheckpointer::Stored(std::string_view key,
                                                std::string record) const {
  if (cipher == nullptr) return record;
  std::string sealed;
  RP_RETURN_IF_ERROR(cipher->Seal(key, record, &sealed));
  return sealed;
}

Result<std::string_view> RocksDbCheckpointer::Plain(std::string_view key,
                                                    std::string_view value,
                                                    std::string_view what,
                                                    std::string* buffer) const {
  if (cipher == nullptr) return value;
  RP_RETURN_IF_ERROR(cipher->Open(key, value, what, buffer));
  return std::string_view(*buffer);
}

Result<std::string> RocksDbCheckpointer::Resealed(std::string_view from,
                                                  std::string_view to,
                                                  std::string_view value,
                                                  std::string_view what) const {
  std::string buffer;
  RP_ASSIGN_OR_RETURN(const std::string_view plain,
                      Plain(from, value, what, &buffer));
  return Stored(to, std::string(plain));
}

std::optional<std::string> IndexedRunId(const Metadata& metadata) {
  const Value* run_id = metadata.Find("run_id");
  if (run_id == nullptr || !run_id->is_string()) return std::nullopt;
  return run_id->as_string();
}

}  // namespace rockpoint
