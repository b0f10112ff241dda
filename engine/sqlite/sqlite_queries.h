// Private to engine/sqlite (and its tests): the SQL text of the statements
// whose plans matter, so that tests/engine/sqlite can EXPLAIN exactly what
// the backend runs. Parameters are documented per statement.
//
// Thread-safety: constants and pure functions.
#pragma once

#include <cstddef>
#include <string>

namespace rockpoint::sqlite_queries {

// The columns ReadCheckpointRow expects, in order.
inline constexpr const char* kCheckpointColumns =
    "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, "
    "checkpoint, metadata, hidden";

// ?1 thread, ?2 ns, ?3 checkpoint id.
inline constexpr const char* kSelectVisibleById =
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, "
    "checkpoint, metadata, hidden FROM checkpoints WHERE thread_id = ?1 AND "
    "checkpoint_ns = ?2 AND checkpoint_id = ?3 AND hidden = 0";

// ?1 thread, ?2 ns: the latest visible checkpoint.
inline constexpr const char* kSelectLatestVisible =
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, "
    "checkpoint, metadata, hidden FROM checkpoints WHERE thread_id = ?1 AND "
    "checkpoint_ns = ?2 AND hidden = 0 ORDER BY checkpoint_id DESC LIMIT 1";

// ?1 run id: the visible checkpoints of a run.
inline constexpr const char* kSelectVisibleByRun =
    "SELECT thread_id, checkpoint_ns, checkpoint_id FROM checkpoints "
    "WHERE run_id = ?1 AND hidden = 0";

// ?1 thread, ?2 ns, ?3 checkpoint id: its writes in contract order.
inline constexpr const char* kSelectWrites =
    "SELECT task_id, channel, type, value, task_path, idx "
    "FROM checkpoint_writes WHERE thread_id = ?1 AND checkpoint_ns = ?2 "
    "AND checkpoint_id = ?3 ORDER BY task_path, task_id, idx";

// ?1 thread, ?2 ns, then (?3, ?4), (?5, ?6), ... (channel, version) pairs:
// the stored blobs of those pairs. `pairs` is rounded up to a power of two
// (at most kMaxValuePairs); unused pairs are bound to NULL.
inline constexpr size_t kMaxValuePairs = 256;
const std::string& ValuesQuery(size_t pairs);

// ?1 thread, ?2 ns, ?3 target id: the target (depth 0) and its ancestors
// by parent link, one row per step: depth, checkpoint_id, record,
// parent_checkpoint_id.
inline constexpr const char* kWalkAncestors = R"sql(
WITH RECURSIVE chain(depth, checkpoint_id, parent_id, record) AS (
  SELECT 0, checkpoint_id, parent_checkpoint_id, checkpoint FROM checkpoints
   WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?3
  UNION ALL
  SELECT chain.depth + 1, c.checkpoint_id, c.parent_checkpoint_id,
         c.checkpoint
    FROM chain JOIN checkpoints AS c
      ON c.thread_id = ?1 AND c.checkpoint_ns = ?2
     AND c.checkpoint_id = chain.parent_id
)
SELECT depth, checkpoint_id, record, parent_id FROM chain)sql";

// ?1 thread, ?2 ns, ?3 target id, ?4 deepest ancestor: the writes of
// ancestors 1..?4, oldest ancestor first, each by (task_path, task_id, idx).
inline constexpr const char* kChainWrites = R"sql(
WITH RECURSIVE chain(depth, checkpoint_id, parent_id) AS (
  SELECT 0, checkpoint_id, parent_checkpoint_id FROM checkpoints
   WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?3
  UNION ALL
  SELECT chain.depth + 1, c.checkpoint_id, c.parent_checkpoint_id
    FROM chain JOIN checkpoints AS c
      ON c.thread_id = ?1 AND c.checkpoint_ns = ?2
     AND c.checkpoint_id = chain.parent_id
   WHERE chain.depth < ?4
)
SELECT chain.depth, w.task_id, w.channel, w.type, w.value, w.task_path,
       w.idx
  FROM chain CROSS JOIN checkpoint_writes AS w
    ON w.thread_id = ?1 AND w.checkpoint_ns = ?2
   AND w.checkpoint_id = chain.checkpoint_id
 WHERE chain.depth >= 1
 ORDER BY chain.depth DESC, w.task_path, w.task_id, w.idx)sql";

// One page of list: constraints ?1 thread, ?2 ns, ?3 id, ?4 before (each
// present only when its flag is set; `before` is left to the caller when the
// id is fixed); when `resume`, the keyset predicate ([checkpoint_id][,
// thread_id][, checkpoint_ns]) < ([?5][, ?6][, ?7]) over the columns not
// fixed by equality (none when all three are: one page holds the only row,
// so the caller never resumes); ?8 the page size. Ordered newest first:
// checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC. Visible rows only,
// unless `include_hidden` (REQUIRES `thread`): then the primary key serves
// the rows, sorted per page when the namespace is not fixed (the indexes
// in newest order hold visible rows only).
std::string ListPageQuery(bool thread, bool ns, bool id, bool before,
                          bool resume, bool include_hidden = false);

// ?1 thread, ?2 ns, ?3 checkpoint id: marks the checkpoint hidden; one row
// when it exists, none otherwise.
inline constexpr const char* kHideCheckpoint =
    "UPDATE checkpoints SET hidden = 1 WHERE thread_id = ?1 AND "
    "checkpoint_ns = ?2 AND checkpoint_id = ?3 RETURNING 1";

}  // namespace rockpoint::sqlite_queries
