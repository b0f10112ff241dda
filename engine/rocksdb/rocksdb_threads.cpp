// list_threads: the ("th", thread, ns) index in thread order, paged; per
// namespace the visible checkpoint count (cp keys minus hd keys: key-only
// scans, no record decoded, the hd keys checked against the cp keys and
// against the namespace's hidden count) and the latest visible checkpoint
// (one reverse seek, one record decoded).
#include <string>
#include <vector>

#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;

// The checkpoint ids (key suffixes past the namespace prefix, in key
// order) of the hidden-index entries of (thread, ns).
Result<std::vector<std::string>> HiddenIds(const RocksDbCheckpointer& backend,
                                           const rocksdb::ReadOptions& read,
                                           std::string_view thread,
                                           std::string_view ns) {
  std::vector<std::string> ids;
  PrefixScan scan =
      backend.Scan(backend.index, read,
                   layout::NamespacePrefix(layout::kHiddenTag, thread, ns));
  const size_t prefix_size = scan.prefix().size();
  for (PrefixScan::Entry entry : scan) {
    ids.emplace_back(entry.key().substr(prefix_size));
  }
  RP_RETURN_IF_ERROR(scan.status("count hidden checkpoints"));
  return ids;
}

// Corruption unless (thread, ns) has as many hidden-index entries as its
// hidden count says: an entry whose damaged key left the namespace.
Status CheckHiddenCount(const RocksDbCheckpointer& backend,
                        const rocksdb::ReadOptions& read,
                        std::string_view thread, std::string_view ns,
                        size_t entries) {
  if (!backend.hidden_counts) return Status::OK();
  RP_ASSIGN_OR_RETURN(const uint64_t count,
                      ReadHiddenCount(backend, read, thread, ns));
  if (count == entries) return Status::OK();
  return Status::Corruption(
      "hidden count " + keys::Describe(layout::HiddenCountKey(thread, ns)) +
      " says " + std::to_string(count) + " hidden checkpoints, the index has " +
      std::to_string(entries) +
      " (a damaged index; rockpoint verify reports every such namespace)");
}

// The number of visible checkpoints of (thread, ns): checkpoint keys minus
// hidden-index entries, from key-only scans. Cross-checks the two on the
// way (one merge of sorted keys), and the entries with the namespace's
// hidden count: Corruption for a damaged index key that would otherwise
// count a hidden checkpoint as visible.
Result<uint64_t> CountVisible(const RocksDbCheckpointer& backend,
                              const rocksdb::ReadOptions& read,
                              std::string_view thread, std::string_view ns) {
  RP_ASSIGN_OR_RETURN(std::vector<std::string> hidden,
                      HiddenIds(backend, read, thread, ns));
  PrefixScan scan =
      backend.Scan(backend.checkpoints, read,
                   layout::NamespacePrefix(layout::kCheckpointTag, thread, ns));
  const size_t prefix_size = scan.prefix().size();
  uint64_t records = 0;
  size_t matched = 0;
  for (PrefixScan::Entry entry : scan) {
    ++records;
    const std::string_view id = entry.key().substr(prefix_size);
    if (matched < hidden.size() && hidden[matched] < id) break;
    if (matched < hidden.size() && hidden[matched] == id) ++matched;
  }
  RP_RETURN_IF_ERROR(scan.status("count checkpoints"));
  if (matched < hidden.size()) {
    return Status::Corruption(
        "hidden-checkpoint index entry " +
        keys::Describe(layout::NamespacePrefix(layout::kHiddenTag, thread, ns) +
                       hidden[matched]) +
        " names no checkpoint record (a damaged index; rockpoint verify "
        "reports every such entry)");
  }
  RP_RETURN_IF_ERROR(
      CheckHiddenCount(backend, read, thread, ns, hidden.size()));
  return records - hidden.size();
}

// Fills count and latest of `info`; count 0 when nothing is visible.
Status DescribeNamespace(const RocksDbCheckpointer& backend,
                         const rocksdb::ReadOptions& read,
                         std::string_view thread, NamespaceInfo& info) {
  const std::string_view ns = info.checkpoint_ns;
  RP_ASSIGN_OR_RETURN(info.checkpoint_count,
                      CountVisible(backend, read, thread, ns));
  if (info.checkpoint_count == 0) return Status::OK();

  PrefixScan scan =
      backend.Scan(backend.checkpoints, read,
                   layout::NamespacePrefix(layout::kCheckpointTag, thread, ns),
                   ScanOrder::kReverse);
  for (PrefixScan::Entry entry : scan) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto record,
                        backend.DecodeRecordAt(key, entry.value()));
    if (record.header.hidden) continue;
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(key));
    info.latest_checkpoint_id = std::move(parts.checkpoint_id);
    info.latest_ts = std::move(record.ts);
    return Status::OK();
  }
  return scan.status("list_threads");
}

}  // namespace

Result<ThreadPage> RocksDbCheckpointer::DoListThreads(
    const ListThreadsOptions& options) {
  ThreadPage page;
  ScopedSnapshot snapshot(*this);
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
