// SqliteCheckpointer: Open, Rekey and the store's life cycle (see
// sqlite_checkpointer.h for why one guarded connection).
#include "engine/sqlite/sqlite_checkpointer.h"

#include <sys/stat.h>

#include <cerrno>

#include "base/durable_file.h"
#include "engine/backend_rules.h"
#include "engine/sqlite/sqlite_impl.h"

namespace rockpoint {
namespace {

// Whether opening `options` creates the database file (a read-write open
// of a file path that does not exist yet; not ":memory:" or a temporary
// database).
bool IsNewDatabaseFile(const SqliteOptions& options) {
  if (options.read_only || !options.create_if_missing) return false;
  if (options.path == ":memory:" || options.path.starts_with("file:")) {
    return false;
  }
  struct stat info;
  return ::stat(options.path.c_str(), &info) != 0 && errno == ENOENT;
}

}  // namespace

Result<std::unique_ptr<SqliteCheckpointer>> SqliteCheckpointer::Open(
    const SqliteOptions& options) {
  if (options.path.empty()) {
    return Status::InvalidArgument("options.path is empty");
  }
  const bool creates = IsNewDatabaseFile(options);
  RP_ASSIGN_OR_RETURN(
      std::unique_ptr<sqlite_internal::Database> db,
      sqlite_internal::Database::Open(options.path, options.create_if_missing,
                                      options.read_only));
  std::unique_ptr<SqliteCheckpointer> store(
      new SqliteCheckpointer(options, std::move(db)));
  RP_RETURN_IF_ERROR(store->Initialize());
  if (creates) {
    // SQLite fsyncs the directory for its journal and WAL files, not for the
    // main database file it creates: without this, a power loss could take
    // the new file's entry, and every synced commit with it.
    RP_RETURN_IF_ERROR(SyncPath(options.path));
    RP_RETURN_IF_ERROR(SyncParentDirectory(options.path));
  }
  return store;
}

Status SqliteCheckpointer::Rekey(
    const SqliteOptions& options,
    const std::optional<EncryptionOptions>& new_encryption) {
  if (options.read_only) {
    return Status::InvalidArgument(
        "rekey re-writes the store: options.read_only must be false");
  }
  SqliteOptions existing = options;
  existing.create_if_missing = false;
  // A committed Rekey must survive a power loss: the caller may discard the
  // old key once it returns.
  existing.sync_writes = true;
  RP_ASSIGN_OR_RETURN(std::unique_ptr<SqliteCheckpointer> store,
                      Open(existing));
  {
    base::MutexLock lock(&store->mu());
    RP_RETURN_IF_ERROR(store->CheckOpen());
    RP_RETURN_IF_ERROR(store->RewriteUnderKey(new_encryption));
  }
  return store->Close();
}

SqliteCheckpointer::SqliteCheckpointer(
    SqliteOptions options, std::unique_ptr<sqlite_internal::Database> db)
    : Checkpointer(FrontChecks{
          .limits = options.limits,
          .read_only = options.read_only,
          .store_name = sqlite_internal::PrintableBytes(options.path)}),
      options_(std::move(options)),
      db_(std::move(db)) {}

SqliteCheckpointer::~SqliteCheckpointer() {
  Status ignored = Close();
  (void)ignored;
}

Result<std::unique_ptr<TupleCursor>> SqliteCheckpointer::DoList(
    const ListOptions& options) {
  // The cursor locks the mutex itself, once per page.
  return MakeSqliteListCursor(this, options);
}

}  // namespace rockpoint
