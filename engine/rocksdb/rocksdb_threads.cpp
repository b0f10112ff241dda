// list_threads: the ("th", thread, ns) index in thread order, paged; per
// namespace the visible checkpoint count (cp keys minus hd keys: key-only
// scans, no record decoded) and the latest visible checkpoint (one reverse
// seek, one record decoded).
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;
using Impl = RocksDbCheckpointer::Impl;

Result<uint64_t> CountKeys(const Impl& impl, rocksdb::ColumnFamilyHandle* cf,
                           const rocksdb::ReadOptions& read,
                           std::string prefix) {
  uint64_t count = 0;
  PrefixScan scan = impl.Scan(cf, read, std::move(prefix));
  for (PrefixScan::Entry entry [[maybe_unused]] : scan) ++count;
  RP_RETURN_IF_ERROR(scan.status("count checkpoints"));
  return count;
}

// Fills count and latest of `info`; count 0 when nothing is visible.
Status DescribeNamespace(const Impl& impl, const rocksdb::ReadOptions& read,
                         std::string_view thread, NamespaceInfo& info) {
  const std::string_view ns = info.checkpoint_ns;
  RP_ASSIGN_OR_RETURN(
      uint64_t records,
      CountKeys(impl, impl.checkpoints, read,
                layout::NamespacePrefix(layout::kCheckpointTag, thread, ns)));
  RP_ASSIGN_OR_RETURN(
      uint64_t hidden,
      CountKeys(impl, impl.index, read,
                layout::NamespacePrefix(layout::kHiddenTag, thread, ns)));
  info.checkpoint_count = records > hidden ? records - hidden : 0;
  if (info.checkpoint_count == 0) return Status::OK();

  PrefixScan scan =
      impl.Scan(impl.checkpoints, read,
                layout::NamespacePrefix(layout::kCheckpointTag, thread, ns),
                ScanOrder::kReverse);
  for (PrefixScan::Entry entry : scan) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto record, impl.DecodeRecordAt(key, entry.value()));
    if (record.header.hidden) continue;
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(key));
    info.latest_checkpoint_id = std::move(parts.checkpoint_id);
    info.latest_ts = std::move(record.ts);
    return Status::OK();
  }
  return scan.status("list_threads");
}

}  // namespace

Result<ThreadPage> RocksDbCheckpointer::Impl::ListThreads(
    const ListThreadsOptions& options) {
  if (options.limit == 0) {
    return Status::InvalidArgument("limit must be >= 1, got 0");
  }
  ThreadPage page;
  ScopedSnapshot snapshot(db.get());
  const rocksdb::ReadOptions read = snapshot.Read();
  PrefixScan scan = Scan(index, read, layout::TagPrefix(layout::kThreadTag));
  // Past every key of thread `after`, or from the first thread.
  std::string start = options.after
                          ? keys::TuplePrefixUpperBound(layout::ThreadPrefix(
                                layout::kThreadTag, *options.after))
                          : scan.prefix();
  std::optional<ThreadInfo> current;
  const auto finish_current = [&] {
    if (current && !current->namespaces.empty()) {
      page.threads.push_back(std::move(*current));
    }
    current.reset();
  };
  for (PrefixScan::Entry entry : scan.From(std::move(start))) {
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseThreadKey(entry.key()));
    if (!current || current->thread_id != parts.thread) {
      finish_current();
      if (page.threads.size() >= options.limit) {
        page.next_after = page.threads.back().thread_id;
        return page;
      }
      current = ThreadInfo{parts.thread, {}};
    }
    NamespaceInfo info;
    info.checkpoint_ns = std::move(parts.ns);
    RP_RETURN_IF_ERROR(DescribeNamespace(*this, read, parts.thread, info));
    if (info.checkpoint_count > 0)
      current->namespaces.push_back(std::move(info));
  }
  RP_RETURN_IF_ERROR(scan.status("list_threads"));
  finish_current();
  return page;
}

}  // namespace rockpoint
