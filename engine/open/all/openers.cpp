// OpenBackend and RekeyBackend (engine/open/openers.h) over every backend.
#include "engine/open/openers.h"

#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/sqlite/sqlite_checkpointer.h"

namespace rockpoint {
namespace {

PostgresOptions PostgresOptionsOf(const StoreLocation& location,
                                  const StoreOptions& options) {
  PostgresOptions postgres;
  postgres.url = location.target;
  postgres.create_if_missing = options.create_if_missing;
  postgres.read_only = options.read_only;
  if (options.limits) postgres.limits = *options.limits;
  postgres.encryption = options.encryption;
  postgres.pool_size = options.postgres.pool_size;
  postgres.connect_timeout_seconds = options.postgres.connect_timeout_seconds;
  return postgres;
}

}  // namespace

Result<std::unique_ptr<Checkpointer>> OpenBackend(const StoreLocation& location,
                                                  const StoreOptions& options) {
  switch (location.backend) {
    case BackendKind::kRocksDb:
      return OpenRocksDbBackend(location, options);
    case BackendKind::kSqlite:
      return AsFront(SqliteCheckpointer::Open(
          SharedOptions<SqliteOptions>(location, options)));
    case BackendKind::kJsonl: {
      auto jsonl = SharedOptions<JsonlOptions>(location, options);
      jsonl.auto_compact_min_lines = options.jsonl.auto_compact_min_lines;
      return AsFront(JsonlCheckpointer::Open(jsonl));
    }
    case BackendKind::kPostgres:
      return AsFront(
          PostgresCheckpointer::Open(PostgresOptionsOf(location, options)));
    case BackendKind::kMemory:
      return OpenMemoryBackend(options);
  }
  return BackendNotBuilt(location.backend);
}

Status RekeyBackend(const StoreLocation& location, const StoreOptions& options,
                    const std::optional<EncryptionOptions>& new_encryption) {
  switch (location.backend) {
    case BackendKind::kRocksDb:
      return RekeyRocksDbBackend(location, options, new_encryption);
    case BackendKind::kSqlite: {
      auto sqlite = SharedOptions<SqliteOptions>(location, options);
      sqlite.create_if_missing = false;
      return SqliteCheckpointer::Rekey(sqlite, new_encryption);
    }
    case BackendKind::kJsonl: {
      auto jsonl = SharedOptions<JsonlOptions>(location, options);
      jsonl.create_if_missing = false;
      return JsonlCheckpointer::Rekey(jsonl, new_encryption);
    }
    case BackendKind::kPostgres: {
      PostgresOptions postgres = PostgresOptionsOf(location, options);
      postgres.create_if_missing = false;
      return PostgresCheckpointer::Rekey(postgres, new_encryption);
    }
    case BackendKind::kMemory:
      break;
  }
  return Status::NotSupported("rekey is not supported by a memory store");
}

}  // namespace rockpoint
