// get_tuple, and turning checkpoint rows with their value and write rows
// into tuples: one pipeline of BEGIN (REPEATABLE READ READ ONLY), the three
// TupleQueries and COMMIT, so one round trip.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "engine/backend_rules.h"
#include "engine/missing_value.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/record_names.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint {
namespace {

// One checkpoint row of (thread, ns), hidden ones too.
constexpr const char* kSelectOne =
    "WITH cp AS (SELECT {cte} FROM {from} WHERE c.thread_id = $1 AND "
    "c.checkpoint_ns = $2 AND c.checkpoint_id = $3) SELECT {columns} FROM cp";

constexpr const char* kLatestOrder = "cp.checkpoint_id COLLATE \"C\" DESC";

// An inline JSON null (a None value) seeds nothing, as in LangGraph.
constexpr std::string_view kMsgpackNil = "\xc0";

using Key = std::tuple<std::string, std::string, std::string>;

std::string Expand(std::string text) {
  text = ReplaceAll(std::move(text), "{cte}", kCteColumns);
  text = ReplaceAll(std::move(text), "{from}", kCheckpointFrom);
  return ReplaceAll(std::move(text), "{columns}", kCheckpointColumns);
}

bool WriteOrder(const PendingWrite& a, const PendingWrite& b) {
  return std::tie(a.task_path, a.task_id, a.idx) <
         std::tie(b.task_path, b.task_id, b.idx);
}

}  // namespace

std::vector<std::string> TupleQueries(std::string_view cte,
                                      std::string_view order_by) {
  const std::string with = "WITH cp AS (" + std::string(cte) + ") ";
  // Values and writes are looked up per checkpoint (and per channel) by
  // primary key: a LATERAL with OFFSET 0 keeps the planner from turning the
  // lookup into a join that reads every row of the thread.
  return {
      with + "SELECT " + kCheckpointColumns + " FROM cp ORDER BY " +
          std::string(order_by),
      with +
          "SELECT cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, v.key, "
          "b.type, b.blob FROM cp CROSS JOIN LATERAL "
          "jsonb_each(CASE WHEN jsonb_typeof(cp.checkpoint -> "
          "'channel_versions') = 'object' THEN cp.checkpoint -> "
          "'channel_versions' ELSE '{}' END) AS v "
          "CROSS JOIN LATERAL (SELECT b.type, b.blob FROM checkpoint_blobs b "
          "WHERE b.thread_id = cp.thread_id "
          "AND b.checkpoint_ns = cp.checkpoint_ns AND b.channel = v.key "
          "AND b.version = " +
          pg::VersionKeySql("v.value") + " OFFSET 0) AS b",
      with +
          "SELECT cp.thread_id, cp.checkpoint_ns, cp.checkpoint_id, "
          "w.task_id, w.channel, w.type, w.blob, w.task_path, w.idx "
          "FROM cp CROSS JOIN LATERAL (SELECT * FROM checkpoint_writes w "
          "WHERE w.thread_id = cp.thread_id "
          "AND w.checkpoint_ns = cp.checkpoint_ns "
          "AND w.checkpoint_id = cp.checkpoint_id OFFSET 0) AS w",
  };
}

std::string RowName(const PgCheckpointRow& row) {
  return RowName(row.thread_id, row.checkpoint_ns, row.checkpoint_id);
}

PgCheckpointRow ReadCheckpointRow(const pg::Rows& rows, int row) {
  PgCheckpointRow out;
  out.thread_id = rows.GetString(row, 0);
  out.checkpoint_ns = rows.GetString(row, 1);
  out.checkpoint_id = rows.GetString(row, 2);
  out.parent_id = rows.GetOptional(row, 3);
  out.checkpoint_json = rows.GetString(row, 4);
  out.metadata_json = rows.GetString(row, 5);
  out.stored_channels_json = rows.GetOptional(row, 6);
  out.pending_sends_json = rows.GetOptional(row, 7);
  out.hidden = rows.GetBool(row, 8);
  return out;
}

Result<PgHeader> DecodeHeader(const PgCheckpointRow& row) {
  RP_ASSIGN_OR_RETURN(pg::StoredCheckpoint stored,
                      pg::CheckpointFromJson(row.checkpoint_json,
                                             RowName(row) + " checkpoint"));
  PgHeader out;
  out.header.parent_id = row.parent_id;
  out.header.hidden = row.hidden;
  out.header.channel_versions = std::move(stored.checkpoint.channel_versions);
  out.ts = std::move(stored.checkpoint.ts);
  if (row.stored_channels_json) {
    RP_ASSIGN_OR_RETURN(
        out.header.stored_channels,
        pg::ChannelsFromJson(*row.stored_channels_json,
                             RowName(row) + " stored_channels"));
  } else {
    for (const auto& [channel, version] : out.header.channel_versions) {
      out.header.stored_channels.push_back(channel);
    }
  }
  for (const auto& [channel, value] : stored.inline_values) {
    (value.bytes != kMsgpackNil ? out.inline_channels
                                : out.inline_null_channels)
        .insert(channel);
  }
  return out;
}

Result<std::vector<CheckpointTuple>> PostgresCheckpointer::BuildTuples(
    pg::Connection& connection, const pg::Rows& checkpoints,
    const pg::Rows& values, const pg::Rows& writes) {
  std::vector<CheckpointTuple> tuples;
  std::vector<PgCheckpointRow> rows;
  std::map<Key, size_t> index;
  for (int i = 0; i < checkpoints.size(); ++i) {
    PgCheckpointRow row = ReadCheckpointRow(checkpoints, i);
    RP_RETURN_IF_ERROR(UnsealRow(row));
    index[{row.thread_id, row.checkpoint_ns, row.checkpoint_id}] =
        tuples.size();
    RP_ASSIGN_OR_RETURN(pg::StoredCheckpoint stored,
                        pg::CheckpointFromJson(row.checkpoint_json,
                                               RowName(row) + " checkpoint"));
    CheckpointTuple tuple;
    tuple.config = {row.thread_id, row.checkpoint_ns, row.checkpoint_id};
    if (row.parent_id) {
      tuple.parent_config = {row.thread_id, row.checkpoint_ns, *row.parent_id};
    }
    RP_ASSIGN_OR_RETURN(
        tuple.metadata,
        pg::MetadataFromJson(row.metadata_json, RowName(row) + " metadata"));
    tuple.hidden = row.hidden;
    tuple.checkpoint = std::move(stored.checkpoint);
    tuple.checkpoint.id = row.checkpoint_id;
    // Inline values first; a value row under the channel's version wins.
    tuple.checkpoint.channel_values = std::move(stored.inline_values);
    if (row.pending_sends_json) {
      RP_ASSIGN_OR_RETURN(
          tuple.checkpoint.pending_sends,
          pg::PendingSendsFromJson(*row.pending_sends_json,
                                   RowName(row) + " pending_sends"));
    }
    tuples.push_back(std::move(tuple));
    rows.push_back(std::move(row));
  }
  std::vector<std::set<std::string>> present(tuples.size());
  for (int i = 0; i < values.size(); ++i) {
    auto found = index.find({values.GetString(i, 0), values.GetString(i, 1),
                             values.GetString(i, 2)});
    if (found == index.end()) continue;
    std::string channel = values.GetString(i, 3);
    present[found->second].insert(channel);
    if (values.IsNull(i, 5)) continue;  // the "empty" marker.
    CheckpointTuple& tuple = tuples[found->second];
    // The row was joined by this version: the channel has it.
    const auto version = tuple.checkpoint.channel_versions.find(channel);
    if (version == tuple.checkpoint.channel_versions.end()) continue;
    RP_ASSIGN_OR_RETURN(tuple.checkpoint.channel_values[channel],
                        StoredValue(
                            [&] {
                              return record_names::Blob(
                                  values.Get(i, 0), values.Get(i, 1), channel,
                                  version->second);
                            },
                            values.Get(i, 4), values.Get(i, 5), "value"));
  }
  for (int i = 0; i < writes.size(); ++i) {
    auto found = index.find({writes.GetString(i, 0), writes.GetString(i, 1),
                             writes.GetString(i, 2)});
    if (found == index.end()) continue;
    PendingWrite write;
    write.task_id = writes.GetString(i, 3);
    write.channel = writes.GetString(i, 4);
    write.task_path = writes.GetString(i, 7);
    write.idx = writes.GetInt(i, 8);
    write.checkpoint_id = writes.GetString(i, 2);
    RP_ASSIGN_OR_RETURN(write.value,
                        StoredValue(
                            [&] {
                              return record_names::Write(
                                  writes.Get(i, 0), writes.Get(i, 1),
                                  write.checkpoint_id, write.task_path,
                                  write.task_id, write.idx);
                            },
                            writes.Get(i, 5), writes.Get(i, 6), "write"));
    tuples[found->second].pending_writes.push_back(std::move(write));
  }
  for (size_t t = 0; t < tuples.size(); ++t) {
    CheckpointTuple& tuple = tuples[t];
    std::sort(tuple.pending_writes.begin(), tuple.pending_writes.end(),
              WriteOrder);
    if (!rows[t].stored_channels_json) continue;  // LangGraph's: no record.
    RP_ASSIGN_OR_RETURN(
        const std::vector<std::string> stored,
        pg::ChannelsFromJson(*rows[t].stored_channels_json,
                             RowName(rows[t]) + " stored_channels"));
    for (const auto& [channel, version] : tuple.checkpoint.channel_versions) {
      if (present[t].contains(channel) ||
          tuple.checkpoint.channel_values.contains(channel)) {
        continue;
      }
      RP_RETURN_IF_ERROR(
          CheckMissingValue(connection, rows[t], stored, channel, version));
    }
  }
  return tuples;
}

Status PostgresCheckpointer::CheckMissingValue(
    pg::Connection& connection, const PgCheckpointRow& row,
    const std::vector<std::string>& stored_channels, const std::string& channel,
    const ChannelVersion& version) {
  const pg::Statement& select_one = Stmt("rp_select_one", Expand(kSelectOne));
  const HeaderReader header_of = [&](const std::string& id)
      -> Result<std::optional<serde::CheckpointHeader>> {
    RP_ASSIGN_OR_RETURN(pg::Rows rows,
                        connection.RunOne(pg::Query{
                            &select_one,
                            "",
                            {pg::Text(row.thread_id),
                             pg::Text(row.checkpoint_ns), pg::Text(id)}}));
    if (rows.size() == 0) return std::optional<serde::CheckpointHeader>();
    PgCheckpointRow ancestor_row = ReadCheckpointRow(rows, 0);
    RP_RETURN_IF_ERROR(UnsealRow(ancestor_row));
    RP_ASSIGN_OR_RETURN(PgHeader ancestor, DecodeHeader(ancestor_row));
    if (!ancestor_row.stored_channels_json) {
      ancestor.header.stored_channels.clear();  // LangGraph's: unknown.
    }
    return std::optional<serde::CheckpointHeader>(std::move(ancestor.header));
  };
  RP_ASSIGN_OR_RETURN(
      std::optional<std::string> storer,
      FindLostValueStorer(row.checkpoint_id, stored_channels, row.parent_id,
                          channel, version, header_of));
  if (!storer) return Status::OK();
  return Status::Corruption(
      "checkpoint_blobs row (thread_id=\"" + row.thread_id +
      "\", checkpoint_ns=\"" + row.checkpoint_ns + "\", channel=\"" + channel +
      "\", version=\"" + pg::VersionKey(version) + "\") is missing: the " +
      RowName(row) + " reads it, and the put of checkpoint_id=\"" + *storer +
      "\" stored it");
}

Result<std::vector<CheckpointTuple>> PostgresCheckpointer::ReadTuples(
    std::string_view name, std::string_view cte, std::string_view order_by,
    const pg::Params& params) {
  // The SQL is built only the first time `name` is used.
  const auto statement = [&](const char* suffix,
                             size_t i) -> const pg::Statement& {
    return Stmt(std::string(name) + suffix,
                [&] { return TupleQueries(cte, order_by)[i]; });
  };
  std::vector<pg::Query> queries;
  queries.push_back(pg::Query{nullptr, kBeginRead, {}});
  queries.push_back(pg::Query{&statement("_c", 0), "", params});
  queries.push_back(pg::Query{&statement("_v", 1), "", params});
  queries.push_back(pg::Query{&statement("_w", 2), "", params});
  queries.push_back(pg::Query{nullptr, "COMMIT", {}});
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_ASSIGN_OR_RETURN(std::vector<pg::Rows> results, lease->Run(queries));
  return BuildTuples(*lease, results[1], results[2], results[3]);
}

Result<std::optional<CheckpointTuple>> PostgresCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  const size_t max = limits().max_id_bytes;
  if (!config.thread_id || !pg::IsStorableText(*config.thread_id, max) ||
      !pg::IsStorableText(NamespaceOf(config), max) ||
      (config.checkpoint_id &&
       !pg::IsStorableText(*config.checkpoint_id, max))) {
    return std::optional<CheckpointTuple>();  // nothing is stored there.
  }
  static const std::string kById = Expand(
      "SELECT {cte} FROM {from} WHERE c.thread_id = $1 AND c.checkpoint_ns = "
      "$2 AND c.checkpoint_id = $3 AND r.hidden IS NOT TRUE");
  static const std::string kLatest = Expand(
      "SELECT {cte} FROM {from} WHERE c.thread_id = $1 AND c.checkpoint_ns = "
      "$2 AND r.hidden IS NOT TRUE ORDER BY c.checkpoint_id COLLATE \"C\" "
      "DESC LIMIT 1");
  pg::Params params = {pg::Text(*config.thread_id),
                       pg::Text(NamespaceOf(config))};
  if (config.checkpoint_id) params.push_back(pg::Text(*config.checkpoint_id));
  RP_ASSIGN_OR_RETURN(
      std::vector<CheckpointTuple> tuples,
      config.checkpoint_id
          ? ReadTuples("rp_get_by_id", kById, kLatestOrder, params)
          : ReadTuples("rp_get_latest", kLatest, kLatestOrder, params));
  if (tuples.empty()) return std::optional<CheckpointTuple>();
  return std::optional<CheckpointTuple>(std::move(tuples.front()));
}

}  // namespace rockpoint
