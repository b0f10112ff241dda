// get_delta_channel_history in two queries plus one blob read per seed:
//   1. one recursive CTE that walks parent links from the target, streamed
//      row by row (SQLite runs it as a co-routine) and abandoned as soon as
//      every channel has its seed;
//   2. the same walk bounded to the visited depth, joined with
//      checkpoint_writes, oldest ancestor first.
#include <map>
#include <optional>
#include <set>
#include <string>

#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

using sqlite_queries::kChainWrites;
using sqlite_queries::kWalkAncestors;

constexpr const char* kSelectBlob =
    "SELECT type, blob FROM checkpoint_blobs WHERE thread_id = ?1 AND "
    "checkpoint_ns = ?2 AND channel = ?3 AND version = ?4";

// An ancestor on the walk and the channels still open when it was reached
// (its writes to those count).
struct Visited {
  std::string checkpoint_id;
  std::set<std::string> open;
};

// For each channel still `open` that `header` stores a value for: reads
// the blob; a value (not absent, not "empty") becomes the channel's seed in
// `history` and closes the channel.
Status TakeStoredSeeds(Database* db, const RecordCipher* cipher,
                       std::string_view thread_id, std::string_view ns,
                       const serde::CheckpointHeader& header,
                       std::set<std::string>& open, DeltaHistory& history) {
  for (const std::string& channel : header.stored_channels) {
    if (open.count(channel) == 0) continue;
    auto version = header.channel_versions.find(channel);
    if (version == header.channel_versions.end()) continue;
    RP_ASSIGN_OR_RETURN(Statement blob, db->Prepare(kSelectBlob));
    blob.BindBytes(1, thread_id);
    blob.BindBytes(2, ns);
    blob.BindBytes(3, channel);
    blob.BindVersion(4, version->second);
    RP_ASSIGN_OR_RETURN(bool found, blob.Step());
    if (!found) {
      // The header says this put stored the value: its row may not vanish
      // while the checkpoint stays.
      return Status::Corruption(
          "checkpoint_blobs row (thread_id=" +
          sqlite_internal::PrintableBytes(thread_id) +
          ", checkpoint_ns=" + sqlite_internal::PrintableBytes(ns) +
          ", channel=" + sqlite_internal::PrintableBytes(channel) +
          ") is missing: the delta history walk reads it as a seed, and "
          "the ancestor's put stored it");
    }
    RP_ASSIGN_OR_RETURN(
        std::optional<TypedValue> value,
        sqlite_records::DecodeBlob(
            cipher, {thread_id, ns, channel, version->second},
            blob.ColumnViewOrNull(0), blob.ColumnViewOrNull(1)));
    if (!value) continue;  // "empty".
    history[channel].seed = std::move(*value);
    open.erase(channel);
  }
  return Status::OK();
}

// Stage 1: walks the parents of `target_id` (streamed, abandoned once no
// channel is open, stopped at a cycle), taking seeds into `history`.
// Returns the ancestors visited; result[d - 1] is at depth d.
Result<std::vector<Visited>> WalkAncestors(
    Database* db, const RecordCipher* cipher, std::string_view thread_id,
    std::string_view ns, const std::string& target_id,
    const std::vector<std::string>& channels, DeltaHistory& history) {
  std::set<std::string> open(channels.begin(), channels.end());
  std::vector<Visited> visited;
  std::set<std::string> seen_ids = {target_id};
  RP_ASSIGN_OR_RETURN(Statement walk, db->Prepare(kWalkAncestors));
  walk.BindBytes(1, thread_id);
  walk.BindBytes(2, ns);
  walk.BindBytes(3, target_id);
  while (!open.empty()) {
    RP_ASSIGN_OR_RETURN(bool row, walk.Step());
    if (!row) break;
    std::string id = walk.ColumnString(1);
    const std::optional<std::string> parent =
        walk.IsNull(3) ? std::optional<std::string>()
                       : std::optional<std::string>(walk.ColumnString(3));
    if (walk.ColumnInt(0) == 0) {
      // The target's writes are next. Encrypted: its parent column, which
      // the walk follows, is checked against its sealed record.
      if (cipher != nullptr) {
        RP_RETURN_IF_ERROR(
            sqlite_records::DecodeHeader(cipher, {thread_id, ns, id}, parent,
                                         walk.ColumnView(2))
                .status());
      }
      continue;
    }
    if (!seen_ids.insert(id).second) break;  // a parent cycle.
    RP_ASSIGN_OR_RETURN(
        const serde::CheckpointHeader header,
        sqlite_records::DecodeHeader(cipher, {thread_id, ns, id}, parent,
                                     walk.ColumnView(2)));
    visited.push_back(Visited{id, open});
    RP_RETURN_IF_ERROR(
        TakeStoredSeeds(db, cipher, thread_id, ns, header, open, history));
  }
  return visited;
}

// Stage 2: the writes of the visited ancestors, oldest first, to the
// channels that were open at each.
Status ReadChainWrites(Database* db, const RecordCipher* cipher,
                       std::string_view thread_id, std::string_view ns,
                       const std::string& target_id,
                       const std::vector<Visited>& visited,
                       DeltaHistory& history) {
  RP_ASSIGN_OR_RETURN(Statement writes, db->Prepare(kChainWrites));
  writes.BindBytes(1, thread_id);
  writes.BindBytes(2, ns);
  writes.BindBytes(3, target_id);
  writes.BindInt(4, static_cast<int64_t>(visited.size()));
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, writes.Step());
    if (!row) break;
    const int64_t depth = writes.ColumnInt(0);
    if (depth < 1 || depth > static_cast<int64_t>(visited.size())) continue;
    const Visited& at = visited[depth - 1];
    std::string channel = writes.ColumnString(2);
    if (at.open.count(channel) == 0) continue;
    PendingWrite write;
    write.task_id = writes.ColumnString(1);
    write.task_path = writes.ColumnString(5);
    write.idx = writes.ColumnInt(6);
    RP_ASSIGN_OR_RETURN(
        write.value, sqlite_records::DecodeWrite(
                         cipher,
                         {thread_id, ns, at.checkpoint_id, write.task_path,
                          write.task_id, write.idx},
                         channel, writes.ColumnView(3), writes.ColumnView(4)));
    write.checkpoint_id = at.checkpoint_id;
    write.channel = channel;
    history[channel].writes.push_back(std::move(write));
  }
  return Status::OK();
}

}  // namespace

Result<DeltaHistory> SqliteCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  base::MutexLock lock(&mu_);
  DeltaHistory history;
  if (channels.empty()) return history;
  for (const std::string& channel : channels) history[channel];
  const std::string& thread_id = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);

  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginRead(db()));
  // The target must be visible, like get_tuple's.
  RP_ASSIGN_OR_RETURN(std::optional<SqliteCheckpointRow> target,
                      FindVisibleRow(thread_id, ns, config.checkpoint_id));
  if (!target) {
    return Status::NotFound(
        config.checkpoint_id
            ? "checkpoint given by config.checkpoint_id does not exist"
            : "the thread and namespace of config have no checkpoint");
  }
  const std::string target_id = std::move(target->checkpoint_id);
  RP_ASSIGN_OR_RETURN(const std::vector<Visited> visited,
                      WalkAncestors(db(), cipher(), thread_id, ns, target_id,
                                    channels, history));
  if (visited.empty()) return history;
  RP_RETURN_IF_ERROR(ReadChainWrites(db(), cipher(), thread_id, ns, target_id,
                                     visited, history));
  return history;
}

}  // namespace rockpoint
