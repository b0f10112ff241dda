// rockpoint::Open and LocateStore: every scheme, a bare path recognized by
// its content or named by its extension, and the refusals (with nothing
// created). Each backend's own folder runs the contract suite on it.
#include "rockpoint/open.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/contract_helpers.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/retention_checkpointer.h"
#include "temp_dir.h"

namespace rockpoint {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::Unwrap;

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

StoreLocation MustLocate(const std::string& url) {
  return Unwrap(LocateStore(url));
}

// Opens `url`, puts one checkpoint and closes it: a store to find again.
void MakeStore(const std::string& url) {
  std::unique_ptr<Checkpointer> store = Unwrap(Open(url));
  testing::DoPut(*store, {.thread = "t", .id = testing::CpId(1)});
  RP_REQUIRE_OK(store->Close());
}

TEST_CASE("open: each scheme names its backend") {
  TempDir dir;
  CHECK(MustLocate("rocksdb:" + dir.Sub("a")).backend == BackendKind::kRocksDb);
  CHECK(MustLocate("sqlite:" + dir.Sub("a")).backend == BackendKind::kSqlite);
  CHECK(MustLocate("jsonl:" + dir.Sub("a")).backend == BackendKind::kJsonl);
  CHECK(MustLocate("memory:").backend == BackendKind::kMemory);
  const StoreLocation postgres = MustLocate("postgresql:///db?host=/tmp");
  CHECK(postgres.backend == BackendKind::kPostgres);
  CHECK(postgres.target == "postgresql:///db?host=/tmp");
  CHECK(MustLocate("postgres://u@h/db").backend == BackendKind::kPostgres);
  const StoreLocation rocksdb = MustLocate("rocksdb:" + dir.Sub("a"));
  CHECK(rocksdb.target == dir.Sub("a"));
  CHECK_FALSE(rocksdb.exists);
}

TEST_CASE("open: a new bare path's backend follows its name") {
  TempDir dir;
  CHECK(MustLocate(dir.Sub("s.jsonl")).backend == BackendKind::kJsonl);
  CHECK(MustLocate(dir.Sub("s.db")).backend == BackendKind::kSqlite);
  CHECK(MustLocate(dir.Sub("s.sqlite")).backend == BackendKind::kSqlite);
  CHECK(MustLocate(dir.Sub("s.sqlite3")).backend == BackendKind::kSqlite);
  CHECK(MustLocate(dir.Sub("s")).backend == BackendKind::kRocksDb);
}

TEST_CASE("open: an existing bare path is recognized by its content") {
  TempDir dir;
  // Names that would say otherwise: the content decides.
  MakeStore("rocksdb:" + dir.Sub("r.jsonl"));
  MakeStore("sqlite:" + dir.Sub("s.bin"));
  MakeStore("jsonl:" + dir.Sub("j.db"));
  const StoreLocation rocksdb = MustLocate(dir.Sub("r.jsonl"));
  CHECK(rocksdb.backend == BackendKind::kRocksDb);
  CHECK(rocksdb.exists);
  CHECK(MustLocate(dir.Sub("s.bin")).backend == BackendKind::kSqlite);
  CHECK(MustLocate(dir.Sub("j.db")).backend == BackendKind::kJsonl);
  for (const char* name : {"r.jsonl", "s.bin", "j.db"}) {
    std::unique_ptr<Checkpointer> store = Unwrap(Open(dir.Sub(name)));
    CHECK(testing::MustGet(*store, testing::Cfg("t")).checkpoint.id ==
          testing::CpId(1));
  }
}

TEST_CASE("open: the backend behind a URL is the one it names") {
  TempDir dir;
  std::unique_ptr<Checkpointer> rocksdb = Unwrap(Open(dir.Sub("r")));
  CHECK(dynamic_cast<RocksDbCheckpointer*>(rocksdb.get()) != nullptr);
  std::unique_ptr<Checkpointer> sqlite = Unwrap(Open(dir.Sub("s.db")));
  CHECK(dynamic_cast<SqliteCheckpointer*>(sqlite.get()) != nullptr);
  std::unique_ptr<Checkpointer> jsonl = Unwrap(Open(dir.Sub("j.jsonl")));
  CHECK(dynamic_cast<JsonlCheckpointer*>(jsonl.get()) != nullptr);
  std::unique_ptr<Checkpointer> memory = Unwrap(Open("memory:"));
  CHECK(dynamic_cast<MemoryCheckpointer*>(memory.get()) != nullptr);
  std::unique_ptr<Checkpointer> in_memory_sqlite =
      Unwrap(Open("sqlite::memory:"));
  CHECK(dynamic_cast<SqliteCheckpointer*>(in_memory_sqlite.get()) != nullptr);
}

TEST_CASE("open: what is not a store is refused, naming why") {
  TempDir dir;
  WriteFile(dir.Sub("notes.txt"), "hello\n");
  CHECK(LocateStore(dir.Sub("notes.txt"))
            .status()
            .message()
            .find("not a rockpoint store") != std::string::npos);
  WriteFile(dir.Sub("old.jsonl"),
            "{\"kind\":\"header\",\"format\":\"rockpoint-export\","
            "\"version\":1}\n");
  const Status export_file = LocateStore(dir.Sub("old.jsonl")).status();
  CHECK(export_file.IsInvalidArgument());
  CHECK(export_file.message().find("rockpoint import") != std::string::npos);
  fs::create_directory(dir.Sub("full"));
  WriteFile(dir.Sub("full/file"), "x");
  CHECK(
      LocateStore(dir.Sub("full")).status().message().find("no CURRENT file") !=
      std::string::npos);
  CHECK(LocateStore("sqlite:" + dir.Sub("notes.txt"))
            .status()
            .message()
            .find("not a SQLite database") != std::string::npos);
  CHECK(LocateStore("jsonl:" + dir.path())
            .status()
            .message()
            .find("is a directory") != std::string::npos);
  CHECK(LocateStore("rocksdb:" + dir.Sub("notes.txt"))
            .status()
            .message()
            .find("not a directory") != std::string::npos);
  CHECK(LocateStore("").status().IsInvalidArgument());
  CHECK(LocateStore("rocksdb:").status().IsInvalidArgument());
  CHECK(LocateStore("memory:x").status().IsInvalidArgument());
  // Nothing was opened or changed.
  CHECK(fs::file_size(dir.Sub("notes.txt")) == 6);
}

TEST_CASE("open: an empty directory takes a new RocksDB store") {
  TempDir dir;
  fs::create_directory(dir.Sub("empty"));
  const StoreLocation empty = MustLocate(dir.Sub("empty"));
  CHECK(empty.backend == BackendKind::kRocksDb);
  CHECK_FALSE(empty.exists);
  MakeStore(dir.Sub("empty"));
  CHECK(MustLocate(dir.Sub("empty")).exists);
}

TEST_CASE("open: without create_if_missing a missing store is NotFound") {
  TempDir dir;
  StoreOptions options;
  options.create_if_missing = false;
  for (const std::string& url :
       {dir.Sub("r"), "sqlite:" + dir.Sub("s.db"), "jsonl:" + dir.Sub("j")}) {
    const Status missing = Open(url, options).status();
    CHECK_MESSAGE(missing.IsNotFound(), url << ": " << missing.ToString());
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("open: shared options reach every backend") {
  TempDir dir;
  for (const std::string& url :
       {dir.Sub("r"), dir.Sub("s.db"), dir.Sub("j.jsonl")}) {
    CAPTURE(url);
    MakeStore(url);
    StoreOptions read_only;
    read_only.read_only = true;
    std::unique_ptr<Checkpointer> store = Unwrap(Open(url, read_only));
    CHECK(testing::MustGet(*store, testing::Cfg("t")).checkpoint.id ==
          testing::CpId(1));
    const Status refused = store->DeleteThread("t");
    CHECK(refused.IsInvalidArgument());
    CHECK(refused.message().find("store opened read-only") !=
          std::string::npos);
    RP_REQUIRE_OK(store->Close());
    CHECK(store->GetTuple(testing::Cfg("t")).status().IsAborted());

    StoreOptions small;
    small.limits = CheckpointerLimits{.max_value_bytes = 4, .max_id_bytes = 8};
    store = Unwrap(Open(url, small));
    CHECK(store->DeleteThread("t").ok());
    CHECK(store
              ->Put(testing::Cfg("a-thread-id-longer-than-8"),
                    testing::MakeCheckpoint(testing::CpId(2)), Value::MakeMap(),
                    {})
              .status()
              .IsInvalidArgument());
  }
}

TEST_CASE("open: an encrypted store needs its key through Open too") {
  TempDir dir;
  StoreOptions keyed;
  keyed.encryption = EncryptionOptions{std::string(kEncryptionKeyBytes, 'k')};
  std::unique_ptr<Checkpointer> store = Unwrap(Open(dir.Sub("r"), keyed));
  testing::DoPut(*store, {.thread = "t", .id = testing::CpId(1)});
  RP_REQUIRE_OK(store->Close());
  CHECK(Open(dir.Sub("r")).status().IsInvalidArgument());
  store = Unwrap(Open(dir.Sub("r"), keyed));
  CHECK(testing::Get(*store, testing::Cfg("t")).has_value());
  CHECK(Open("memory:", keyed).status().IsInvalidArgument());
}

TEST_CASE("open: retention wraps the store, and a bad policy opens nothing") {
  TempDir dir;
  StoreOptions options;
  options.retention = RetentionOptions{.start_sweeper = false};
  options.retention->policy.keep_last = 1;
  std::unique_ptr<Checkpointer> store = Unwrap(Open(dir.Sub("r"), options));
  auto* retention = dynamic_cast<RetentionCheckpointer*>(store.get());
  REQUIRE(retention != nullptr);
  testing::DoPut(*store, {.thread = "t", .id = testing::CpId(1)});
  testing::DoPut(
      *store,
      {.thread = "t", .id = testing::CpId(2), .parent = testing::CpId(1)});
  CHECK(Unwrap(retention->SweepNow()).checkpoints_expired == 1);

  options.retention->policy.keep_last = 0;
  CHECK(Open(dir.Sub("refused"), options).status().IsInvalidArgument());
  CHECK_FALSE(fs::exists(dir.Sub("refused")));
}

}  // namespace
}  // namespace rockpoint
