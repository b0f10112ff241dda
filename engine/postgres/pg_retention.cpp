// delete_thread, delete_for_runs and prune (copy_thread and hide_checkpoint:
// pg_copy_hide.cpp): each call is one transaction (one pipeline, or
// InTransaction when it reads before it writes) holding the exclusive advisory
// lock of every thread it reads or changes, taken in byte order of the thread
// ids so that calls locking several threads do not deadlock (unless two ids
// share a hashtext lock key; PostgreSQL then fails one call with Busy).
//
// delete_for_runs and prune(keep_latest) re-derive, per affected (thread,
// ns), which checkpoints the survivors' delta histories need
// (docs/CONTRACT.md "Delta safety"), as the SQLite backend does: the
// namespace's checkpoints and which (channel, version) pairs hold a value
// are read once, the walk runs in memory, and only the changes are written
// back. Values no remaining checkpoint of the namespace names go in SQL.
//
// Ids that no TEXT column holds (pg::IsStorableText) name nothing stored:
// deleting or pruning one finds nothing.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/delta_retention.h"
#include "engine/postgres/pg_retain.h"
#include "engine/postgres/postgres_impl.h"

namespace rockpoint {
namespace {

// thread_id -> checkpoint_ns -> checkpoint ids.
using Scopes =
    std::map<std::string, std::map<std::string, std::set<std::string>>>;

// Every table's rows of the threads $1 (text[]).
constexpr const char* kDeleteThreads[] = {
    "DELETE FROM checkpoints WHERE thread_id = ANY($1::text[])",
    "DELETE FROM checkpoint_blobs WHERE thread_id = ANY($1::text[])",
    "DELETE FROM checkpoint_writes WHERE thread_id = ANY($1::text[])",
    "DELETE FROM {rp} WHERE thread_id = ANY($1::text[])",
};

// The checkpoints $3 (text[]) of (thread $1, ns $2): their rows, writes and
// side rows.
constexpr const char* kDeleteCheckpoints[] = {
    "DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 "
    "AND checkpoint_id = ANY($3::text[])",
    "DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = "
    "$2 AND checkpoint_id = ANY($3::text[])",
    "DELETE FROM {rp} WHERE thread_id = $1 AND checkpoint_ns = $2 "
    "AND checkpoint_id = ANY($3::text[])",
};

// Hides the checkpoints $3 (text[]) of (thread $1, ns $2), adding the side
// row of one LangGraph wrote (stored_channels NULL keeps it LangGraph's).
constexpr const char* kHideCheckpoints =
    "INSERT INTO {rp} (thread_id, checkpoint_ns, checkpoint_id, hidden) "
    "SELECT $1::text, $2::text, id, true FROM unnest($3::text[]) AS id "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) "
    "DO UPDATE SET hidden = true";

// Visible checkpoints whose metadata run_id is a string in $1 (text[]); the
// run_id index serves it. In an encrypted store the metadata column holds
// only the run_id, in the clear for this (pg_codec.h RunIdJson).
constexpr const char* kPlainRunCondition =
    "jsonb_typeof(c.metadata -> 'run_id') = 'string' AND "
    "c.metadata ->> 'run_id' = ANY($1::text[])";
// Visible checkpoints whose run_id may hide in a tag object (pg_codec.h):
// the whole metadata is one, or run_id is (a string that JSON cannot hold).
constexpr const char* kTaggedRunCondition =
    "(c.metadata ? '$rockpoint' OR "
    "jsonb_typeof(c.metadata -> 'run_id') = 'object')";

// The SELECT of kCheckpointColumns of the checkpoints `where` selects.
std::string NodesSql(std::string_view where) {
  return std::string("WITH cp AS (SELECT ") + kCteColumns + " FROM " +
         kCheckpointFrom + " WHERE " + std::string(where) + ") SELECT " +
         kCheckpointColumns + " FROM cp";
}

// The visible checkpoints that kPlainRunCondition (run ids $1) or
// kTaggedRunCondition (then with the metadata) selects: (thread, ns, id
// [, metadata]), of the threads $2, or $1 when tagged, (text[]) when
// `in_threads`.
std::string RunsSql(bool tagged, bool in_threads) {
  std::string sql = std::string("SELECT c.thread_id, c.checkpoint_ns, ") +
                    "c.checkpoint_id" + (tagged ? ", c.metadata::text" : "") +
                    " FROM " + kCheckpointFrom + " WHERE r.hidden IS NOT TRUE" +
                    " AND " +
                    (tagged ? kTaggedRunCondition : kPlainRunCondition);
  if (in_threads) {
    sql += std::string(" AND c.thread_id = ANY($") + (tagged ? "1" : "2") +
           "::text[])";
  }
  return sql;
}

// Deletes the values of (thread $1, ns $2) that no checkpoint of it names.
std::string UnreferencedValuesSql() {
  return "DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND "
         "b.checkpoint_ns = $2 AND NOT EXISTS (SELECT 1 FROM checkpoints c "
         "CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c.checkpoint "
         "-> 'channel_versions') = 'object' THEN c.checkpoint -> "
         "'channel_versions' END) AS v WHERE c.thread_id = $1 AND "
         "c.checkpoint_ns = $2 AND v.key = b.channel AND " +
         pg::VersionKeySql("v.value") + " = b.version)";
}

template <typename T>
void Append(std::vector<T>& to, std::vector<T> items) {
  for (T& item : items) to.push_back(std::move(item));
}

// Deletes every row of `threads` in every table, under their locks.
Status DeleteThreads(PostgresCheckpointer& backend,
                     const std::set<std::string>& threads) {
  std::vector<pg::Query> queries = backend.LockThreads(threads);
  int n = 0;
  for (const char* sql : kDeleteThreads) {
    queries.push_back(pg::Query{
        &backend.Stmt("rp_ret_delete_threads_" + std::to_string(n++), sql),
        "",
        {pg::TextArray(threads)}});
  }
  RP_ASSIGN_OR_RETURN(PostgresCheckpointer::Lease lease, backend.Acquire());
  return lease->Run(queries).status();
}

}  // namespace

Result<ThreadNamespaces> ReadNamespaces(
    PostgresCheckpointer& backend, pg::Connection& connection,
    const std::string& thread, const std::set<std::string>* namespaces) {
  static const std::string kNodes = NodesSql("c.thread_id = $1");
  static const std::string kNodesIn =
      NodesSql("c.thread_id = $1 AND c.checkpoint_ns = ANY($2::text[])");
  constexpr const char* kValues =
      "SELECT checkpoint_ns, channel, version FROM checkpoint_blobs "
      "WHERE thread_id = $1 AND type <> 'empty'";
  constexpr const char* kValuesIn =
      "SELECT checkpoint_ns, channel, version FROM checkpoint_blobs "
      "WHERE thread_id = $1 AND checkpoint_ns = ANY($2::text[]) "
      "AND type <> 'empty'";
  constexpr const char* kWritten =
      "SELECT DISTINCT checkpoint_ns, checkpoint_id, channel "
      "FROM checkpoint_writes WHERE thread_id = $1";
  constexpr const char* kWrittenIn =
      "SELECT DISTINCT checkpoint_ns, checkpoint_id, channel "
      "FROM checkpoint_writes WHERE thread_id = $1 "
      "AND checkpoint_ns = ANY($2::text[])";
  pg::Params params = {pg::Text(thread)};
  if (namespaces) params.push_back(pg::TextArray(*namespaces));
  RP_ASSIGN_OR_RETURN(
      std::vector<pg::Rows> rows,
      connection.Run(
          {pg::Query{namespaces ? &backend.Stmt("rp_ret_nodes_in", kNodesIn)
                                : &backend.Stmt("rp_ret_nodes", kNodes),
                     "", params},
           pg::Query{namespaces ? &backend.Stmt("rp_ret_values_in", kValuesIn)
                                : &backend.Stmt("rp_ret_values", kValues),
                     "", params},
           pg::Query{namespaces ? &backend.Stmt("rp_ret_written_in", kWrittenIn)
                                : &backend.Stmt("rp_ret_written", kWritten),
                     "", params}}));
  ThreadNamespaces out;
  for (int i = 0; i < rows[0].size(); ++i) {
    PgCheckpointRow row = ReadCheckpointRow(rows[0], i);
    RP_RETURN_IF_ERROR(backend.UnsealRow(row));
    RP_ASSIGN_OR_RETURN(PgHeader header, DecodeHeader(row));
    Namespace& ns = out[row.checkpoint_ns];
    for (const auto* inlined :
         {&header.inline_channels, &header.inline_null_channels}) {
      for (const std::string& channel : *inlined) {
        const auto version = header.header.channel_versions.find(channel);
        if (version == header.header.channel_versions.end()) continue;
        ns.values.emplace(channel, pg::VersionKey(version->second));
      }
    }
    ns.nodes.emplace(row.checkpoint_id, std::move(header));
  }
  for (int i = 0; i < rows[1].size(); ++i) {
    const auto ns = out.find(rows[1].GetString(i, 0));
    if (ns == out.end()) continue;  // no checkpoint: left alone.
    ns->second.values.emplace(rows[1].GetString(i, 1), rows[1].GetString(i, 2));
  }
  for (int i = 0; i < rows[2].size(); ++i) {
    const auto ns = out.find(rows[2].GetString(i, 0));
    if (ns == out.end()) continue;  // no checkpoint: left alone.
    ns->second.written[rows[2].GetString(i, 1)].insert(rows[2].GetString(i, 2));
  }
  return out;
}

namespace {

bool Survives(const std::string& id, const PgHeader& node,
              const std::set<std::string>& doomed) {
  return !node.header.hidden && !doomed.contains(id);
}

}  // namespace

std::set<std::string> NeededAncestors(const Namespace& ns,
                                      const std::set<std::string>& doomed) {
  std::set<std::string> survivors;
  for (const auto& [id, node] : ns.nodes) {
    if (Survives(id, node, doomed)) survivors.insert(id);
  }
  return DeltaNeededAncestors(
      survivors,
      [&](const std::string& id) -> const serde::CheckpointHeader* {
        const auto node = ns.nodes.find(id);
        return node == ns.nodes.end() ? nullptr : &node->second.header;
      },
      [&](const std::string& channel, const ChannelVersion& version) {
        return ns.values.contains(ValueKey(channel, pg::VersionKey(version)));
      },
      WritesIn(ns.written));
}

RetainedSplit SplitRetained(const Namespace& ns,
                            const std::set<std::string>& doomed,
                            const std::set<std::string>& needed) {
  RetainedSplit split;
  for (const auto& [id, node] : ns.nodes) {
    if (Survives(id, node, doomed)) continue;
    if (!needed.contains(id)) {
      split.remove.insert(id);
    } else if (!node.header.hidden) {
      split.hide.insert(id);
    }
  }
  return split;
}

std::vector<pg::Query> RetainQueries(PostgresCheckpointer& backend,
                                     const std::string& thread,
                                     const std::string& ns,
                                     const Namespace& nodes,
                                     const std::set<std::string>& doomed,
                                     const std::set<std::string>& needed) {
  const auto [hide, remove] = SplitRetained(nodes, doomed, needed);
  std::vector<pg::Query> queries;
  if (!hide.empty()) {
    queries.push_back(
        pg::Query{&backend.Stmt("rp_ret_hide_ids", kHideCheckpoints),
                  "",
                  {pg::Text(thread), pg::Text(ns), pg::TextArray(hide)}});
  }
  if (!remove.empty()) {
    int n = 0;
    for (const char* sql : kDeleteCheckpoints) {
      queries.push_back(pg::Query{
          &backend.Stmt("rp_ret_delete_ids_" + std::to_string(n++), sql),
          "",
          {pg::Text(thread), pg::Text(ns), pg::TextArray(remove)}});
    }
  }
  static const std::string kUnreferenced = UnreferencedValuesSql();
  queries.push_back(
      pg::Query{&backend.Stmt("rp_ret_unreferenced_values", kUnreferenced),
                "",
                {pg::Text(thread), pg::Text(ns)}});
  return queries;
}

namespace {

// Applies RetainQueries to the namespaces `doomed` names (each with its
// doomed ids) of `thread`.
Status RetainThread(
    PostgresCheckpointer& backend, pg::Connection& connection,
    const std::string& thread,
    const std::map<std::string, std::set<std::string>>& doomed) {
  std::set<std::string> namespaces;
  for (const auto& [ns, ids] : doomed) namespaces.insert(ns);
  RP_ASSIGN_OR_RETURN(const ThreadNamespaces read,
                      ReadNamespaces(backend, connection, thread, &namespaces));
  std::vector<pg::Query> queries;
  for (const auto& [ns, nodes] : read) {
    const std::set<std::string>& doomed_here = doomed.at(ns);
    Append(queries, RetainQueries(backend, thread, ns, nodes, doomed_here,
                                  NeededAncestors(nodes, doomed_here)));
  }
  if (queries.empty()) return Status::OK();
  return connection.Run(queries).status();
}

// Prune(kKeepLatest) of one thread: per namespace, the visible checkpoints
// beyond the newest `keep_last` (byte order of ids) are doomed. Every
// namespace is re-derived, so hidden checkpoints nothing needs any more and
// unreferenced values go too.
Status KeepLatest(PostgresCheckpointer& backend, pg::Connection& connection,
                  const std::string& thread, size_t keep_last) {
  RP_ASSIGN_OR_RETURN(const ThreadNamespaces read,
                      ReadNamespaces(backend, connection, thread, nullptr));
  std::vector<pg::Query> queries;
  for (const auto& [ns, nodes] : read) {
    std::set<std::string> doomed;
    size_t visible = 0;
    for (auto node = nodes.nodes.rbegin(); node != nodes.nodes.rend(); ++node) {
      if (!node->second.header.hidden && ++visible > keep_last) {
        doomed.insert(node->first);
      }
    }
    Append(queries, RetainQueries(backend, thread, ns, nodes, doomed,
                                  NeededAncestors(nodes, doomed)));
  }
  if (queries.empty()) return Status::OK();
  return connection.Run(queries).status();
}

// The run ids of a delete_for_runs.
struct RunIds {
  std::set<std::string> all;
  // Those a text[] parameter holds; the others can only be stored inside a
  // tag object.
  std::set<std::string> plain;
};

RunIds ToRunIds(const std::vector<std::string>& run_ids) {
  RunIds out;
  for (const std::string& run_id : run_ids) {
    out.all.insert(run_id);
    if (pg::IsStorableText(run_id, std::string::npos)) out.plain.insert(run_id);
  }
  return out;
}

// Adds the tagged candidates of `rows` (thread, ns, id, metadata) whose
// decoded metadata run_id is a string in `runs`.
Status AddTaggedMatches(const pg::Rows& rows, const RunIds& runs, Scopes& out) {
  for (int i = 0; i < rows.size(); ++i) {
    const std::string thread = rows.GetString(i, 0);
    const std::string ns = rows.GetString(i, 1);
    const std::string id = rows.GetString(i, 2);
    RP_ASSIGN_OR_RETURN(
        const Value metadata,
        pg::MetadataFromJson(rows.Get(i, 3),
                             RowName(thread, ns, id) + " metadata"));
    const Value* run_id = metadata.Find("run_id");
    if (run_id != nullptr && run_id->is_string() &&
        runs.all.contains(run_id->as_string())) {
      out[thread][ns].insert(id);
    }
  }
  return Status::OK();
}

// The visible checkpoints whose metadata run_id is a string in `runs`, of
// every thread, or of `threads` when given.
Result<Scopes> FindRunCheckpoints(PostgresCheckpointer& backend,
                                  pg::Connection& connection,
                                  const RunIds& runs,
                                  const std::set<std::string>* threads) {
  const std::string suffix = threads ? "_in" : "";
  pg::Params in_threads;
  if (threads) in_threads.push_back(pg::TextArray(*threads));
  std::vector<pg::Query> queries;
  if (!runs.plain.empty()) {
    pg::Params params = {pg::TextArray(runs.plain)};
    Append(params, in_threads);
    queries.push_back(pg::Query{
        &backend.Stmt("rp_ret_runs" + suffix, RunsSql(false, threads)), "",
        std::move(params)});
  }
  queries.push_back(pg::Query{
      &backend.Stmt("rp_ret_runs_tagged" + suffix, RunsSql(true, threads)), "",
      std::move(in_threads)});
  RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> rows, connection.Run(queries));
  Scopes out;
  if (!runs.plain.empty()) {
    for (int i = 0; i < rows[0].size(); ++i) {
      out[rows[0].GetString(i, 0)][rows[0].GetString(i, 1)].insert(
          rows[0].GetString(i, 2));
    }
  }
  RP_RETURN_IF_ERROR(AddTaggedMatches(rows.back(), runs, out));
  return out;
}

}  // namespace

Status PostgresCheckpointer::DoDeleteThread(std::string_view thread_id) {
  if (!pg::IsStorableText(thread_id, limits().max_id_bytes)) {
    return Status::OK();  // nothing is stored under it.
  }
  return DeleteThreads(*this, {std::string(thread_id)});
}

Status PostgresCheckpointer::DoDeleteForRuns(
    const std::vector<std::string>& run_ids) {
  if (run_ids.empty()) return Status::OK();
  const RunIds runs = ToRunIds(run_ids);
  return InTransaction([&](pg::Connection& connection) -> Status {
    // Find the threads, lock them, then read again under the locks: a put
    // may have changed them in between.
    RP_ASSIGN_OR_RETURN(
        const Scopes found,
        FindRunCheckpoints(*this, connection, runs, /*threads=*/nullptr));
    if (found.empty()) return Status::OK();
    std::set<std::string> threads;
    for (const auto& [thread, namespaces] : found) threads.insert(thread);
    RP_RETURN_IF_ERROR(connection.Run(LockThreads(threads)).status());
    RP_ASSIGN_OR_RETURN(const Scopes doomed,
                        FindRunCheckpoints(*this, connection, runs, &threads));
    for (const auto& [thread, namespaces] : doomed) {
      RP_RETURN_IF_ERROR(RetainThread(*this, connection, thread, namespaces));
    }
    return Status::OK();
  });
}

Status PostgresCheckpointer::DoPrune(const std::vector<std::string>& thread_ids,
                                     PruneStrategy strategy, size_t keep_last) {
  std::set<std::string> threads;
  for (const std::string& thread : thread_ids) {
    if (pg::IsStorableText(thread, limits().max_id_bytes)) {
      threads.insert(thread);
    }
  }
  if (threads.empty()) return Status::OK();
  if (strategy == PruneStrategy::kDelete) {
    return DeleteThreads(*this, threads);  // nothing survives to need.
  }
  return InTransaction([&](pg::Connection& connection) -> Status {
    RP_RETURN_IF_ERROR(connection.Run(LockThreads(threads)).status());
    for (const std::string& thread : threads) {
      RP_RETURN_IF_ERROR(KeepLatest(*this, connection, thread, keep_last));
    }
    return Status::OK();
  });
}

}  // namespace rockpoint
