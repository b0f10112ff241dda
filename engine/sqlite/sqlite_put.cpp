// put and put_writes: one BEGIN IMMEDIATE transaction each.
#include <optional>
#include <string>

#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

using sqlite_internal::Statement;
using sqlite_internal::Transaction;

// Blobs are immutable: the first value stored under a version wins.
constexpr const char* kInsertBlob =
    "INSERT OR IGNORE INTO checkpoint_blobs "
    "(thread_id, checkpoint_ns, channel, version, type, blob) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

constexpr const char* kInsertCheckpoint =
    "INSERT OR REPLACE INTO checkpoints "
    "(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, hidden, "
    "run_id, ts, checkpoint, metadata) "
    "VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8)";

// Regular writes: first wins. Special writes: last wins.
constexpr const char* kInsertWriteColumns =
    " INTO checkpoint_writes "
    "(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, "
    "value, task_path) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

void BindOptional(Statement& statement, int index,
                  const std::optional<std::string>& bytes) {
  if (bytes) {
    statement.BindBytes(index, *bytes);
  } else {
    statement.BindNull(index);
  }
}

}  // namespace

Result<CheckpointConfig> SqliteCheckpointer::DoPut(
    const CheckpointConfig& config, const Checkpoint& checkpoint,
    const Metadata& metadata, const ChannelVersions& new_versions) {
  base::MutexLock lock(&mu_);
  const std::string& thread_id = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);

  serde::CheckpointRecord record;
  record.header.parent_id = config.checkpoint_id;
  record.header.channel_versions = checkpoint.channel_versions;
  for (const auto& [channel, version] : new_versions) {
    if (StoresValueItNames(checkpoint, channel, version)) {
      record.header.stored_channels.push_back(channel);  // map order: sorted.
    }
  }
  record.v = checkpoint.v;
  record.ts = checkpoint.ts;
  record.versions_seen = checkpoint.versions_seen;
  record.updated_channels = checkpoint.updated_channels;
  record.pending_sends = checkpoint.pending_sends;
  RP_ASSIGN_OR_RETURN(
      const sqlite_records::CheckpointColumns columns,
      sqlite_records::EncodeCheckpoint(cipher(), {thread_id, ns, checkpoint.id},
                                       std::move(record), metadata));
  const Value* run_id = metadata.Find("run_id");

  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  RP_RETURN_IF_ERROR(CheckEncryptionUnchanged());
  for (const auto& [channel, version] : new_versions) {
    auto value = checkpoint.channel_values.find(channel);
    RP_ASSIGN_OR_RETURN(
        const sqlite_records::BlobColumns blob,
        sqlite_records::EncodeBlob(cipher(), {thread_id, ns, channel, version},
                                   value == checkpoint.channel_values.end()
                                       ? nullptr
                                       : &value->second));
    RP_ASSIGN_OR_RETURN(Statement insert, db()->Prepare(kInsertBlob));
    insert.BindBytes(1, thread_id);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, channel);
    insert.BindVersion(4, version);
    BindOptional(insert, 5, blob.type);  // both NULL: the "empty" marker.
    BindOptional(insert, 6, blob.blob);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  {
    RP_ASSIGN_OR_RETURN(Statement insert, db()->Prepare(kInsertCheckpoint));
    insert.BindBytes(1, thread_id);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, checkpoint.id);
    if (config.checkpoint_id) {
      insert.BindBytes(4, *config.checkpoint_id);
    } else {
      insert.BindNull(4);
    }
    if (run_id != nullptr && run_id->is_string()) {
      insert.BindBytes(5, run_id->as_string());
    } else {
      insert.BindNull(5);
    }
    insert.BindBytes(6, checkpoint.ts);
    insert.BindBytes(7, columns.checkpoint);
    insert.BindBytes(8, columns.metadata);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  RP_RETURN_IF_ERROR(txn.Commit());
  return CheckpointConfig{thread_id, std::string(ns), checkpoint.id};
}

Status SqliteCheckpointer::DoPutWrites(const CheckpointConfig& config,
                                       const std::vector<ChannelWrite>& writes,
                                       std::string_view task_id,
                                       std::string_view task_path) {
  base::MutexLock lock(&mu_);
  if (writes.empty()) return Status::OK();
  static const std::string kInsertRegular =
      std::string("INSERT OR IGNORE") + kInsertWriteColumns;
  static const std::string kInsertSpecial =
      std::string("INSERT OR REPLACE") + kInsertWriteColumns;

  const std::string& thread_id = *config.thread_id;
  const std::string_view ns = NamespaceOf(config);
  const std::string& checkpoint_id = *config.checkpoint_id;
  RP_ASSIGN_OR_RETURN(Transaction txn, Transaction::BeginWrite(db()));
  RP_RETURN_IF_ERROR(CheckEncryptionUnchanged());
  for (size_t i = 0; i < writes.size(); ++i) {
    const ChannelWrite& write = writes[i];
    const bool special = SpecialWriteIndex(write.channel).has_value();
    const int64_t idx = WriteIndex(write.channel, i);
    RP_ASSIGN_OR_RETURN(
        const sqlite_records::WriteColumns columns,
        sqlite_records::EncodeWrite(
            cipher(), {thread_id, ns, checkpoint_id, task_path, task_id, idx},
            write.channel, write.value));
    RP_ASSIGN_OR_RETURN(
        Statement insert,
        db()->Prepare(special ? kInsertSpecial : kInsertRegular));
    insert.BindBytes(1, thread_id);
    insert.BindBytes(2, ns);
    insert.BindBytes(3, checkpoint_id);
    insert.BindBytes(4, task_id);
    insert.BindInt(5, idx);
    insert.BindBytes(6, write.channel);
    insert.BindBytes(7, columns.type);
    insert.BindBytes(8, columns.value);
    insert.BindBytes(9, task_path);
    RP_RETURN_IF_ERROR(insert.Run());
  }
  return txn.Commit();
}

}  // namespace rockpoint
