// get_tuple and the helpers that turn a checkpoints row into a tuple:
// one query for the row, one for its channel values, one for its writes.
#include <algorithm>
#include <array>
#include <iterator>
#include <set>
#include <string>

#include "engine/backend_rules.h"
#include "engine/missing_value.h"
#include "engine/sqlite/sqlite_impl.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint {
namespace {

using sqlite_internal::PrintableBytes;
using sqlite_internal::Statement;
using sqlite_internal::Transaction;

using sqlite_queries::kMaxValuePairs;

// A checkpoint row of (thread, ns), hidden ones too: its parent and record.
constexpr const char* kSelectAncestor =
    "SELECT parent_checkpoint_id, checkpoint FROM checkpoints "
    "WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?3";

}  // namespace

// Statement sizes are powers of two so that a handful of cached statements
// serve every checkpoint; NULL pairs pad them and match nothing.
const std::string& sqlite_queries::ValuesQuery(size_t pairs) {
  static const auto* const kSql = [] {
    auto* sql = new std::array<std::string, 9>();
    for (size_t slot = 0; slot < sql->size(); ++slot) {
      const size_t n = size_t{1} << slot;
      std::string text = "SELECT b.channel, b.type, b.blob FROM (VALUES ";
      for (size_t i = 0; i < n; ++i) {
        if (i > 0) text += ", ";
        text += "(?" + std::to_string(3 + 2 * i) + ", ?" +
                std::to_string(4 + 2 * i) + ")";
      }
      text +=
          ") AS want CROSS JOIN checkpoint_blobs AS b "
          "ON b.thread_id = ?1 AND b.checkpoint_ns = ?2 "
          "AND b.channel = want.column1 AND b.version = want.column2";
      (*sql)[slot] = std::move(text);
    }
    return sql;
  }();
  static_assert(kMaxValuePairs == size_t{1} << 8);
  size_t slot = 0;
  while (slot + 1 < kSql->size() && (size_t{1} << slot) < pairs) ++slot;
  return (*kSql)[slot];
}

SqliteCheckpointRow ReadCheckpointRow(const Statement& stmt) {
  SqliteCheckpointRow row;
  row.thread_id = stmt.ColumnString(0);
  row.checkpoint_ns = stmt.ColumnString(1);
  row.checkpoint_id = stmt.ColumnString(2);
  if (!stmt.IsNull(3)) row.parent_id = stmt.ColumnString(3);
  row.record = stmt.ColumnString(4);
  row.metadata = stmt.ColumnString(5);
  row.hidden = stmt.ColumnInt(6) != 0;
  return row;
}

std::string CheckpointRowName(std::string_view thread_id,
                              std::string_view checkpoint_ns,
                              std::string_view checkpoint_id) {
  return sqlite_records::CheckpointRowName(
      {thread_id, checkpoint_ns, checkpoint_id});
}

Result<std::optional<SqliteCheckpointRow>> SqliteCheckpointer::FindVisibleRow(
    std::string_view thread_id, std::string_view checkpoint_ns,
    const std::optional<std::string>& checkpoint_id) {
  RP_ASSIGN_OR_RETURN(
      Statement select,
      db()->Prepare(checkpoint_id ? sqlite_queries::kSelectVisibleById
                                  : sqlite_queries::kSelectLatestVisible));
  select.BindBytes(1, thread_id);
  select.BindBytes(2, checkpoint_ns);
  if (checkpoint_id) select.BindBytes(3, *checkpoint_id);
  RP_ASSIGN_OR_RETURN(bool found, select.Step());
  if (!found) return std::optional<SqliteCheckpointRow>();
  return std::optional<SqliteCheckpointRow>(ReadCheckpointRow(select));
}

Result<Metadata> SqliteCheckpointer::DecodeRowMetadata(
    SqliteCheckpointRow& row) {
  if (cipher() == nullptr) {
    return sqlite_records::DecodePlainMetadata(row.key(), row.metadata);
  }
  RP_ASSIGN_OR_RETURN(
      sqlite_records::DecodedCheckpoint decoded,
      sqlite_records::DecodeCheckpoint(cipher(), row.key(), row.parent_id,
                                       row.record, row.metadata));
  row.decoded = std::move(decoded.record);
  return std::move(decoded.metadata);
}

Result<CheckpointTuple> SqliteCheckpointer::BuildTuple(SqliteCheckpointRow& row,
                                                       Metadata metadata) {
  if (!row.decoded && cipher() != nullptr) {
    RP_RETURN_IF_ERROR(DecodeRowMetadata(row).status());
  }
  if (!row.decoded) {
    RP_ASSIGN_OR_RETURN(
        row.decoded, sqlite_records::DecodePlainRecord(row.key(), row.record));
  }
  serde::CheckpointRecord& record = *row.decoded;

  CheckpointTuple tuple;
  tuple.config = {row.thread_id, row.checkpoint_ns, row.checkpoint_id};
  if (row.parent_id) {
    tuple.parent_config = {row.thread_id, row.checkpoint_ns, *row.parent_id};
  }
  tuple.metadata = std::move(metadata);
  tuple.hidden = row.hidden;
  Checkpoint& checkpoint = tuple.checkpoint;
  checkpoint.v = record.v;
  checkpoint.id = row.checkpoint_id;
  checkpoint.ts = std::move(record.ts);
  checkpoint.channel_versions = std::move(record.header.channel_versions);
  checkpoint.versions_seen = std::move(record.versions_seen);
  checkpoint.updated_channels = std::move(record.updated_channels);
  checkpoint.pending_sends = std::move(record.pending_sends);
  std::set<std::string> present;
  RP_ASSIGN_OR_RETURN(checkpoint.channel_values,
                      LoadValues(row.thread_id, row.checkpoint_ns,
                                 checkpoint.channel_versions, &present));
  for (const auto& [channel, version] : checkpoint.channel_versions) {
    if (present.contains(channel)) continue;
    RP_RETURN_IF_ERROR(CheckMissingValue(
        row.thread_id, row.checkpoint_ns, row.checkpoint_id,
        record.header.stored_channels, row.parent_id, channel, version));
  }
  RP_ASSIGN_OR_RETURN(
      tuple.pending_writes,
      LoadWrites(row.thread_id, row.checkpoint_ns, row.checkpoint_id));
  return tuple;
}

Result<std::map<std::string, TypedValue>> SqliteCheckpointer::LoadValues(
    std::string_view thread_id, std::string_view checkpoint_ns,
    const ChannelVersions& versions, std::set<std::string>* present) {
  std::map<std::string, TypedValue> values;
  auto next = versions.begin();
  while (next != versions.end()) {
    const size_t remaining = std::distance(next, versions.end());
    const size_t pairs = std::min(remaining, kMaxValuePairs);
    RP_ASSIGN_OR_RETURN(Statement select,
                        db()->Prepare(sqlite_queries::ValuesQuery(pairs)));
    select.BindBytes(1, thread_id);
    select.BindBytes(2, checkpoint_ns);
    for (size_t i = 0; i < pairs; ++i, ++next) {
      select.BindBytes(3 + 2 * static_cast<int>(i), next->first);
      select.BindVersion(4 + 2 * static_cast<int>(i), next->second);
    }
    while (true) {
      RP_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      std::string channel = select.ColumnString(0);
      // The row matched (channel, version) of `versions`.
      const auto version = versions.find(channel);
      if (version == versions.end()) continue;
      RP_ASSIGN_OR_RETURN(
          std::optional<TypedValue> value,
          sqlite_records::DecodeBlob(
              cipher(), {thread_id, checkpoint_ns, channel, version->second},
              select.ColumnViewOrNull(1), select.ColumnViewOrNull(2)));
      if (present != nullptr) present->insert(channel);
      if (!value) continue;  // the "empty" marker.
      values[std::move(channel)] = std::move(*value);
    }
  }
  return values;
}

Status SqliteCheckpointer::CheckMissingValue(
    std::string_view thread_id, std::string_view checkpoint_ns,
    std::string_view checkpoint_id,
    const std::vector<std::string>& stored_channels,
    const std::optional<std::string>& parent_id, const std::string& channel,
    const ChannelVersion& version) {
  const HeaderReader header_of = [&](const std::string& id)
      -> Result<std::optional<serde::CheckpointHeader>> {
    mu_.AssertHeld();  // called only within this function, which holds it.
    RP_ASSIGN_OR_RETURN(Statement select, db()->Prepare(kSelectAncestor));
    select.BindBytes(1, thread_id);
    select.BindBytes(2, checkpoint_ns);
    select.BindBytes(3, id);
    RP_ASSIGN_OR_RETURN(bool found, select.Step());
    if (!found) return std::optional<serde::CheckpointHeader>();
    // The parent column, not the record, is authoritative (an encrypted
    // store checks they agree).
    const std::optional<std::string> parent =
        select.IsNull(0) ? std::optional<std::string>()
                         : std::optional<std::string>(select.ColumnString(0));
    RP_ASSIGN_OR_RETURN(
        serde::CheckpointHeader header,
        sqlite_records::DecodeHeader(cipher(), {thread_id, checkpoint_ns, id},
                                     parent, select.ColumnView(1)));
    header.parent_id = parent;
    return std::optional<serde::CheckpointHeader>(std::move(header));
  };
  RP_ASSIGN_OR_RETURN(
      std::optional<std::string> storer,
      FindLostValueStorer(checkpoint_id, stored_channels, parent_id, channel,
                          version, header_of));
  if (!storer) return Status::OK();
  return Status::Corruption(
      "checkpoint_blobs row (thread_id=" + PrintableBytes(thread_id) +
      ", checkpoint_ns=" + PrintableBytes(checkpoint_ns) +
      ", channel=" + PrintableBytes(channel) + ") is missing: the " +
      CheckpointRowName(thread_id, checkpoint_ns, checkpoint_id) +
      " reads its version, and the put of checkpoint_id=" +
      PrintableBytes(*storer) + " stored it");
}

Result<std::vector<PendingWrite>> SqliteCheckpointer::LoadWrites(
    std::string_view thread_id, std::string_view checkpoint_ns,
    std::string_view checkpoint_id) {
  RP_ASSIGN_OR_RETURN(Statement select,
                      db()->Prepare(sqlite_queries::kSelectWrites));
  select.BindBytes(1, thread_id);
  select.BindBytes(2, checkpoint_ns);
  select.BindBytes(3, checkpoint_id);
  std::vector<PendingWrite> writes;
  while (true) {
    RP_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    PendingWrite write;
    write.task_id = select.ColumnString(0);
    write.channel = select.ColumnString(1);
    write.task_path = select.ColumnString(4);
    write.idx = select.ColumnInt(5);
    RP_ASSIGN_OR_RETURN(
        write.value,
        sqlite_records::DecodeWrite(cipher(),
                                    {thread_id, checkpoint_ns, checkpoint_id,
                                     write.task_path, write.task_id, write.idx},
                                    write.channel, select.ColumnView(2),
                                    select.ColumnView(3)));
    write.checkpoint_id = std::string(checkpoint_id);
    writes.push_back(std::move(write));
  }
  return writes;
}

Result<std::optional<CheckpointTuple>> SqliteCheckpointer::DoGetTuple(
    const CheckpointConfig& config) {
  base::MutexLock lock(&mu_);
  if (!config.thread_id) return std::optional<CheckpointTuple>();
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginRead(db()));
  RP_ASSIGN_OR_RETURN(std::optional<SqliteCheckpointRow> row,
                      FindVisibleRow(*config.thread_id, NamespaceOf(config),
                                     config.checkpoint_id));
  if (!row) return std::optional<CheckpointTuple>();
  RP_ASSIGN_OR_RETURN(Metadata metadata, DecodeRowMetadata(*row));
  RP_ASSIGN_OR_RETURN(CheckpointTuple tuple,
                      BuildTuple(*row, std::move(metadata)));
  return std::optional<CheckpointTuple>(std::move(tuple));
}

}  // namespace rockpoint
