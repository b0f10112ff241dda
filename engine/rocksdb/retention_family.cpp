#include "engine/rocksdb/retention_family.h"

#include "engine/delta_retention.h"
#include "engine/rocksdb/hidden_counts.h"
#include "engine/rocksdb/key_layout.h"
#include "serde/record_views.h"

namespace rockpoint {

namespace layout = rocksdb_layout;

bool Family::HasValue(const std::string& channel,
                      const serde::ChannelVersion& version) const {
  const auto blob =
      blob_has_value.find(layout::BlobKey(thread, ns, channel, version));
  return blob != blob_has_value.end() && blob->second;
}

std::vector<std::string> Family::VisibleNewestFirst() const {
  std::vector<std::string> ids;
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    if (!it->second.header.hidden) ids.push_back(it->first);
  }
  return ids;
}

namespace {

// Fills family.written_channels from the writes of (family.thread,
// family.ns).
Status LoadWrittenChannels(const RocksDbCheckpointer& backend,
                           const rocksdb::ReadOptions& read, Family& family) {
  PrefixScan writes = backend.Scan(
      backend.writes, read,
      layout::NamespacePrefix(layout::kWriteTag, family.thread, family.ns));
  std::string opened;  // an opened record, in an encrypted store
  serde::WriteRecordView record;
  for (PrefixScan::Entry entry : writes) {
    RP_ASSIGN_OR_RETURN(const auto parts, layout::ParseWriteKey(entry.key()));
    RP_ASSIGN_OR_RETURN(
        const std::string_view plain,
        backend.Plain(entry.key(), entry.value(), "write record", &opened));
    const Status decoded = serde::DecodeWriteRecordView(plain, &record);
    if (!decoded.ok()) {
      return layout::CorruptionAt("write record", entry.key(), decoded);
    }
    family.written_channels[parts.checkpoint_id].emplace(record.channel);
  }
  return writes.status("load writes");
}

}  // namespace

Result<Family> LoadFamily(const RocksDbCheckpointer& backend,
                          const rocksdb::ReadOptions& read,
                          std::string_view thread, std::string_view ns) {
  Family family;
  family.thread = std::string(thread);
  family.ns = std::string(ns);
  PrefixScan records =
      backend.Scan(backend.checkpoints, read,
                   layout::NamespacePrefix(layout::kCheckpointTag, thread, ns));
  for (PrefixScan::Entry entry : records) {
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseCheckpointKey(entry.key()));
    RP_ASSIGN_OR_RETURN(auto record,
                        backend.DecodeRecordAt(entry.key(), entry.value()));
    family.record_bytes.emplace(parts.checkpoint_id,
                                entry.key().size() + entry.value().size());
    family.records.emplace(std::move(parts.checkpoint_id), std::move(record));
  }
  RP_RETURN_IF_ERROR(records.status("load checkpoints"));

  PrefixScan blobs =
      backend.Scan(backend.blobs, read,
                   layout::NamespacePrefix(layout::kBlobTag, thread, ns));
  std::string opened;  // an opened record, in an encrypted store
  for (PrefixScan::Entry entry : blobs) {
    RP_ASSIGN_OR_RETURN(
        const std::string_view plain,
        backend.Plain(entry.key(), entry.value(), "blob record", &opened));
    auto blob = serde::DecodeBlobRecord(plain);
    if (!blob.ok()) {
      return layout::CorruptionAt("blob record", entry.key(), blob.status());
    }
    family.blob_has_value.emplace(std::string(entry.key()), !blob->empty);
    family.blob_bytes.emplace(std::string(entry.key()),
                              entry.key().size() + entry.value().size());
  }
  RP_RETURN_IF_ERROR(blobs.status("load blobs"));
  RP_RETURN_IF_ERROR(LoadWrittenChannels(backend, read, family));
  return family;
}

std::set<std::string> NeededBy(const Family& family,
                               const std::set<std::string>& survivors) {
  return DeltaNeededAncestors(
      survivors,
      [&](const std::string& id) -> const serde::CheckpointHeader* {
        const auto record = family.records.find(id);
        return record == family.records.end() ? nullptr
                                              : &record->second.header;
      },
      [&](const std::string& channel, const serde::ChannelVersion& version) {
        return family.HasValue(channel, version);
      },
      WritesIn(family.written_channels));
}

Status AddRetention(RocksDbCheckpointer& backend,
                    const rocksdb::ReadOptions& read, const Family& family,
                    const std::set<std::string>& survivors,
                    rocksdb::WriteBatch& batch) {
  return AddRetention(backend, read, family, survivors,
                      NeededBy(family, survivors), batch);
}

Status AddRetention(RocksDbCheckpointer& backend,
                    const rocksdb::ReadOptions& read, const Family& family,
                    const std::set<std::string>& survivors,
                    const std::set<std::string>& needed,
                    rocksdb::WriteBatch& batch, uint64_t* deleted_bytes) {
  uint64_t bytes = 0;
  const std::string& thread = family.thread;
  const std::string& ns = family.ns;
  std::set<std::string> referenced_blobs;
  bool any_remaining = false;
  uint64_t hidden_after = 0;
  for (const auto& [id, record] : family.records) {
    const bool survives = survivors.contains(id);
    const bool keep = survives || needed.contains(id);
    const auto run_id = IndexedRunId(record.metadata);
    if (keep) {
      any_remaining = true;
      if (record.header.hidden || !survives) ++hidden_after;
      for (const auto& [channel, version] : record.header.channel_versions) {
        referenced_blobs.insert(layout::BlobKey(thread, ns, channel, version));
      }
    }
    if (survives || (keep && record.header.hidden)) continue;
    if (keep) {
      // Needed but no longer visible: hide it.
      serde::CheckpointRecord hidden = record;
      hidden.header.hidden = true;
      const std::string key = layout::CheckpointKey(thread, ns, id);
      RP_ASSIGN_OR_RETURN(
          const std::string stored,
          backend.Stored(key, serde::EncodeCheckpointRecord(hidden)));
      batch.Put(backend.checkpoints, key, stored);
      batch.Put(backend.index, layout::HiddenKey(thread, ns, id), "");
    } else {
      batch.Delete(backend.checkpoints, layout::CheckpointKey(thread, ns, id));
      bytes += family.record_bytes.at(id);
      if (record.header.hidden) {
        batch.Delete(backend.index, layout::HiddenKey(thread, ns, id));
      }
    }
    batch.Delete(backend.index, layout::TimestampKey(id, thread, ns));
    if (run_id)
      batch.Delete(backend.index, layout::RunKey(*run_id, thread, ns, id));
  }

  // Writes of deleted checkpoints: one pass over ("wr", thread, ns), keys
  // only decoded.
  PrefixScan writes =
      backend.Scan(backend.writes, read,
                   layout::NamespacePrefix(layout::kWriteTag, thread, ns));
  for (PrefixScan::Entry entry : writes) {
    const std::string_view key = entry.key();
    RP_ASSIGN_OR_RETURN(auto parts, layout::ParseWriteKey(key));
    const bool has_record = family.records.contains(parts.checkpoint_id);
    const bool remains = survivors.contains(parts.checkpoint_id) ||
                         needed.contains(parts.checkpoint_id);
    if (has_record && !remains) {
      batch.Delete(backend.writes, key);
      bytes += key.size() + entry.value().size();
    }
  }
  RP_RETURN_IF_ERROR(writes.status("scan writes"));

  for (const auto& [key, has_value] : family.blob_has_value) {
    if (referenced_blobs.contains(key)) continue;
    batch.Delete(backend.blobs, key);
    bytes += family.blob_bytes.at(key);
  }
  if (deleted_bytes) *deleted_bytes += bytes;
  // The family holds every record of the namespace: the count is set, not
  // adjusted.
  SetHiddenCount(backend, batch, thread, ns, hidden_after);
  if (!any_remaining) {
    batch.Delete(backend.index, layout::ThreadKey(thread, ns));
  }
  return Status::OK();
}

}  // namespace rockpoint
