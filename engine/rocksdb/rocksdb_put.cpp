// Put and PutWrites: each one WriteBatch. Put writes blobs blind with Merge
// (existing value wins, rocksdb_options.cpp); its one read, the old record
// of an overwritten id (index clean-up), runs under the thread's stripe
// lock together with the write. PutWrites reads which regular writes exist
// (first wins; an existing one adds nothing to the batch) under the lock.
#include "engine/backend_rules.h"
#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "engine/rocksdb/rocksdb_impl.h"
#include "keys/tuple.h"

namespace rockpoint {
namespace {

namespace layout = rocksdb_layout;

// The stored record of a put: the checkpoint without its values (values
// live only in blobs, one per new version).
serde::CheckpointRecord MakeRecord(const CheckpointConfig& config,
                                   const Checkpoint& checkpoint,
                                   const Metadata& metadata,
                                   const ChannelVersions& new_versions) {
  serde::CheckpointRecord record;
  record.header.parent_id = config.checkpoint_id;
  record.header.channel_versions = checkpoint.channel_versions;
  for (const auto& [channel, version] : new_versions) {
    if (StoresValueItNames(checkpoint, channel, version)) {
      record.header.stored_channels.push_back(channel);  // map order: sorted
    }
  }
  record.v = checkpoint.v;
  record.ts = checkpoint.ts;
  record.versions_seen = checkpoint.versions_seen;
  record.updated_channels = checkpoint.updated_channels;
  record.pending_sends = checkpoint.pending_sends;
  record.metadata = metadata;
  return record;
}

// Point reads of `keys` (in `families`), one MultiGet. found[i] tells
// whether keys[i] exists; values[i] holds its value.
// REQUIRES: keys ascending, all in one family.
Status MultiGetExisting(rocksdb::DB* db,
                        std::vector<rocksdb::ColumnFamilyHandle*>& families,
                        const std::vector<std::string>& keys,
                        std::vector<rocksdb::PinnableSlice>& values,
                        std::vector<bool>& found, std::string_view context) {
  const size_t count = keys.size();
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::Status> statuses(count);
  values = std::vector<rocksdb::PinnableSlice>(count);
  found.assign(count, false);
  if (count == 0) return Status::OK();
  db->MultiGet(rocksdb::ReadOptions(), count, families.data(), slices.data(),
               values.data(), statuses.data(), /*sorted_input=*/true);
  for (size_t i = 0; i < count; ++i) {
    if (statuses[i].IsNotFound()) continue;
    RP_RETURN_IF_ERROR(ToStatus(statuses[i], context));
    found[i] = true;
  }
  return Status::OK();
}

}  // namespace

Result<CheckpointConfig> RocksDbCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  const std::string& thread = *config.thread_id;
  const std::string ns(NamespaceOf(config));
  const std::string& id = checkpoint.id;
  const std::string record_key = layout::CheckpointKey(thread, ns, id);
  RP_ASSIGN_OR_RETURN(
      const std::string record_bytes,
      Stored(record_key, serde::EncodeCheckpointRecord(MakeRecord(
                             config, checkpoint, metadata, new_versions))));
  const std::optional<std::string> run_id = IndexedRunId(metadata);

  rocksdb::WriteBatch batch;
  batch.Put(checkpoints, record_key, record_bytes);
  // Blobs are merged blind: the existing value wins (rocksdb_options.cpp),
  // so a stored blob is never replaced.
  std::string blob_bytes;
  for (const auto& [channel, version] : new_versions) {
    serde::BlobRecord blob;
    const auto value = checkpoint.channel_values.find(channel);
    blob.empty = value == checkpoint.channel_values.end();
    if (!blob.empty) blob.value = value->second;
    const std::string blob_key = layout::BlobKey(thread, ns, channel, version);
    RP_ASSIGN_OR_RETURN(blob_bytes,
                        Stored(blob_key, serde::EncodeBlobRecord(blob)));
    batch.Merge(blobs, blob_key, blob_bytes);
  }

  // Overwrite clean-up reads the old record: under the stripe lock, so two
  // puts of one id cannot both miss each other's index entries.
  auto guard = locks.Lock({thread});
  rocksdb::PinnableSlice old_value;
  const rocksdb::Status read =
      db->Get(rocksdb::ReadOptions(), checkpoints, record_key, &old_value);
  if (!read.IsNotFound()) {
    RP_RETURN_IF_ERROR(ToStatus(read, "put"));
    // Overwriting a checkpoint: drop index entries the new record does not
    // re-create. An undecodable old record is simply replaced.
    auto old = DecodeRecordAt(record_key, old_value.ToStringView());
    if (old.ok()) {
      const auto old_run = IndexedRunId(old->metadata);
      if (old_run && old_run != run_id) {
        batch.Delete(index, layout::RunKey(*old_run, thread, ns, id));
      }
      if (old->header.hidden) {
        batch.Delete(index, layout::HiddenKey(thread, ns, id));
        // A count already 0 is damage that list_threads and verify report.
        RP_ASSIGN_OR_RETURN(
            const uint64_t hidden_count,
            ReadHiddenCount(*this, rocksdb::ReadOptions(), thread, ns));
        if (hidden_count > 0) {
          SetHiddenCount(*this, batch, thread, ns, hidden_count - 1);
        }
      }
    }
  }
  batch.Put(index, layout::ThreadKey(thread, ns), "");
  batch.Put(index, layout::TimestampKey(id, thread, ns), "");
  if (run_id) batch.Put(index, layout::RunKey(*run_id, thread, ns, id), "");
  RP_RETURN_IF_ERROR(Write(batch, "put"));
  return CheckpointConfig{thread, ns, id};
}

Status RocksDbCheckpointer::DoPutWrites(
    const CheckpointConfig& config,
    const std::vector<ChannelWrite>& channel_writes, std::string_view task_id,
    std::string_view task_path) {
  const std::string& thread = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);
  const std::string& checkpoint_id = *config.checkpoint_id;

  // WriteKey(thread, ns, checkpoint_id, task_path, task_id, idx): the
  // shared elements are encoded once, the idx element per write.
  keys::TupleWriter task;
  task.AddString(task_path).AddString(task_id);
  const std::string task_prefix =
      layout::WritePrefix(thread, ns, checkpoint_id) + task.data();
  std::vector<std::string> keys;
  keys.reserve(channel_writes.size());
  std::vector<std::string> regular_keys;  // first wins: need a read
  for (size_t i = 0; i < channel_writes.size(); ++i) {
    keys::TupleWriter idx;
    idx.AddInt(WriteIndex(channel_writes[i].channel, i));
    keys.push_back(task_prefix + idx.data());
    if (!SpecialWriteIndex(channel_writes[i].channel))
      regular_keys.push_back(keys[i]);
  }

  auto guard = locks.Lock({thread});
  std::vector<rocksdb::ColumnFamilyHandle*> families(regular_keys.size(),
                                                     writes);
  std::vector<rocksdb::PinnableSlice> values;
  std::vector<bool> found;
  RP_RETURN_IF_ERROR(MultiGetExisting(db.get(), families, regular_keys, values,
                                      found, "put_writes"));
  rocksdb::WriteBatch batch;
  size_t regular = 0;
  for (size_t i = 0; i < channel_writes.size(); ++i) {
    if (!SpecialWriteIndex(channel_writes[i].channel) && found[regular++])
      continue;
    RP_ASSIGN_OR_RETURN(
        const std::string record,
        Stored(keys[i], serde::EncodeWriteRecord({channel_writes[i].channel,
                                                  channel_writes[i].value})));
    batch.Put(writes, keys[i], record);
  }
  return Write(batch, "put_writes");
}

}  // namespace rockpoint
