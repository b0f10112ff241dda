#include "engine/rocksdb/hidden_counts.h"

#include <map>
#include <string>
#include <utility>

#include "engine/rocksdb/key_layout.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

Result<uint64_t> ReadHiddenCount(const RocksDbCheckpointer& backend,
                                 const rocksdb::ReadOptions& read,
                                 std::string_view thread, std::string_view ns) {
  const std::string key = layout::HiddenCountKey(thread, ns);
  rocksdb::PinnableSlice value;
  const rocksdb::Status status =
      backend.db->Get(read, backend.index, key, &value);
  if (status.IsNotFound()) return uint64_t{0};
  RP_RETURN_IF_ERROR(ToStatus(status, "read hidden count"));
  return layout::DecodeHiddenCount(key, value.ToStringView());
}

void SetHiddenCount(const RocksDbCheckpointer& backend,
                    rocksdb::WriteBatch& batch, std::string_view thread,
                    std::string_view ns, uint64_t count) {
  const std::string key = layout::HiddenCountKey(thread, ns);
  if (count == 0) {
    batch.Delete(backend.index, key);
  } else {
    batch.Put(backend.index, key, layout::EncodeHiddenCount(count));
  }
}

Status AddEveryHiddenCount(const RocksDbCheckpointer& backend,
                           const rocksdb::ReadOptions& read,
                           rocksdb::WriteBatch& batch) {
  std::map<std::pair<std::string, std::string>, uint64_t> counts;
  PrefixScan scan =
      backend.Scan(backend.index, read, layout::TagPrefix(layout::kHiddenTag));
  for (PrefixScan::Entry entry : scan) {
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseHiddenKey(entry.key()));
    ++counts[{std::move(parts.thread), std::move(parts.ns)}];
  }
  RP_RETURN_IF_ERROR(scan.status("count hidden checkpoints"));
  for (const auto& [thread_ns, count] : counts) {
    SetHiddenCount(backend, batch, thread_ns.first, thread_ns.second, count);
  }
  return Status::OK();
}

}  // namespace rockpoint
