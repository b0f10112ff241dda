// expire: one retention pass in one transaction holding the exclusive
// advisory locks of its threads (as prune), so a put of rockpoint waits for
// it or is read by it. A dry run reads the same way and changes nothing.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/postgres/pg_retain.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/retention_rule.h"

namespace rockpoint {
namespace {

// The bytes of (thread $1, ns $2) that a retention deletes: the rows of
// checkpoints $3 (id, checkpoint, metadata) and their writes (task id,
// blob), and the values not among the pairs ($4[i], $5[i]) that remain
// named.
constexpr const char* kDeletedBytes = R"sql(
SELECT (SELECT coalesce(sum(octet_length(checkpoint_id) +
                            octet_length(checkpoint::text) +
                            octet_length(metadata::text)), 0)
          FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2
           AND checkpoint_id = ANY($3::text[]))
     + (SELECT coalesce(sum(octet_length(task_id) +
                            coalesce(octet_length(blob), 0)), 0)
          FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2
           AND checkpoint_id = ANY($3::text[]))
     + (SELECT coalesce(sum(octet_length(channel) +
                            coalesce(octet_length(blob), 0)), 0)
          FROM checkpoint_blobs b WHERE b.thread_id = $1
           AND b.checkpoint_ns = $2 AND NOT EXISTS (
             SELECT 1 FROM unnest($4::text[], $5::text[]) AS k(channel, version)
              WHERE k.channel = b.channel AND k.version = b.version))::bigint)sql";

// A checkpoint's ts when it is visible.
std::optional<std::string_view> VisibleTs(const PgHeader& node) {
  if (node.header.hidden) return std::nullopt;
  return node.ts;
}

// The query of kDeletedBytes for retaining `doomed` out of `nodes`, where
// the survivors' delta histories read `needed`.
pg::Query DeletedBytesQuery(PostgresCheckpointer& backend,
                            const std::string& thread, const std::string& ns,
                            const Namespace& nodes,
                            const std::set<std::string>& doomed,
                            const std::set<std::string>& needed) {
  const std::set<std::string> removed =
      SplitRetained(nodes, doomed, needed).remove;
  std::set<ValueKey> named;
  for (const auto& [id, node] : nodes.nodes) {
    if (removed.contains(id)) continue;
    for (const auto& [channel, version] : node.header.channel_versions) {
      named.emplace(channel, pg::VersionKey(version));
    }
  }
  std::vector<std::string> channels;
  std::vector<std::string> versions;
  for (const auto& [channel, version] : named) {
    channels.push_back(channel);
    versions.push_back(version);
  }
  return pg::Query{&backend.Stmt("rp_expire_bytes", kDeletedBytes),
                   "",
                   {pg::Text(thread), pg::Text(ns), pg::TextArray(removed),
                    pg::TextArray(channels), pg::TextArray(versions)}};
}

// Adds `rule`'s pass over `thread` to `report`, applying it unless dry.
Status ExpireThread(PostgresCheckpointer& backend, pg::Connection& connection,
                    const std::string& thread, const ExpiryRule& rule,
                    RetentionReport& report) {
  RP_ASSIGN_OR_RETURN(const ThreadNamespaces read,
                      ReadNamespaces(backend, connection, thread, nullptr));
  std::vector<std::vector<AgedCheckpoint>> aged;
  for (const auto& [ns, nodes] : read) {
    aged.push_back(VisibleNewestFirst(nodes.nodes, VisibleTs));
  }
  const std::vector<NamespaceExpiry> plan =
      PlanThreadExpiry(aged, rule, report);
  size_t i = 0;
  for (const auto& [ns, nodes] : read) {
    const std::set<std::string>& doomed = plan[i++].expired;
    if (doomed.empty()) continue;
    const std::set<std::string> needed = NeededAncestors(nodes, doomed);
    report.checkpoints_hidden += CountNeeded(doomed, needed);
    std::vector<pg::Query> queries = {
        DeletedBytesQuery(backend, thread, ns, nodes, doomed, needed)};
    if (!rule.dry_run) {
      for (pg::Query& query :
           RetainQueries(backend, thread, ns, nodes, doomed, needed)) {
        queries.push_back(std::move(query));
      }
    }
    RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> rows, connection.Run(queries));
    report.bytes += static_cast<uint64_t>(rows[0].GetInt(0, 0));
  }
  return Status::OK();
}

}  // namespace

Result<RetentionReport> PostgresCheckpointer::DoExpire(
    const std::vector<std::string>& thread_ids, const ExpiryRule& rule) {
  std::set<std::string> threads;
  for (const std::string& thread : thread_ids) {
    if (pg::IsStorableText(thread, limits().max_id_bytes)) {
      threads.insert(thread);
    }
  }
  RetentionReport report;
  if (threads.empty()) return report;
  RP_RETURN_IF_ERROR(InTransaction([&](pg::Connection& connection) -> Status {
    RP_RETURN_IF_ERROR(connection.Run(LockThreads(threads)).status());
    for (const std::string& thread : threads) {
      RP_RETURN_IF_ERROR(ExpireThread(*this, connection, thread, rule, report));
    }
    return Status::OK();
  }));
  return report;
}

}  // namespace rockpoint
