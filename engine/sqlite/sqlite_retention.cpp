// delete_thread, delete_for_runs, hide_checkpoint, prune: one BEGIN
// IMMEDIATE transaction per call. (copy_thread: sqlite_copy.cpp.)
//
// delete_for_runs and prune(keep_latest) re-derive, per affected (thread,
// ns), which checkpoints the survivors' delta histories need
// (docs/CONTRACT.md "Delta safety"): the namespace's headers and the emptiness
// of its blobs are read once, the walk runs in memory, and only the changes are
// written back.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "engine/backend_rules.h"
#include "engine/delta_retention.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Database;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

using BlobKey = std::pair<std::string, ChannelVersion>;

struct Node {
  bool hidden = false;
  serde::CheckpointHeader header;
};

// True if the blob under (channel, version) exists and is not "empty".
bool HasValue(const std::map<BlobKey, bool>& blob_empty,
              const std::string& channel, const ChannelVersion& version) {
  auto it = blob_empty.find(BlobKey(channel, version));
  return it != blob_empty.end() && !it->second;
}

// Every checkpoint of (thread, ns), hidden ones included, by id.
Result<std::map<std::string, Node>> ReadNodes(Database* db,
                                              const RecordCipher* cipher,
                                              std::string_view thread_id,
                                              std::string_view checkpoint_ns) {
  std::map<std::string, Node> nodes;
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT checkpoint_id, hidden, checkpoint, "
                  "parent_checkpoint_id FROM checkpoints "
                  "WHERE thread_id = ?1 AND checkpoint_ns = ?2"));
  select.BindBytes(1, thread_id);
  select.BindBytes(2, checkpoint_ns);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    Node node;
    std::string id = select.ColumnString(0);
    node.hidden = select.ColumnInt(1) != 0;
    const std::optional<std::string> parent =
        select.IsNull(3) ? std::optional<std::string>()
                         : std::optional<std::string>(select.ColumnString(3));
    RP_ASSIGN_OR_RETURN(node.header, sqlite_records::DecodeHeader(
                                         cipher, {thread_id, checkpoint_ns, id},
                                         parent, select.ColumnView(2)));
    nodes.emplace(std::move(id), std::move(node));
  }
  return nodes;
}

// Every blob key of (thread, ns) -> whether the blob is "empty".
Result<std::map<BlobKey, bool>> ReadBlobEmptiness(
    Database* db, std::string_view thread_id, std::string_view checkpoint_ns) {
  std::map<BlobKey, bool> blob_empty;
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT channel, version, type IS NULL "
                  "FROM checkpoint_blobs "
                  "WHERE thread_id = ?1 AND checkpoint_ns = ?2"));
  select.BindBytes(1, thread_id);
  select.BindBytes(2, checkpoint_ns);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    RP_ASSIGN_OR_RETURN(ChannelVersion version, select.ColumnVersion(1));
    blob_empty.emplace(BlobKey(select.ColumnString(0), std::move(version)),
                       select.ColumnInt(2) != 0);
  }
  return blob_empty;
}

// The channels each checkpoint's pending writes of (thread, ns) write to.
Result<WrittenChannels> ReadWrittenChannels(Database* db,
                                            std::string_view thread_id,
                                            std::string_view checkpoint_ns) {
  WrittenChannels written;
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db->Prepare("SELECT DISTINCT checkpoint_id, channel "
                  "FROM checkpoint_writes "
                  "WHERE thread_id = ?1 AND checkpoint_ns = ?2"));
  select.BindBytes(1, thread_id);
  select.BindBytes(2, checkpoint_ns);
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    written[select.ColumnString(0)].insert(select.ColumnString(1));
  }
  return written;
}

bool Survives(const std::string& id, const Node& node,
              const std::set<std::string>& doomed) {
  return !node.hidden && doomed.count(id) == 0;
}

// The ancestors the survivors' delta histories need
// (engine/delta_retention.h). Survivors: visible and not doomed.
std::set<std::string> NeededAncestors(const std::map<std::string, Node>& nodes,
                                      const std::map<BlobKey, bool>& blob_empty,
                                      const WrittenChannels& written,
                                      const std::set<std::string>& doomed) {
  std::set<std::string> survivors;
  for (const auto& [id, node] : nodes) {
    if (Survives(id, node, doomed)) survivors.insert(id);
  }
  return DeltaNeededAncestors(
      survivors,
      [&](const std::string& id) -> const serde::CheckpointHeader* {
        const auto node = nodes.find(id);
        return node == nodes.end() ? nullptr : &node->second.header;
      },
      [&](const std::string& channel, const ChannelVersion& version) {
        return HasValue(blob_empty, channel, version);
      },
      WritesIn(written));
}

Status HideCheckpointRow(Database* db, std::string_view thread_id,
                         std::string_view checkpoint_ns,
                         const std::string& id) {
  RP_ASSIGN_OR_RETURN(Statement hide,
                      db->Prepare(sqlite_queries::kHideCheckpoint));
  hide.BindBytes(1, thread_id);
  hide.BindBytes(2, checkpoint_ns);
  hide.BindBytes(3, id);
  return hide.Run();
}

// Deletes the checkpoint and its writes.
Status DeleteCheckpointRows(Database* db, std::string_view thread_id,
                            std::string_view checkpoint_ns,
                            const std::string& id) {
  for (const char* sql :
       {"DELETE FROM checkpoints WHERE thread_id = ?1 AND "
        "checkpoint_ns = ?2 AND checkpoint_id = ?3",
        "DELETE FROM checkpoint_writes WHERE thread_id = ?1 AND "
        "checkpoint_ns = ?2 AND checkpoint_id = ?3"}) {
    RP_ASSIGN_OR_RETURN(Statement remove, db->Prepare(sql));
    remove.BindBytes(1, thread_id);
    remove.BindBytes(2, checkpoint_ns);
    remove.BindBytes(3, id);
    RP_RETURN_IF_ERROR(remove.Run());
  }
  return Status::OK();
}

Status DeleteBlobRow(Database* db, std::string_view thread_id,
                     std::string_view checkpoint_ns, const BlobKey& key) {
  RP_ASSIGN_OR_RETURN(
      Statement remove,
      db->Prepare("DELETE FROM checkpoint_blobs WHERE thread_id = ?1 AND "
                  "checkpoint_ns = ?2 AND channel = ?3 AND version = ?4"));
  remove.BindBytes(1, thread_id);
  remove.BindBytes(2, checkpoint_ns);
  remove.BindBytes(3, key.first);
  remove.BindVersion(4, key.second);
  return remove.Run();
}

}  // namespace

Result<SqliteCheckpointer::RetentionPlan> SqliteCheckpointer::PlanRetention(
    std::string_view thread_id, std::string_view checkpoint_ns,
    const std::set<std::string>& doomed) {
  RP_ASSIGN_OR_RETURN(const auto nodes,
                      ReadNodes(db(), cipher(), thread_id, checkpoint_ns));
  RP_ASSIGN_OR_RETURN(const auto blob_empty,
                      ReadBlobEmptiness(db(), thread_id, checkpoint_ns));
  RP_ASSIGN_OR_RETURN(const auto written,
                      ReadWrittenChannels(db(), thread_id, checkpoint_ns));
  const std::set<std::string> needed =
      NeededAncestors(nodes, blob_empty, written, doomed);

  RetentionPlan plan;
  std::set<BlobKey> referenced;
  for (const auto& [id, node] : nodes) {
    const bool survives = Survives(id, node, doomed);
    const bool keep = survives || needed.count(id) > 0;
    if (keep) {
      for (const auto& [channel, version] : node.header.channel_versions) {
        referenced.emplace(channel, version);
      }
    }
    if (keep && (survives || node.hidden)) continue;  // unchanged.
    (keep ? plan.hide : plan.remove).push_back(id);
  }
  for (const auto& [key, empty] : blob_empty) {
    if (referenced.count(key) == 0) plan.remove_blobs.push_back(key);
  }
  return plan;
}

Status SqliteCheckpointer::ApplyRetention(std::string_view thread_id,
                                          std::string_view checkpoint_ns,
                                          const RetentionPlan& plan) {
  for (const std::string& id : plan.hide) {
    RP_RETURN_IF_ERROR(HideCheckpointRow(db(), thread_id, checkpoint_ns, id));
  }
  for (const std::string& id : plan.remove) {
    RP_RETURN_IF_ERROR(
        DeleteCheckpointRows(db(), thread_id, checkpoint_ns, id));
  }
  for (const BlobKey& key : plan.remove_blobs) {
    RP_RETURN_IF_ERROR(DeleteBlobRow(db(), thread_id, checkpoint_ns, key));
  }
  return Status::OK();
}

Status SqliteCheckpointer::RetainNamespace(
    std::string_view thread_id, std::string_view checkpoint_ns,
    const std::set<std::string>& doomed) {
  RP_ASSIGN_OR_RETURN(const RetentionPlan plan,
                      PlanRetention(thread_id, checkpoint_ns, doomed));
  return ApplyRetention(thread_id, checkpoint_ns, plan);
}

Status SqliteCheckpointer::DoDeleteThread(std::string_view thread_id) {
  base::MutexLock lock(&mu_);
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  for (const char* sql :
       {"DELETE FROM checkpoints WHERE thread_id = ?1",
        "DELETE FROM checkpoint_blobs WHERE thread_id = ?1",
        "DELETE FROM checkpoint_writes WHERE thread_id = ?1"}) {
    RP_ASSIGN_OR_RETURN(Statement remove, db()->Prepare(sql));
    remove.BindBytes(1, thread_id);
    RP_RETURN_IF_ERROR(remove.Run());
  }
  return txn.Commit();
}

Status SqliteCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  base::MutexLock lock(&mu_);
  if (run_ids.empty()) return Status::OK();
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  // (thread, ns) -> its visible checkpoints of the runs.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> doomed;
  for (const std::string& run_id : run_ids) {
    RP_ASSIGN_OR_RETURN(Statement select,
                        db()->Prepare(sqlite_queries::kSelectVisibleByRun));
    select.BindBytes(1, run_id);
    while (true) {
      RP_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      doomed[{select.ColumnString(0), select.ColumnString(1)}].insert(
          select.ColumnString(2));
    }
  }
  for (const auto& [scope, ids] : doomed) {
    RP_RETURN_IF_ERROR(RetainNamespace(scope.first, scope.second, ids));
  }
  return txn.Commit();
}

Result<bool> SqliteCheckpointer::HasCheckpoints(std::string_view thread) {
  RP_ASSIGN_OR_RETURN(
      Statement probe,
      db()->Prepare("SELECT 1 FROM checkpoints WHERE thread_id = ?1 LIMIT 1"));
  probe.BindBytes(1, thread);
  return probe.Step();
}

Status SqliteCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  base::MutexLock lock(&mu_);
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  // The hidden column is authoritative; the partial indexes drop the row.
  RP_ASSIGN_OR_RETURN(Statement hide,
                      db()->Prepare(sqlite_queries::kHideCheckpoint));
  hide.BindBytes(1, *config.thread_id);
  hide.BindBytes(2, NamespaceOf(config));
  hide.BindBytes(3, *config.checkpoint_id);
  RP_ASSIGN_OR_RETURN(bool updated, hide.Step());
  RP_RETURN_IF_ERROR(hide.Run());  // steps the statement to its end.
  if (!updated) return CheckpointToHideNotFound(config);
  return txn.Commit();
}

Status SqliteCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                   PruneStrategy strategy, size_t keep_last) {
  base::MutexLock lock(&mu_);
  if (thread_ids.empty()) return Status::OK();
  if (strategy == PruneStrategy::kDelete) {
    // Nothing survives, so nothing needs delta safety.
    RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
    for (const std::string& thread_id : thread_ids) {
      for (const char* sql :
           {"DELETE FROM checkpoints WHERE thread_id = ?1",
            "DELETE FROM checkpoint_blobs WHERE thread_id = ?1",
            "DELETE FROM checkpoint_writes WHERE thread_id = ?1"}) {
        RP_ASSIGN_OR_RETURN(Statement remove, db()->Prepare(sql));
        remove.BindBytes(1, thread_id);
        RP_RETURN_IF_ERROR(remove.Run());
      }
    }
    return txn.Commit();
  }

  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  for (const std::string& thread_id :
       std::set<std::string>(thread_ids.begin(), thread_ids.end())) {
    // Per namespace: the visible ids beyond the newest keep_last. Every
    // namespace is re-derived, so hidden checkpoints nothing needs any more
    // and unreferenced blobs go too.
    std::map<std::string, std::set<std::string>> doomed;
    {
      RP_ASSIGN_OR_RETURN(
          Statement select,
          db()->Prepare("SELECT checkpoint_ns, checkpoint_id, hidden "
                        "FROM checkpoints WHERE thread_id = ?1 "
                        "ORDER BY checkpoint_ns, checkpoint_id DESC"));
      select.BindBytes(1, thread_id);
      std::string ns;
      size_t visible_seen = 0;
      bool first = true;
      while (true) {
        RP_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row) break;
        if (first || select.ColumnView(0) != ns) {
          ns = select.ColumnString(0);
          visible_seen = 0;
          first = false;
          doomed[ns];
        }
        if (select.ColumnInt(2) == 0 && ++visible_seen > keep_last) {
          doomed[ns].insert(select.ColumnString(1));
        }
      }
    }
    for (const auto& [ns, ids] : doomed) {
      RP_RETURN_IF_ERROR(RetainNamespace(thread_id, ns, ids));
    }
  }
  return txn.Commit();
}

}  // namespace rockpoint
