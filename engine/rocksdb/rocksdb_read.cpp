// Reading one checkpoint: get_tuple (latest: one reverse seek; by id: one
// point read), the blob MultiGet that resolves its channel_versions, and the
// prefix scan of its writes.
#include <algorithm>
#include <set>

#include "engine/backend_rules.h"
#include "engine/missing_value.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/read_keys.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"
#include "serde/checkpoint_record_view.h"
#include "serde/record_views.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

namespace {

// The checkpoint id of the checkpoint key `key` found in a scan of `prefix`
// (the encoded ("cp", thread, ns)): ParseCheckpointKey's id, or its error,
// without decoding the prefix again.
Result<std::string> CheckpointIdOf(std::string_view key,
                                   std::string_view prefix) {
  if (key.substr(0, prefix.size()) == prefix) {
    keys::TupleReader reader(key.substr(prefix.size()));
    std::string id;
    if (reader.ReadString(&id).ok() && reader.done()) return id;
  }
  RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(key));
  return std::move(parts.checkpoint_id);
}

}  // namespace

Result<std::optional<serde::CheckpointRecord>> RocksDbCheckpointer::ReadRecord(
    const rocksdb::ReadOptions& read, std::string_view thread,
    std::string_view ns, std::string_view checkpoint_id) {
  const std::string key = layout::CheckpointKey(thread, ns, checkpoint_id);
  rocksdb::PinnableSlice value;
  rocksdb::Status status = db->Get(read, checkpoints, key, &value);
  if (status.IsNotFound()) return std::optional<serde::CheckpointRecord>();
  if (!status.ok()) return ToStatus(status, "read " + keys::Describe(key));
  RP_ASSIGN_OR_RETURN(auto record, DecodeRecordAt(key, value.ToStringView()));
  return std::optional<serde::CheckpointRecord>(std::move(record));
}

Result<std::vector<std::string>> RocksDbCheckpointer::Namespaces(
    const rocksdb::ReadOptions& read, std::string_view thread) const {
  std::vector<std::string> namespaces;
  PrefixScan scan =
      Scan(index, read, layout::ThreadPrefix(layout::kThreadTag, thread));
  for (PrefixScan::Entry entry : scan) {
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseThreadKey(entry.key()));
    namespaces.push_back(std::move(parts.ns));
  }
  RP_RETURN_IF_ERROR(scan.status("read namespaces"));
  return namespaces;
}

Status RocksDbCheckpointer::CheckMissingValue(
    const rocksdb::ReadOptions& read, std::string_view thread,
    std::string_view ns, std::string_view checkpoint_id,
    const std::vector<std::string>& stored_channels,
    const std::optional<std::string>& parent_id, const std::string& channel,
    const ChannelVersion& version, std::string_view blob_key) {
  const HeaderReader header_of = [&](const std::string& id)
      -> Result<std::optional<serde::CheckpointHeader>> {
    RP_ASSIGN_OR_RETURN(auto record, ReadRecord(read, thread, ns, id));
    if (!record) return std::optional<serde::CheckpointHeader>();
    return std::optional<serde::CheckpointHeader>(std::move(record->header));
  };
  RP_ASSIGN_OR_RETURN(
      std::optional<std::string> storer,
      FindLostValueStorer(checkpoint_id, stored_channels, parent_id, channel,
                          version, header_of));
  if (!storer) return Status::OK();
  return Status::Corruption(
      "value record missing at " + keys::Describe(blob_key) + ": checkpoint " +
      keys::Describe(layout::CheckpointKey(thread, ns, checkpoint_id)) +
      " reads this version of channel, and the put of checkpoint " +
      keys::Describe(layout::CheckpointKey(thread, ns, *storer)) +
      " stored it");
}

Result<std::vector<PendingWrite>> RocksDbCheckpointer::ReadWrites(
    const rocksdb::ReadOptions& read, std::string_view thread,
    std::string_view ns, std::string_view checkpoint_id) {
  std::vector<PendingWrite> result;
  serde::WriteRecordView record;
  std::string buffer;  // an opened record, in an encrypted store.
  PrefixScan scan =
      Scan(writes, read, layout::WritePrefix(thread, ns, checkpoint_id));
  const size_t prefix_length = scan.prefix().size();
  for (PrefixScan::Entry entry : scan) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto parts,
                        layout::ParseWriteKeyTask(key, prefix_length));
    RP_ASSIGN_OR_RETURN(const std::string_view plain,
                        Plain(key, entry.value(), "write record", &buffer));
    Status decoded = serde::DecodeWriteRecordView(plain, &record);
    if (!decoded.ok()) {
      return layout::CorruptionAt("write record", key, decoded);
    }
    result.push_back(PendingWrite{
        std::move(parts.task_id), std::string(record.channel),
        TypedValue{std::string(record.type), std::string(record.bytes)},
        std::move(parts.task_path), parts.idx, std::string(checkpoint_id)});
  }
  RP_RETURN_IF_ERROR(scan.status("scan writes"));
  return result;
}

Result<CheckpointTuple> RocksDbCheckpointer::AssembleTuple(
    const rocksdb::ReadOptions& read, std::string_view thread,
    std::string_view ns, std::string_view checkpoint_id,
    serde::CheckpointRecord record) {
  CheckpointTuple tuple;
  tuple.config = CheckpointConfig{std::string(thread), std::string(ns),
                                  std::string(checkpoint_id)};
  if (record.header.parent_id) {
    tuple.parent_config = CheckpointConfig{std::string(thread), std::string(ns),
                                           *record.header.parent_id};
  }
  Checkpoint& checkpoint = tuple.checkpoint;
  checkpoint.v = record.v;
  checkpoint.id = std::string(checkpoint_id);
  checkpoint.ts = std::move(record.ts);
  checkpoint.versions_seen = std::move(record.versions_seen);
  checkpoint.updated_channels = std::move(record.updated_channels);
  checkpoint.pending_sends = std::move(record.pending_sends);
  checkpoint.channel_versions = std::move(record.header.channel_versions);
  tuple.metadata = std::move(record.metadata);
  tuple.hidden = record.header.hidden;

  // Values: one MultiGet for the checkpoint's own (channel, version) pairs.
  const size_t count = checkpoint.channel_versions.size();
  if (count > 0) {
    layout::BlobKeyBatch blob_keys(thread, ns, count);
    for (const auto& [channel, version] : checkpoint.channel_versions) {
      blob_keys.Add(channel, version);
    }
    std::vector<rocksdb::PinnableSlice> values(count);
    std::vector<rocksdb::Status> statuses(count);
    std::vector<rocksdb::Slice> slices = blob_keys.slices();
    if (count == 1) {
      // A point read costs less than a MultiGet of one key.
      statuses[0] = db->Get(read, blobs, slices[0], &values[0]);
    } else {
      // channel_versions is ordered by channel, so are its blob keys.
      db->MultiGet(read, blobs, count, slices.data(), values.data(),
                   statuses.data(), /*sorted_input=*/true);
    }
    serde::BlobRecordView blob;
    std::string buffer;  // an opened record, in an encrypted store.
    size_t at = 0;
    for (const auto& [channel, version] : checkpoint.channel_versions) {
      const std::string_view key = blob_keys.key(at);
      const rocksdb::Status& status = statuses[at];
      const std::string_view value = values[at].ToStringView();
      ++at;
      if (status.IsNotFound()) {
        RP_RETURN_IF_ERROR(CheckMissingValue(
            read, thread, ns, checkpoint_id, record.header.stored_channels,
            record.header.parent_id, channel, version, key));
        continue;
      }
      if (!status.ok()) return ToStatus(status, "read " + keys::Describe(key));
      RP_ASSIGN_OR_RETURN(const std::string_view plain,
                          Plain(key, value, "blob record", &buffer));
      Status decoded = serde::DecodeBlobRecordView(plain, &blob);
      if (!decoded.ok()) {
        return layout::CorruptionAt("blob record", key, decoded);
      }
      if (!blob.empty) {
        checkpoint.channel_values.emplace_hint(
            checkpoint.channel_values.end(), channel,
            TypedValue{std::string(blob.type), std::string(blob.bytes)});
      }
    }
  }
  RP_ASSIGN_OR_RETURN(tuple.pending_writes,
                      ReadWrites(read, thread, ns, checkpoint_id));
  return tuple;
}

Result<std::optional<CheckpointTuple>> RocksDbCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  if (!config.thread_id) return std::optional<CheckpointTuple>();
  const std::string& thread = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);
  ScopedSnapshot snapshot(*this);
  const rocksdb::ReadOptions read = snapshot.Read();

  if (config.checkpoint_id) {
    RP_ASSIGN_OR_RETURN(auto record,
                        ReadRecord(read, thread, ns, *config.checkpoint_id));
    if (!record || record->header.hidden) {
      return std::optional<CheckpointTuple>();
    }
    RP_ASSIGN_OR_RETURN(auto tuple,
                        AssembleTuple(read, thread, ns, *config.checkpoint_id,
                                      std::move(*record)));
    return std::optional<CheckpointTuple>(std::move(tuple));
  }

  // Latest: one reverse seek in ("cp", thread, ns), skipping hidden ones.
  PrefixScan scan =
      Scan(checkpoints, read,
           layout::NamespacePrefix(layout::kCheckpointTag, thread, ns),
           ScanOrder::kReverse);
  for (PrefixScan::Entry entry : scan) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto record, DecodeRecordAt(key, entry.value()));
    if (record.header.hidden) continue;
    RP_ASSIGN_OR_RETURN(const std::string checkpoint_id,
                        CheckpointIdOf(key, scan.prefix()));
    RP_ASSIGN_OR_RETURN(
        auto tuple,
        AssembleTuple(read, thread, ns, checkpoint_id, std::move(record)));
    return std::optional<CheckpointTuple>(std::move(tuple));
  }
  RP_RETURN_IF_ERROR(scan.status("get_tuple"));
  return std::optional<CheckpointTuple>();
}

}  // namespace rockpoint
