// get_delta_channel_history in two round trips, whatever the chain length:
//   1. BEGIN (REPEATABLE READ READ ONLY) and one recursive CTE: the visible
//      target and its ancestors by parent link (hidden ones too), each with
//      what it says about the requested channels. The CTE tracks which
//      channels are still open and stops once none is, at a root, at a
//      missing parent, or after as many steps as (thread, ns) has
//      checkpoints (only a parent cycle walks that far). The walk itself
//      (which ancestor seeds which channel, Corruption) is decided here in
//      C++ from those rows, as SQLite's WalkAncestors decides it.
//   2. the visited ancestors' writes to the requested channels and the seed
//      blobs (each statement only when needed), then COMMIT.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/record_names.h"

namespace rockpoint {
namespace {

// The target row of the walk (depth 0; a visible checkpoint): by id ($4),
// or the latest visible one of (thread, ns). All requested channels ($3)
// are open at it.
constexpr const char* kTargetById =
    "SELECT 0, c.checkpoint_id, c.parent_checkpoint_id, NULL::jsonb, "
    "NULL::jsonb, NULL::jsonb, NULL::jsonb, $3::text[] FROM {from} "
    "WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND c.checkpoint_id = "
    "$4 AND r.hidden IS NOT TRUE";
constexpr const char* kTargetLatest =
    "SELECT 0, c.checkpoint_id, c.parent_checkpoint_id, NULL::jsonb, "
    "NULL::jsonb, NULL::jsonb, NULL::jsonb, $3::text[] FROM {from} "
    "WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND r.hidden IS NOT "
    "TRUE ORDER BY c.checkpoint_id COLLATE \"C\" DESC LIMIT 1";

// Per channel `k.ch` open on arrival at ancestor `c` (`c.stored`: its side
// row's stored_channels): whether a checkpoint_blobs row is at c's version
// (present), whether it holds a value (valued: not the "empty" marker), and
// whether the channel surely closes here. `closes` is never wider than the C++
// walk's rule (TakeSeeds): a stored channel with a value row, or with an inline
// string, number or boolean (JSON null or a nested value never close it
// here), so the CTE never stops before the C++ walk would.
constexpr const char* kOpenChannels = R"sql(
      SELECT k.ch, b.thread_id IS NOT NULL AS present,
             b.blob IS NOT NULL AS valued,
             coalesce((b.blob IS NOT NULL OR
                       (jsonb_typeof(c.checkpoint -> 'channel_versions'
                                     -> k.ch) IS NOT NULL AND
                        jsonb_typeof(c.checkpoint -> 'channel_values'
                                     -> k.ch) IN ('string', 'number',
                                                  'boolean'))) AND
                      (c.stored IS NULL OR
                       (jsonb_typeof(c.stored) = 'array' AND
                        c.stored ? k.ch)), false) AS closes
        FROM unnest(chain.open) AS k(ch)
        LEFT JOIN checkpoint_blobs b ON b.thread_id = $1
         AND b.checkpoint_ns = $2 AND b.channel = k.ch
         AND b.version = {version})sql";

// $1 thread, $2 ns, $3 requested channels (text[]), [$4 target id]. One
// row per step, by depth: depth, checkpoint_id, parent id, the checkpoint
// ({checkpoint}: with channel_versions and channel_values restricted to $3,
// or in an encrypted store the whole column, whose sealed record the walk
// opens; text; NULL at depth 0), the side row's stored_channels (text), the
// open channels with a blob row and those with a value (JSON arrays). `open` is
// the channels still open after a step; the next step is taken only while one
// is. The parent is read by its key in a LATERAL ... LIMIT 1, which the
// planner cannot flatten into a join that scans the thread at every step.
// A parent cycle is found here in C++ (FollowChain); the bound on depth only
// ends the server's side of such a walk, linear in its length.
constexpr const char* kWalk = R"sql(
WITH RECURSIVE chain(depth, checkpoint_id, parent_id, checkpoint, stored,
                     present, valued, open) AS (
  ({target})
  UNION ALL
  SELECT chain.depth + 1, c.checkpoint_id, c.parent_checkpoint_id,
         c.checkpoint, c.stored, s.present, s.valued, s.open
    FROM chain
    CROSS JOIN LATERAL (
      SELECT p.checkpoint_id, p.parent_checkpoint_id, p.checkpoint,
             r.stored_channels AS stored
        FROM checkpoints p LEFT JOIN {rp} r ON r.thread_id = $1
         AND r.checkpoint_ns = $2 AND r.checkpoint_id = chain.parent_id
       WHERE p.thread_id = $1 AND p.checkpoint_ns = $2
         AND p.checkpoint_id = chain.parent_id
       LIMIT 1) c
    CROSS JOIN LATERAL (
      SELECT coalesce(jsonb_agg(o.ch) FILTER (WHERE o.present), '[]')
               AS present,
             coalesce(jsonb_agg(o.ch) FILTER (WHERE o.valued), '[]')
               AS valued,
             coalesce(array_agg(o.ch) FILTER (WHERE NOT o.closes),
                      '{}'::text[]) AS open
        FROM ({open_channels}) o) s
   WHERE cardinality(chain.open) > 0
     AND chain.depth < (SELECT count(*) FROM checkpoints
                         WHERE thread_id = $1 AND checkpoint_ns = $2)
)
SELECT depth, checkpoint_id, parent_id, {checkpoint},
       stored::text, present::text, valued::text
  FROM chain ORDER BY depth)sql";

// The writes of the visited ancestors ($3) to the requested channels ($4).
constexpr const char* kChainWrites =
    "SELECT w.checkpoint_id, w.task_id, w.channel, w.type, w.blob, "
    "w.task_path, w.idx FROM checkpoint_writes w WHERE w.thread_id = $1 AND "
    "w.checkpoint_ns = $2 AND w.checkpoint_id = ANY($3::text[]) AND "
    "w.channel = ANY($4::text[])";

// The seed blobs: (channel, version key) pairs $3[i], $4[i].
constexpr const char* kSeedBlobs =
    "SELECT b.channel, b.type, b.blob FROM unnest($3::text[], $4::text[]) "
    "AS k(channel, version) JOIN checkpoint_blobs b ON b.thread_id = $1 AND "
    "b.checkpoint_ns = $2 AND b.channel = k.channel AND b.version = "
    "k.version";

// SQL of the jsonb object `expr` keeping only the requested channels' keys;
// anything but an object as it is (it then fails to decode: Corruption).
std::string Restricted(const std::string& expr) {
  return "(CASE WHEN jsonb_typeof(" + expr +
         ") = 'object' THEN (SELECT coalesce(jsonb_object_agg(e.key, "
         "e.value), '{}') FROM jsonb_each(" +
         expr + ") e WHERE e.key = ANY($3::text[])) ELSE " + expr + " END)";
}

// The walk's checkpoint column: restricted to the requested channels, or
// whole when its sealed record is to be opened.
constexpr const char* kRestrictedCheckpoint = R"sql(
       (CASE WHEN jsonb_typeof(checkpoint) = 'object' THEN
          jsonb_build_object('channel_versions', {versions},
                             'channel_values', {values})
        ELSE checkpoint END)::text)sql";

std::string WalkSql(bool by_id, bool sealed) {
  std::string sql = ReplaceAll(kWalk, "{target}",
                               ReplaceAll(by_id ? kTargetById : kTargetLatest,
                                          "{from}", kCheckpointFrom));
  sql = ReplaceAll(
      std::move(sql), "{open_channels}",
      ReplaceAll(
          kOpenChannels, "{version}",
          pg::VersionKeySql("(c.checkpoint -> 'channel_versions' -> k.ch)")));
  sql = ReplaceAll(std::move(sql), "{checkpoint}",
                   sealed ? "checkpoint::text" : kRestrictedCheckpoint);
  sql = ReplaceAll(std::move(sql), "{versions}",
                   Restricted("(checkpoint -> 'channel_versions')"));
  return ReplaceAll(std::move(sql), "{values}",
                    Restricted("(checkpoint -> 'channel_values')"));
}

// Column indexes of a walk row.
enum WalkColumn {
  kDepth,
  kId,
  kParent,
  kCheckpoint,
  kStored,
  kPresent,
  kValued,
};

// The call's keys: storable ids, and the requested channels that are
// storable (others can have no history), sorted and without repeats.
struct Request {
  std::string thread_id;
  std::string ns;
  std::optional<std::string> checkpoint_id;
  std::vector<std::string> channels;
};

// An ancestor on the walk and the channels still open when it was reached
// (its writes to those count).
struct Visited {
  std::string checkpoint_id;
  std::set<std::string> open;
};

// What the walk found: the visited ancestors (visited[d - 1] at depth d)
// and each closed channel's seed, a blob to read (at its version) or a
// value LangGraph inlined in the checkpoint.
struct Walk {
  std::vector<Visited> visited;
  std::map<std::string, ChannelVersion> blob_seeds;
  std::map<std::string, TypedValue> inline_seeds;
};

// One ancestor row of the walk, as TakeSeeds reads it.
struct Step {
  PgCheckpointRow row;
  std::set<std::string> present;  // open channels with a blob row.
  std::set<std::string> valued;   // ... whose blob is a value.
};

std::string NotFoundMessage(const CheckpointConfig& config) {
  return config.checkpoint_id
             ? "checkpoint given by config.checkpoint_id does not exist"
             : "the thread and namespace of config have no checkpoint";
}

Result<std::set<std::string>> ChannelSet(const pg::Rows& rows, int row,
                                         int column, std::string_view where) {
  RP_ASSIGN_OR_RETURN(std::vector<std::string> channels,
                      pg::ChannelsFromJson(rows.Get(row, column), where));
  return std::set<std::string>(channels.begin(), channels.end());
}

// Row `i` (an ancestor) of the walk rows, its sealed record opened in an
// encrypted store.
Result<Step> ReadStep(const PostgresCheckpointer& backend, const pg::Rows& rows,
                      int i, const Request& request) {
  Step step;
  step.row.thread_id = request.thread_id;
  step.row.checkpoint_ns = request.ns;
  step.row.checkpoint_id = rows.GetString(i, kId);
  step.row.parent_id = rows.GetOptional(i, kParent);
  step.row.checkpoint_json = rows.GetString(i, kCheckpoint);
  step.row.stored_channels_json = rows.GetOptional(i, kStored);
  RP_RETURN_IF_ERROR(backend.UnsealRow(step.row));
  const std::string where =
      "delta walk at checkpoints row " +
      pg::KeyName(request.thread_id, request.ns, step.row.checkpoint_id);
  RP_ASSIGN_OR_RETURN(step.present, ChannelSet(rows, i, kPresent, where));
  RP_ASSIGN_OR_RETURN(step.valued, ChannelSet(rows, i, kValued, where));
  return step;
}

Status MissingSeedBlob(const Request& request, const std::string& channel,
                       const ChannelVersion& version,
                       const std::string& checkpoint_id) {
  return Status::Corruption(
      "checkpoint_blobs row (thread_id=\"" + request.thread_id +
      "\", checkpoint_ns=\"" + request.ns + "\", channel=\"" + channel +
      "\", version=\"" + pg::VersionKey(version) +
      "\") is missing: the delta history walk reads it as a seed, and the "
      "put of checkpoint_id=\"" +
      checkpoint_id + "\" stored it");
}

// For each channel still `open` that `step`'s checkpoint stores (a
// LangGraph-written row: every channel it versions): a value row at its
// version, else a non-null value LangGraph inlined, becomes the channel's
// seed in `walk` and closes it; an "empty" row does not. A rockpoint row
// whose stored channel has no blob row is Corruption (its put stored it).
Status TakeSeeds(const Request& request, const Step& step,
                 const PgHeader& header, std::set<std::string>& open,
                 Walk& walk) {
  const PgCheckpointRow& row = step.row;
  for (const std::string& channel : header.header.stored_channels) {
    if (!open.contains(channel)) continue;
    auto version = header.header.channel_versions.find(channel);
    if (version == header.header.channel_versions.end()) continue;
    if (step.valued.contains(channel)) {
      walk.blob_seeds[channel] = version->second;
    } else if (header.inline_channels.contains(channel)) {
      RP_ASSIGN_OR_RETURN(pg::StoredCheckpoint stored,
                          pg::CheckpointFromJson(
                              row.checkpoint_json,
                              "checkpoints row " +
                                  pg::KeyName(row.thread_id, row.checkpoint_ns,
                                              row.checkpoint_id) +
                                  " checkpoint"));
      walk.inline_seeds[channel] = stored.inline_values.at(channel);
    } else if (!step.present.contains(channel) && row.stored_channels_json) {
      return MissingSeedBlob(request, channel, version->second,
                             row.checkpoint_id);
    } else {
      continue;
    }
    open.erase(channel);
  }
  return Status::OK();
}

// Walks the rows of kWalk after the target (rows[0]): depth 1, 2, ...
// while a channel is open, ending at the last row (a root or a missing
// parent) or before the first id walked twice (a parent cycle).
Result<Walk> FollowChain(const PostgresCheckpointer& backend,
                         const pg::Rows& rows, const Request& request) {
  Walk walk;
  std::set<std::string> open(request.channels.begin(), request.channels.end());
  std::set<std::string> walked = {rows.GetString(0, kId)};
  for (int i = 1; i < rows.size() && !open.empty(); ++i) {
    if (!walked.insert(rows.GetString(i, kId)).second) break;
    RP_ASSIGN_OR_RETURN(Step step, ReadStep(backend, rows, i, request));
    RP_ASSIGN_OR_RETURN(PgHeader header, DecodeHeader(step.row));
    walk.visited.push_back(Visited{step.row.checkpoint_id, open});
    RP_RETURN_IF_ERROR(TakeSeeds(request, step, header, open, walk));
  }
  return walk;
}

// The writes rows of kChainWrites into `history`: per channel, oldest
// ancestor first, each ancestor's by (task_path, task_id, idx) in byte
// order; only writes to channels open at their ancestor count. Corruption
// when a sealed write does not open.
Status AddWrites(const PostgresCheckpointer& backend, const pg::Rows& rows,
                 const Request& request, const Walk& walk,
                 DeltaHistory& history) {
  std::map<std::string, size_t> depth_of;
  for (size_t d = 0; d < walk.visited.size(); ++d) {
    depth_of[walk.visited[d].checkpoint_id] = d;
  }
  std::map<std::string, std::vector<std::pair<size_t, PendingWrite>>> found;
  for (int i = 0; i < rows.size(); ++i) {
    auto depth = depth_of.find(rows.GetString(i, 0));
    if (depth == depth_of.end()) continue;
    PendingWrite write;
    write.checkpoint_id = depth->first;
    write.task_id = rows.GetString(i, 1);
    write.channel = rows.GetString(i, 2);
    if (!walk.visited[depth->second].open.contains(write.channel)) continue;
    write.task_path = rows.GetString(i, 5);
    write.idx = rows.GetInt(i, 6);
    RP_ASSIGN_OR_RETURN(write.value,
                        backend.StoredValue(
                            [&] {
                              return record_names::Write(
                                  request.thread_id, request.ns,
                                  write.checkpoint_id, write.task_path,
                                  write.task_id, write.idx);
                            },
                            rows.Get(i, 3), rows.Get(i, 4), "write"));
    found[write.channel].emplace_back(depth->second, std::move(write));
  }
  for (auto& [channel, writes] : found) {
    std::sort(writes.begin(), writes.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first > b.first;  // deeper: older.
      return std::tie(a.second.task_path, a.second.task_id, a.second.idx) <
             std::tie(b.second.task_path, b.second.task_id, b.second.idx);
    });
    for (auto& [depth, write] : writes) {
      history[channel].writes.push_back(std::move(write));
    }
  }
  return Status::OK();
}

// The seed rows of kSeedBlobs into `history`, and the inline seeds. Round
// trip 1 saw each blob in the same snapshot: one missing now is an error of
// this file (IOError), not of the data. Corruption when a sealed seed does
// not open.
Status AddSeeds(const PostgresCheckpointer& backend, const pg::Rows& rows,
                const Request& request, const Walk& walk,
                DeltaHistory& history) {
  for (int i = 0; i < rows.size(); ++i) {
    const std::string channel = rows.GetString(i, 0);
    const auto version = walk.blob_seeds.find(channel);
    if (version == walk.blob_seeds.end()) continue;  // not asked for.
    RP_ASSIGN_OR_RETURN(history[channel].seed,
                        backend.StoredValue(
                            [&] {
                              return record_names::Blob(request.thread_id,
                                                        request.ns, channel,
                                                        version->second);
                            },
                            rows.Get(i, 1), rows.Get(i, 2), "value"));
  }
  for (const auto& [channel, version] : walk.blob_seeds) {
    if (!history[channel].seed) {
      return Status::IOError("checkpoint_blobs row (channel=\"" + channel +
                             "\", version=\"" + pg::VersionKey(version) +
                             "\"), seen by the delta walk, is not read back "
                             "in the same REPEATABLE READ transaction");
    }
  }
  for (const auto& [channel, value] : walk.inline_seeds) {
    history[channel].seed = value;
  }
  return Status::OK();
}

// Round trip 1's pipeline: BEGIN and the walk (kWalk).
std::vector<pg::Query> WalkQueries(PostgresCheckpointer& backend,
                                   const Request& request) {
  const bool sealed = backend.cipher() != nullptr;
  pg::Params params = {pg::Text(request.thread_id), pg::Text(request.ns),
                       pg::TextArray(request.channels)};
  if (request.checkpoint_id) params.push_back(pg::Text(*request.checkpoint_id));
  const pg::Statement& walk =
      request.checkpoint_id
          ? backend.Stmt("rp_delta_walk_id",
                         [&] { return WalkSql(true, sealed); })
          : backend.Stmt("rp_delta_walk_latest",
                         [&] { return WalkSql(false, sealed); });
  std::vector<pg::Query> queries;
  queries.push_back(pg::Query{nullptr, kBeginRead, {}});
  queries.push_back(pg::Query{&walk, "", std::move(params)});
  return queries;
}

// Round trip 2 on `connection` (inside round trip 1's transaction): the
// writes of `walk`'s ancestors and its seed blobs into `history`, each
// statement only when needed, then COMMIT.
Status ReadChain(PostgresCheckpointer& backend, pg::Connection& connection,
                 const Request& request, const Walk& walk,
                 DeltaHistory& history) {
  std::vector<pg::Query> queries;
  const pg::Params keys = {pg::Text(request.thread_id), pg::Text(request.ns)};
  if (!walk.visited.empty()) {
    std::vector<std::string> ids;
    for (const Visited& at : walk.visited) ids.push_back(at.checkpoint_id);
    pg::Params params = keys;
    params.push_back(pg::TextArray(ids));
    params.push_back(pg::TextArray(request.channels));
    queries.push_back(pg::Query{&backend.Stmt("rp_delta_writes", kChainWrites),
                                "", std::move(params)});
  }
  if (!walk.blob_seeds.empty()) {
    std::vector<std::string> channels;
    std::vector<std::string> versions;
    for (const auto& [channel, version] : walk.blob_seeds) {
      channels.push_back(channel);
      versions.push_back(pg::VersionKey(version));
    }
    pg::Params params = keys;
    params.push_back(pg::TextArray(channels));
    params.push_back(pg::TextArray(versions));
    queries.push_back(pg::Query{&backend.Stmt("rp_delta_seeds", kSeedBlobs), "",
                                std::move(params)});
  }
  queries.push_back(pg::Query{nullptr, "COMMIT", {}});
  RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> results, connection.Run(queries));
  size_t next = 0;
  if (!walk.visited.empty()) {
    RP_RETURN_IF_ERROR(
        AddWrites(backend, results[next++], request, walk, history));
  }
  const pg::Rows none(nullptr);
  return AddSeeds(backend, walk.blob_seeds.empty() ? none : results[next],
                  request, walk, history);
}

bool IdsStorable(const CheckpointConfig& config, size_t max_bytes) {
  return pg::IsStorableText(*config.thread_id, max_bytes) &&
         pg::IsStorableText(NamespaceOf(config), max_bytes) &&
         (!config.checkpoint_id ||
          pg::IsStorableText(*config.checkpoint_id, max_bytes));
}

}  // namespace

Result<DeltaHistory> PostgresCheckpointer::DoGetDeltaChannelHistory(
    const CheckpointConfig& config, const std::vector<std::string>& channels) {
  DeltaHistory history;
  if (channels.empty()) return history;
  const size_t max = limits().max_id_bytes;
  std::set<std::string> storable;
  for (const std::string& channel : channels) {
    history[channel];
    if (pg::IsStorableText(channel, max)) storable.insert(channel);
  }
  // Ids no TEXT column holds name no checkpoint.
  if (!IdsStorable(config, max)) {
    return Status::NotFound(NotFoundMessage(config));
  }
  const Request request{*config.thread_id,
                        std::string(NamespaceOf(config)),
                        config.checkpoint_id,
                        {storable.begin(), storable.end()}};

  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> walked,
                      lease->Run(WalkQueries(*this, request)));
  Result<Walk> walk =
      walked[1].size() == 0
          ? Result<Walk>(Status::NotFound(NotFoundMessage(config)))
          : FollowChain(*this, walked[1], request);
  if (!walk.ok()) {
    // The read transaction ends before the connection goes back.
    (void)lease->RunOne(pg::Query{nullptr, "COMMIT", {}});
    return walk.status();
  }
  RP_RETURN_IF_ERROR(ReadChain(*this, *lease, request, *walk, history));
  return history;
}

}  // namespace rockpoint
