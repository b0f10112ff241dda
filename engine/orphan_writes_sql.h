// The query the SQL backends (SQLite, and PostgreSQL on LangGraph's tables,
// which share the table and column names) run for FindOrphanWrites: every
// write whose checkpoint has no row, as (thread_id, checkpoint_ns,
// checkpoint_id, task_path, task_id, idx), in key order.
#pragma once

namespace rockpoint {

inline constexpr const char* kSelectOrphanWritesSql =
    "SELECT w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_path, "
    "w.task_id, w.idx FROM checkpoint_writes w WHERE NOT EXISTS (SELECT 1 "
    "FROM checkpoints c WHERE c.thread_id = w.thread_id AND c.checkpoint_ns "
    "= w.checkpoint_ns AND c.checkpoint_id = w.checkpoint_id) ORDER BY "
    "w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_path, w.task_id, "
    "w.idx";

}  // namespace rockpoint
