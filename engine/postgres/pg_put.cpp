// put and put_writes: one pipeline each, so one round trip and one implicit
// transaction: the thread's shared advisory lock, then every row. In an
// encrypted store each checkpoint, value and write is sealed under its
// record name first (pg_sealed.h).
#include <string>
#include <vector>

#include "engine/backend_rules.h"
#include "engine/postgres/pg_sealed.h"
#include "engine/postgres/postgres_impl.h"
#include "engine/record_names.h"

namespace rockpoint {
namespace {

// A value is never replaced: the first stored under a version wins.
constexpr const char* kInsertBlob =
    "INSERT INTO checkpoint_blobs "
    "(thread_id, checkpoint_ns, channel, version, type, blob) "
    "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING";

// A re-put of a checkpoint id replaces its row (and makes it visible).
constexpr const char* kUpsertCheckpoint =
    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, checkpoint, metadata) "
    "VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET "
    "parent_checkpoint_id = EXCLUDED.parent_checkpoint_id, "
    "checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata";

constexpr const char* kUpsertSideRow =
    "INSERT INTO {rp} (thread_id, checkpoint_ns, checkpoint_id, hidden, "
    "stored_channels, pending_sends) "
    "VALUES ($1, $2, $3, false, $4::jsonb, $5::jsonb) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET "
    "hidden = false, stored_channels = EXCLUDED.stored_channels, "
    "pending_sends = EXCLUDED.pending_sends";

// Regular writes: first wins. Special writes: last wins.
constexpr const char* kInsertWrite =
    "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, "
    "task_id, task_path, idx, channel, type, blob) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) "
    "DO NOTHING";
constexpr const char* kUpsertWrite =
    "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, "
    "task_id, task_path, idx, channel, type, blob) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) "
    "DO UPDATE SET task_path = EXCLUDED.task_path, channel = "
    "EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob";

// The "empty" marker LangGraph stores for a channel versioned without a
// value.
constexpr const char* kEmptyType = "empty";

Status CheckWriteTexts(const CheckpointConfig& config,
                       const std::vector<ChannelWrite>& writes,
                       std::string_view task_id, std::string_view task_path,
                       size_t max_bytes) {
  RP_RETURN_IF_ERROR(
      pg::CheckStorableText("config.thread_id", *config.thread_id, max_bytes));
  RP_RETURN_IF_ERROR(pg::CheckStorableText("config.checkpoint_ns",
                                           NamespaceOf(config), max_bytes));
  RP_RETURN_IF_ERROR(pg::CheckStorableText("config.checkpoint_id",
                                           *config.checkpoint_id, max_bytes));
  RP_RETURN_IF_ERROR(pg::CheckStorableText("task_id", task_id, max_bytes));
  RP_RETURN_IF_ERROR(pg::CheckStorableText("task_path", task_path, max_bytes));
  for (const ChannelWrite& write : writes) {
    RP_RETURN_IF_ERROR(
        pg::CheckStorableText("write channel", write.channel, max_bytes));
    RP_RETURN_IF_ERROR(pg::CheckStorableText("write type", write.value.type,
                                             std::string::npos));
  }
  return Status::OK();
}

}  // namespace

Result<CheckpointConfig> PostgresCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  RP_RETURN_IF_ERROR(pg::CheckPutTexts(config, checkpoint, new_versions,
                                       limits().max_id_bytes));
  const std::string& thread_id = *config.thread_id;
  const std::string ns(NamespaceOf(config));

  std::vector<std::string> stored_channels;
  std::vector<pg::Query> queries;
  queries.push_back(LockThread(thread_id, /*exclusive=*/false));
  const pg::Statement& insert_blob = Stmt("rp_insert_blob", kInsertBlob);
  for (const auto& [channel, version] : new_versions) {
    if (StoresValueItNames(checkpoint, channel, version)) {
      stored_channels.push_back(channel);  // map order: sorted.
    }
    pg::Params params = {pg::Text(thread_id), pg::Text(ns), pg::Text(channel),
                         pg::Text(pg::VersionKey(version))};
    auto value = checkpoint.channel_values.find(channel);
    if (value == checkpoint.channel_values.end()) {
      params.push_back(pg::Text(kEmptyType));  // holds nothing to seal.
      params.push_back(pg::Null());
    } else {
      RP_ASSIGN_OR_RETURN(auto stored, ValueParams(
                                           [&] {
                                             return record_names::Blob(
                                                 thread_id, ns, channel,
                                                 version);
                                           },
                                           value->second));
      params.push_back(std::move(stored.first));
      params.push_back(std::move(stored.second));
    }
    queries.push_back(pg::Query{&insert_blob, "", std::move(params)});
  }
  pg::CheckpointColumns columns{
      pg::CheckpointToJson(checkpoint), pg::MetadataToJson(metadata),
      checkpoint.pending_sends
          ? std::optional(pg::PendingSendsToJson(*checkpoint.pending_sends))
          : std::nullopt};
  if (cipher() != nullptr) {
    RP_ASSIGN_OR_RETURN(
        columns, pg::SealCheckpoint(*cipher(), thread_id, ns, checkpoint.id,
                                    columns, &metadata));
  }
  queries.push_back(
      pg::Query{&Stmt("rp_upsert_checkpoint", kUpsertCheckpoint),
                "",
                {pg::Text(thread_id), pg::Text(ns), pg::Text(checkpoint.id),
                 pg::OptionalText(config.checkpoint_id),
                 pg::Text(columns.checkpoint), pg::Text(columns.metadata)}});
  queries.push_back(
      pg::Query{&Stmt("rp_upsert_side_row", kUpsertSideRow),
                "",
                {pg::Text(thread_id), pg::Text(ns), pg::Text(checkpoint.id),
                 pg::Text(pg::ChannelsToJson(stored_channels)),
                 pg::OptionalText(columns.pending_sends)}});

  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  RP_RETURN_IF_ERROR(lease->Run(queries).status());
  return CheckpointConfig{thread_id, ns, checkpoint.id};
}

Status PostgresCheckpointer::DoPutWrites(
    const CheckpointConfig& config, const std::vector<ChannelWrite>& writes,
    std::string_view task_id, std::string_view task_path) {
  RP_RETURN_IF_ERROR(CheckWriteTexts(config, writes, task_id, task_path,
                                     limits().max_id_bytes));
  if (writes.empty()) return Status::OK();
  std::vector<pg::Query> queries;
  queries.push_back(LockThread(*config.thread_id, /*exclusive=*/false));
  const pg::Statement& insert = Stmt("rp_insert_write", kInsertWrite);
  const pg::Statement& upsert = Stmt("rp_upsert_write", kUpsertWrite);
  for (size_t i = 0; i < writes.size(); ++i) {
    const ChannelWrite& write = writes[i];
    const bool special = SpecialWriteIndex(write.channel).has_value();
    const int64_t idx = WriteIndex(write.channel, i);
    RP_ASSIGN_OR_RETURN(
        auto stored, ValueParams(
                         [&] {
                           return record_names::Write(
                               *config.thread_id, NamespaceOf(config),
                               *config.checkpoint_id, task_path, task_id, idx);
                         },
                         write.value));
    queries.push_back(
        pg::Query{special ? &upsert : &insert,
                  "",
                  {pg::Text(*config.thread_id), pg::Text(NamespaceOf(config)),
                   pg::Text(*config.checkpoint_id), pg::Text(task_id),
                   pg::Text(task_path), pg::Int(idx), pg::Text(write.channel),
                   std::move(stored.first), std::move(stored.second)}});
  }
  RP_ASSIGN_OR_RETURN(Lease lease, Acquire());
  return lease->Run(queries).status();
}

}  // namespace rockpoint
