#include "engine/rocksdb/write_counters.h"

namespace rockpoint {

void WriteCounters::OnCompactionCompleted(
    rocksdb::DB* /*db*/, const rocksdb::CompactionJobInfo& info) {
  if (!info.status.ok()) return;
  compaction_bytes_.fetch_add(
      info.stats.total_output_bytes + info.stats.total_output_bytes_blob,
      std::memory_order_relaxed);
}

}  // namespace rockpoint
