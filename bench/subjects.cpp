#include "bench/subjects.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "bench/measure.h"

namespace rockpoint::bench {

namespace fs = std::filesystem;

namespace {

// The postgres store's pool: connections open on demand, so the cap only
// has to exceed the most writer threads of a measurement.
constexpr size_t kPostgresPoolSize = 64;

}  // namespace

Result<std::unique_ptr<Checkpointer>> OpenPostgres(
    const std::string& database_url, size_t pool_size) {
  StoreOptions options;
  options.postgres.pool_size = pool_size;
  return Open(StoreLocation{.backend = BackendKind::kPostgres,
                            .target = database_url,
                            .exists = true},
              options);
}

Result<std::unique_ptr<Scratch>> Scratch::Create(
    std::string root, const std::string& postgres_url) {
  bool owned = false;
  if (root.empty()) {
    root = (fs::temp_directory_path() /
            ("rockpoint-bench-" + std::to_string(::getpid())))
               .string();
    owned = true;
  }
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    return Status::IOError("work dir " + root + ": " + error.message());
  }
  std::unique_ptr<Scratch> scratch(new Scratch(std::move(root), owned));
  if (!postgres_url.empty()) {
    RP_ASSIGN_OR_RETURN(scratch->postgres_,
                        PostgresServer::Connect(postgres_url));
  }
  return scratch;
}

Scratch::~Scratch() {
  std::error_code error;
  if (owned_) fs::remove_all(root_, error);
}

Result<std::string> Scratch::NewDirectory(std::string_view name) {
  const fs::path path =
      fs::path(root_) / (std::to_string(++counter_) + "-" + std::string(name));
  std::error_code error;
  fs::remove_all(path, error);
  fs::create_directories(path, error);
  if (error) {
    return Status::IOError("scratch " + path.string() + ": " + error.message());
  }
  return path.string();
}

std::vector<const char*> Stores::Subjects() const {
  std::vector<const char*> subjects = {kRockpoint, kSqlite, kJsonl};
  if (postgres) subjects.push_back(kPostgres);
  return subjects;
}

Checkpointer& Stores::Of(std::string_view subject) {
  if (subject == kSqlite) return *sqlite;
  if (subject == kJsonl) return *jsonl;
  if (subject == kPostgres) return *postgres;
  return *rockpoint;
}

Status Stores::Settle() {
  RP_RETURN_IF_ERROR(Compact(*rockpoint));
  if (raw) RP_RETURN_IF_ERROR(raw->Compact());
  if (postgres_session) {
    RP_RETURN_IF_ERROR(postgres_session->Execute("VACUUM (ANALYZE)"));
  }
  return Status::OK();
}

void Stores::Close() {
  rockpoint.reset();
  sqlite.reset();
  jsonl.reset();
  raw.reset();
  postgres.reset();
  postgres_session.reset();
  if (!directory.empty()) {
    std::error_code error;
    fs::remove_all(directory, error);
    directory.clear();
  }
  if (!postgres_database.empty() && postgres_server != nullptr) {
    if (Status dropped = postgres_server->DropDatabase(postgres_database);
        !dropped.ok()) {
      std::fprintf(stderr, "rockpoint-bench: %s\n", dropped.ToString().c_str());
    }
    postgres_database.clear();
  }
}

Result<std::unique_ptr<Stores>> OpenStores(Scratch& scratch,
                                           std::string_view name,
                                           bool sync_writes, bool with_raw,
                                           bool with_postgres) {
  auto stores = std::make_unique<Stores>();
  RP_ASSIGN_OR_RETURN(stores->directory, scratch.NewDirectory(name));
  const fs::path dir(stores->directory);

  StoreOptions options;
  options.sync_writes = sync_writes;
  RP_ASSIGN_OR_RETURN(stores->rockpoint,
                      Open("rocksdb:" + (dir / "rockpoint").string(), options));
  RP_ASSIGN_OR_RETURN(stores->sqlite,
                      Open("sqlite:" + (dir / "sqlite.db").string(), options));
  RP_ASSIGN_OR_RETURN(stores->jsonl,
                      Open("jsonl:" + (dir / "store.jsonl").string(), options));

  if (with_raw) {
    RP_ASSIGN_OR_RETURN(stores->raw,
                        RawRocksDb::Open((dir / "raw").string(), sync_writes));
  }

  if (with_postgres && scratch.postgres() != nullptr) {
    stores->postgres_server = scratch.postgres();
    RP_ASSIGN_OR_RETURN(stores->postgres_database,
                        scratch.postgres()->CreateDatabase(name));
    RP_ASSIGN_OR_RETURN(
        stores->postgres,
        OpenPostgres(stores->postgres_database, kPostgresPoolSize));
    RP_ASSIGN_OR_RETURN(stores->postgres_session,
                        PostgresSession::Open(stores->postgres_database));
  }
  return stores;
}

}  // namespace rockpoint::bench
