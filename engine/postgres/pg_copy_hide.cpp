// copy_thread and hide_checkpoint: changes of one or two threads that
// re-derive nothing, each one transaction under the exclusive advisory locks
// of the threads it touches (PostgresCheckpointer::LockThreads: byte order).
// Ids that no TEXT column holds (pg::IsStorableText) name nothing stored.
#include <set>
#include <string>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {
namespace {

// Hides checkpoint ($1, $2, $3) if it exists: one row affected, else none.
constexpr const char* kHideCheckpoint =
    "INSERT INTO {rp} (thread_id, checkpoint_ns, checkpoint_id, hidden) "
    "SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, true "
    "FROM checkpoints c WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND "
    "c.checkpoint_id = $3 "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) "
    "DO UPDATE SET hidden = true";

constexpr const char* kHasCheckpoints =
    "SELECT EXISTS (SELECT 1 FROM checkpoints WHERE thread_id = $1)";

// Side rows the thread $1, which has no checkpoints, kept of checkpoints
// deleted without them (LangGraph's delete_thread leaves them).
constexpr const char* kDeleteOrphanSideRows =
    "DELETE FROM {rp} WHERE thread_id = $1";

// Copies thread $1 into thread $2, which holds no checkpoint and no side
// row (see CopyThread): values under a copied key are replaced, and so are
// the writes of every checkpoint id the source has writes for, as a whole.
// Side rows are copied for the source's checkpoints only.
constexpr const char* kCopyThread[] = {
    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, type, checkpoint, metadata) SELECT $2::text, "
    "checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, "
    "metadata FROM checkpoints WHERE thread_id = $1",
    "INSERT INTO {rp} (thread_id, checkpoint_ns, checkpoint_id, hidden, "
    "stored_channels, pending_sends) SELECT $2::text, r.checkpoint_ns, "
    "r.checkpoint_id, r.hidden, r.stored_channels, r.pending_sends "
    "FROM {rp} r JOIN checkpoints c ON c.thread_id = r.thread_id "
    "AND c.checkpoint_ns = r.checkpoint_ns "
    "AND c.checkpoint_id = r.checkpoint_id WHERE r.thread_id = $1",
    "INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, "
    "version, type, blob) SELECT $2::text, checkpoint_ns, channel, version, "
    "type, blob FROM checkpoint_blobs WHERE thread_id = $1 "
    "ON CONFLICT (thread_id, checkpoint_ns, channel, version) "
    "DO UPDATE SET type = EXCLUDED.type, blob = EXCLUDED.blob",
    "DELETE FROM checkpoint_writes WHERE thread_id = $2 AND "
    "(checkpoint_ns, checkpoint_id) IN (SELECT checkpoint_ns, checkpoint_id "
    "FROM checkpoint_writes WHERE thread_id = $1)",
    "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, "
    "task_id, task_path, idx, channel, type, blob) SELECT $2::text, "
    "checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, "
    "blob FROM checkpoint_writes WHERE thread_id = $1",
};

}  // namespace

Status PostgresCheckpointer::DoCopyThread(std::string_view source,
                                          std::string_view target) {
  const size_t max = limits().max_id_bytes;
  RP_RETURN_IF_ERROR(pg::CheckStorableText("target", target, max));
  // An unknown source copies nothing, but the target is checked all the
  // same; a thread copied onto itself is refused unless it is empty, when
  // the copy is a no-op.
  const bool copies = source != target && pg::IsStorableText(source, max);
  std::set<std::string> threads = {std::string(target)};
  if (copies) threads.emplace(source);
  return InTransaction([&](pg::Connection& connection) -> Status {
    std::vector<pg::Query> queries = LockThreads(threads);
    queries.push_back(
        pg::Query{&Stmt("rp_ret_has_checkpoints", kHasCheckpoints),
                  "",
                  {pg::Text(target)}});
    RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> rows, connection.Run(queries));
    if (rows.back().GetBool(0, 0)) return CopyTargetNotEmpty(target);
    if (!copies) return Status::OK();
    std::vector<pg::Query> copy = {pg::Query{
        &Stmt("rp_ret_delete_orphan_side_rows", kDeleteOrphanSideRows),
        "",
        {pg::Text(target)}}};
    if (cipher() != nullptr) {
      // Sealed rows are bound to their names: each is re-sealed, not copied.
      RP_RETURN_IF_ERROR(connection.Run(copy).status());
      return CopySealedThread(connection, source, target);
    }
    int n = 0;
    for (const char* sql : kCopyThread) {
      copy.push_back(pg::Query{&Stmt("rp_ret_copy_" + std::to_string(n++), sql),
                               "",
                               {pg::Text(source), pg::Text(target)}});
    }
    return connection.Run(copy).status();
  });
}

Status PostgresCheckpointer::DoHideCheckpoint(const CheckpointConfig& config) {
  const size_t max = limits().max_id_bytes;
  const std::string& thread_id = *config.thread_id;
  if (!pg::IsStorableText(thread_id, max) ||
      !pg::IsStorableText(NamespaceOf(config), max) ||
      !pg::IsStorableText(*config.checkpoint_id, max)) {
    return CheckpointToHideNotFound(config);  // nothing is stored there.
  }
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_ASSIGN_OR_RETURN(
      std::vector<pg::Rows> rows,
      lease->Run({LockThread(thread_id, /*exclusive=*/true),
                  pg::Query{&Stmt("rp_ret_hide_one", kHideCheckpoint),
                            "",
                            {pg::Text(thread_id), pg::Text(NamespaceOf(config)),
                             pg::Text(*config.checkpoint_id)}}}));
  if (rows[1].Affected() == 0) return CheckpointToHideNotFound(config);
  return Status::OK();
}

}  // namespace rockpoint
