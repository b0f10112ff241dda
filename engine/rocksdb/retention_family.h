// The retention model shared by prune, delete_for_runs and copy_thread
// (docs/CONTRACT.md "Delta safety"): everything of one (thread, ns) loaded, the
// set of checkpoints the survivors' delta histories need, and the mutations
// that keep survivors visible, hide needed non-survivors, and delete the rest
// (with their writes and index entries, and the blobs no remaining
// checkpoint references).
//
// Thread-safety: a Family is a plain value. REQUIRES for LoadFamily and
// AddRetention: the caller holds the thread's stripe lock, and reads at
// one snapshot.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/delta_retention.h"
#include "engine/rocksdb/rocksdb_impl.h"

namespace rockpoint {

struct Family {
  std::string thread, ns;
  // Every record of (thread, ns), hidden ones included, by checkpoint id.
  std::map<std::string, serde::CheckpointRecord> records;
  // Every blob of (thread, ns): encoded key -> holds a value (not "empty").
  std::map<std::string, bool> blob_has_value;
  // The channels each checkpoint's pending writes write to, by checkpoint
  // id (writes of checkpoints that have no record included).
  WrittenChannels written_channels;
  // Stored bytes (key and value) of each record, by checkpoint id, and of
  // each blob, by encoded key.
  std::map<std::string, size_t> record_bytes;
  std::map<std::string, size_t> blob_bytes;

  // True if the blob (channel, version) exists and is not "empty".
  bool HasValue(const std::string& channel,
                const serde::ChannelVersion& version) const;
  // Ids of the visible records, newest first.
  std::vector<std::string> VisibleNewestFirst() const;
};

Result<Family> LoadFamily(const RocksDbCheckpointer& backend,
                          const rocksdb::ReadOptions& read,
                          std::string_view thread, std::string_view ns);

// The checkpoints the delta histories of `survivors` run through
// (DeltaNeededAncestors, engine/delta_retention.h).
std::set<std::string> NeededBy(const Family& family,
                               const std::set<std::string>& survivors);

// Adds to `batch` the mutations that leave `survivors` as they are, keep
// `needed` (NeededBy(family, survivors)) non-survivors hidden, and delete
// every other record with its writes and index entries, the blobs no
// remaining record references, and the ("th", thread, ns) entry when
// nothing remains. Writes of checkpoints that have no record are left
// alone. Adds the stored bytes it deletes to `*deleted_bytes` when given.
Status AddRetention(RocksDbCheckpointer& backend,
                    const rocksdb::ReadOptions& read, const Family& family,
                    const std::set<std::string>& survivors,
                    const std::set<std::string>& needed,
                    rocksdb::WriteBatch& batch,
                    uint64_t* deleted_bytes = nullptr);
// The same, with the needed set computed here.
Status AddRetention(RocksDbCheckpointer& backend,
                    const rocksdb::ReadOptions& read, const Family& family,
                    const std::set<std::string>& survivors,
                    rocksdb::WriteBatch& batch);

}  // namespace rockpoint
