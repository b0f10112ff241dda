// SQLite-specific checks of SqliteCheckpointer, beyond the contract suite:
// the schema on disk, the query plans of the statements it runs (indexes,
// never a table scan), schema-version refusal, status translation, several
// handles and threads on one file, list paging and long delta walks.
// Damaged databases: sqlite_damage_test.cpp.
#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "engine/sqlite/sqlite_db.h"
#include "engine/sqlite/sqlite_queries.h"
#include "engine/sqlite/sqlite_test_util.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

bool Contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
    return line.find(part) != std::string::npos;
  });
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// True if the plan reads a stored table (or an alias of one) without an
// index: "SCAN checkpoints", "SCAN w", ... Scans of the VALUES list, the
// recursive CTE and constant rows are fine.
bool ScansATable(const std::vector<std::string>& plan) {
  for (const std::string& line : plan) {
    if (line.rfind("SCAN ", 0) != 0) continue;
    if (line.find("USING") != std::string::npos) continue;  // via an index.
    if (line == "SCAN want" || line == "SCAN chain" ||
        line.find("CONSTANT ROW") != std::string::npos) {
      continue;
    }
    return true;
  }
  return false;
}

TEST_CASE("sqlite schema: tables, indexes, user_version, WAL") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  DoPut(*OpenStore(path), {.thread = "t", .id = CpId(1)});
  RawDb raw(path);
  CHECK(raw.Column("SELECT name FROM sqlite_master WHERE type = 'table' "
                   "ORDER BY name") ==
        std::vector<std::string>{"checkpoint_blobs", "checkpoint_writes",
                                 "checkpoints", "rockpoint_meta"});
  std::vector<std::string> indexes = raw.Column(
      "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name");
  for (const char* name : {"checkpoints_by_run", "checkpoints_newest",
                           "checkpoints_thread_newest"}) {
    CHECK(Contains(indexes, name));
  }
  CHECK(raw.Column("PRAGMA user_version") == std::vector<std::string>{"2"});
  CHECK(raw.Column("PRAGMA journal_mode") == std::vector<std::string>{"wal"});
  // A plaintext store keeps nothing in rockpoint_meta.
  CHECK(raw.Column("SELECT count(*) FROM rockpoint_meta") ==
        std::vector<std::string>{"0"});
  // The version column is typeless, so values keep their storage class.
  CHECK(raw.Column("SELECT type FROM pragma_table_info('checkpoint_blobs') "
                   "WHERE name = 'version'") == std::vector<std::string>{""});
}

TEST_CASE("sqlite versions keep their native type: 1 and \"1\" are distinct") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  {
    auto store = OpenStore(path);
    DoPut(*store, {.thread = "t",
                   .id = CpId(1),
                   .values = {{"c", Val("int")}},
                   .versions = {{"c", int64_t{1}}}});
    DoPut(*store, {.thread = "t",
                   .id = CpId(2),
                   .parent = CpId(1),
                   .values = {{"c", Val("text")}},
                   .versions = {{"c", std::string("1")}}});
  }
  RawDb raw(path);
  CHECK(raw.Column("SELECT typeof(version) FROM checkpoint_blobs "
                   "ORDER BY typeof(version)") ==
        std::vector<std::string>{"integer", "text"});
  auto store = OpenStore(path);
  CheckpointTuple first = MustGet(*store, Cfg("t", CpId(1)));
  CheckpointTuple second = MustGet(*store, Cfg("t", CpId(2)));
  CHECK(first.checkpoint.channel_versions.at("c") ==
        ChannelVersion{int64_t{1}});
  CHECK(second.checkpoint.channel_versions.at("c") ==
        ChannelVersion{std::string("1")});
  CHECK(ValuesOf(first.checkpoint) == "c=int");
  CHECK(ValuesOf(second.checkpoint) == "c=text");
}

TEST_CASE("sqlite query plans use indexes, never a table scan") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  OpenStore(path);  // creates the schema.
  RawDb raw(path);
  namespace q = sqlite_queries;

  std::vector<std::string> latest = raw.Plan(q::kSelectLatestVisible);
  INFO(Joined(latest));
  CHECK(Contains(latest,
                 "SEARCH checkpoints USING INDEX "
                 "sqlite_autoindex_checkpoints_1 (thread_id=? AND "
                 "checkpoint_ns=?)"));
  CHECK_FALSE(Contains(latest, "TEMP B-TREE"));
  CHECK_FALSE(ScansATable(latest));

  std::vector<std::string> by_run = raw.Plan(q::kSelectVisibleByRun);
  INFO(Joined(by_run));
  CHECK(Contains(by_run, "USING INDEX checkpoints_by_run (run_id=?)"));
  CHECK_FALSE(ScansATable(by_run));

  for (const std::string& sql :
       {std::string(q::kSelectVisibleById), std::string(q::kSelectWrites),
        q::ValuesQuery(1), q::ValuesQuery(7), q::ValuesQuery(256),
        std::string(q::kWalkAncestors), std::string(q::kChainWrites)}) {
    std::vector<std::string> plan = raw.Plan(sql);
    INFO(sql << "\n" << Joined(plan));
    CHECK(Contains(plan, "SEARCH"));
    CHECK_FALSE(ScansATable(plan));
  }
  // The blobs of a checkpoint are found by their full primary key.
  CHECK(Contains(raw.Plan(q::ValuesQuery(4)),
                 "(thread_id=? AND checkpoint_ns=? AND channel=? AND "
                 "version=?)"));
  CHECK_FALSE(Contains(raw.Plan(q::kSelectWrites), "TEMP B-TREE"));

  // Every list page is served in index order (no sort of the history), and
  // searches when a thread is given.
  for (int mask = 0; mask < 32; ++mask) {
    const bool thread = mask & 1, ns = mask & 2, id = mask & 4,
               before = mask & 8, resume = mask & 16;
    if (thread && ns && id && resume) continue;  // never resumed.
    std::string sql = q::ListPageQuery(thread, ns, id, before, resume);
    std::vector<std::string> plan = raw.Plan(sql);
    INFO(sql << "\n" << Joined(plan));
    CHECK_FALSE(Contains(plan, "TEMP B-TREE"));
    CHECK_FALSE(ScansATable(plan));
    if (thread) CHECK_FALSE(Contains(plan, "SCAN checkpoints"));
  }
  // With hidden rows (one thread only): the primary key (its autoindex)
  // serves them; only a thread-wide listing sorts (the newest-first indexes
  // are partial).
  for (int mask = 0; mask < 16; ++mask) {
    const bool ns = mask & 1, id = mask & 2, before = mask & 4,
               resume = mask & 8;
    if (ns && id && resume) continue;
    std::string sql = q::ListPageQuery(true, ns, id, before, resume, true);
    std::vector<std::string> plan = raw.Plan(sql);
    INFO(sql << "\n" << Joined(plan));
    CHECK_FALSE(ScansATable(plan));
    CHECK(Contains(plan, "USING INDEX sqlite_autoindex_checkpoints_1"));
    if (ns) CHECK_FALSE(Contains(plan, "TEMP B-TREE"));
  }
  CHECK_FALSE(Contains(raw.Plan(q::kHideCheckpoint), "SCAN"));
}

TEST_CASE("sqlite refuses a database with a newer schema version") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  DoPut(*OpenStore(path), {.thread = "t", .id = CpId(1)});
  RawDb(path).Exec("PRAGMA user_version = 3");
  Result<std::unique_ptr<SqliteCheckpointer>> opened =
      SqliteCheckpointer::Open(SqliteOptions{.path = path});
  REQUIRE_FALSE(opened.ok());
  INFO(opened.status().ToString());
  CHECK(opened.status().IsInvalidArgument());
  CHECK(opened.status().message().find("schema version 3") !=
        std::string::npos);
  CHECK(RawDb(path).Column("PRAGMA user_version") ==
        std::vector<std::string>{"3"});
}

TEST_CASE("sqlite schema version 1 is upgraded by a read-write open") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  DoPut(*OpenStore(path), {.thread = "t", .id = CpId(1)});
  // Version 1: the three tables without rockpoint_meta.
  RawDb(path).Exec("DROP TABLE rockpoint_meta; PRAGMA user_version = 1");
  {
    // Read-only: read as a plaintext store, nothing changed.
    auto reader = Unwrap(SqliteCheckpointer::Open(
        SqliteOptions{.path = path, .read_only = true}));
    CHECK(MustGet(*reader, Cfg("t")).checkpoint.id == CpId(1));
  }
  CHECK(RawDb(path).Column("PRAGMA user_version") ==
        std::vector<std::string>{"1"});
  CHECK(MustGet(*OpenStore(path), Cfg("t")).checkpoint.id == CpId(1));
  RawDb raw(path);
  CHECK(raw.Column("PRAGMA user_version") == std::vector<std::string>{"2"});
  CHECK(raw.Column("SELECT count(*) FROM rockpoint_meta") ==
        std::vector<std::string>{"0"});
}

// Issue #19, defect 3 (SQLite): a read-write open re-created the schema and
// stamped user_version over a database whose version was lost.
TEST_CASE(
    "sqlite regression: a lost schema version is Corruption, not re-stamped") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  DoPut(*OpenStore(path), {.thread = "t", .id = CpId(1)});
  RawDb(path).Exec("PRAGMA user_version = 0");
  for (bool read_only : {false, true}) {
    Result<std::unique_ptr<SqliteCheckpointer>> opened =
        SqliteCheckpointer::Open(
            SqliteOptions{.path = path, .read_only = read_only});
    REQUIRE_FALSE(opened.ok());
    INFO(opened.status().ToString());
    CHECK(opened.status().IsCorruption());
    CHECK(opened.status().message().find("user_version") != std::string::npos);
  }
  CHECK(RawDb(path).Column("PRAGMA user_version") ==
        std::vector<std::string>{"0"});
  // A database without rockpoint tables is new: the schema is created.
  const std::string other = dir.Sub("other.sqlite");
  RawDb(other).Exec("CREATE TABLE unrelated (x)");
  DoPut(*OpenStore(other), {.thread = "t", .id = CpId(1)});
  CHECK(RawDb(other).Column("PRAGMA user_version") ==
        std::vector<std::string>{"2"});
}

TEST_CASE("sqlite open errors are statuses") {
  TempDir dir;
  CHECK(SqliteCheckpointer::Open(SqliteOptions{}).status().IsInvalidArgument());
  SqliteOptions missing;
  missing.path = dir.Sub("absent.sqlite");
  missing.create_if_missing = false;
  CHECK(SqliteCheckpointer::Open(missing).status().IsIOError());
  const std::string junk = dir.Sub("junk.sqlite");
  {
    std::FILE* file = std::fopen(junk.c_str(), "wb");
    REQUIRE(file != nullptr);
    const std::string bytes(8192, 'x');
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
  }
  Status not_a_db =
      SqliteCheckpointer::Open(SqliteOptions{.path = junk}).status();
  INFO(not_a_db.ToString());
  CHECK(not_a_db.IsCorruption());
}

TEST_CASE("sqlite result codes translate to statuses") {
  using sqlite_internal::SqliteStatus;
  CHECK(SqliteStatus(SQLITE_OK, "x", nullptr).ok());
  CHECK(SqliteStatus(SQLITE_BUSY, "x", nullptr).IsBusy());
  CHECK(SqliteStatus(SQLITE_BUSY_SNAPSHOT, "x", nullptr).IsBusy());
  CHECK(SqliteStatus(SQLITE_LOCKED, "x", nullptr).IsBusy());
  CHECK(SqliteStatus(SQLITE_CORRUPT, "x", nullptr).IsCorruption());
  CHECK(SqliteStatus(SQLITE_NOTADB, "x", nullptr).IsCorruption());
  CHECK(SqliteStatus(SQLITE_IOERR_FSYNC, "x", nullptr).IsIOError());
  CHECK(SqliteStatus(SQLITE_FULL, "x", nullptr).IsIOError());
  CHECK(SqliteStatus(SQLITE_TOOBIG, "x", nullptr).IsInvalidArgument());
  CHECK(SqliteStatus(SQLITE_INTERRUPT, "x", nullptr).IsAborted());
  Status busy = SqliteStatus(SQLITE_BUSY, "inserting a blob", nullptr);
  CHECK(busy.message().find("inserting a blob") != std::string::npos);
}

TEST_CASE("sqlite two handles on one file see each other's writes") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  auto first = OpenStore(path);
  auto second = OpenStore(path);
  DoPut(*first, {.thread = "t",
                 .id = CpId(1),
                 .values = {{"a", Val("1")}},
                 .versions = {{"a", int64_t{1}}}});
  DoWrites(*second, "t", CpId(1), {W("a", "w")}, "k");
  CheckpointTuple seen = MustGet(*second, Cfg("t"));
  CHECK(ValuesOf(seen.checkpoint) == "a=1");
  CHECK(WritesOf(MustGet(*first, Cfg("t")).pending_writes) == "/k#0:a=w");
}

TEST_CASE("sqlite calls from many threads are serialized safely") {
  TempDir dir;
  auto store = OpenStore(dir.Sub("db.sqlite"));
  constexpr int kThreads = 4;
  constexpr int kPuts = 25;
  std::vector<std::thread> workers;
  std::vector<int> failures(kThreads, 0);
  for (int w = 0; w < kThreads; ++w) {
    workers.emplace_back([&, w] {
      const std::string thread = "worker" + std::to_string(w);
      std::optional<std::string> parent;
      for (int i = 1; i <= kPuts; ++i) {
        Checkpoint checkpoint =
            MakeCheckpoint(CpId(i), {{"c", Val("v")}}, {{"c", int64_t{i}}});
        auto put = store->Put(CheckpointConfig{thread, "", parent}, checkpoint,
                              Meta(), checkpoint.channel_versions);
        Status writes =
            store->PutWrites(Cfg(thread, CpId(i)), {W("c", "w")}, "k");
        auto read = store->GetTuple(Cfg(thread));
        if (!put.ok() || !writes.ok() || !read.ok() || !read->has_value()) {
          ++failures[w];
        }
        parent = CpId(i);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (int w = 0; w < kThreads; ++w) CHECK(failures[w] == 0);
  ThreadPage page = Unwrap(store->ListThreads({}));
  REQUIRE(page.threads.size() == kThreads);
  for (const ThreadInfo& info : page.threads) {
    REQUIRE(info.namespaces.size() == 1);
    CHECK(info.namespaces[0].checkpoint_count == kPuts);
    CHECK(info.namespaces[0].latest_checkpoint_id == CpId(kPuts));
  }
}

TEST_CASE("sqlite list pages through long histories in contract order") {
  auto store = Unwrap(SqliteCheckpointer::Open(SqliteOptions{":memory:"}));
  // Three threads with the same 100 ids: ties order by thread descending.
  const std::vector<std::string> threads = {"a", "b", "c"};
  for (const std::string& thread : threads) {
    for (int i = 1; i <= 100; ++i) {
      DoPut(*store, {.thread = thread,
                     .id = CpId(i),
                     .metadata = Meta({{"even", Value(i % 2 == 0)}})});
    }
  }
  std::vector<std::string> all;
  std::vector<std::string> even;
  for (int i = 100; i >= 1; --i) {
    for (auto t = threads.rbegin(); t != threads.rend(); ++t) {
      all.push_back(*t + "/" + CpId(i));
      if (i % 2 == 0) even.push_back(*t + "/" + CpId(i));
    }
  }
  auto keys_of = [](const std::vector<std::string>& keys, size_t n) {
    std::string out;
    for (size_t i = 0; i < n && i < keys.size(); ++i) {
      out += (out.empty() ? "" : " ") + keys[i];
    }
    return out;
  };
  CHECK(Keys(Collect(*store, ListOf(std::nullopt))) ==
        keys_of(all, all.size()));
  CHECK(Keys(Collect(*store, ListOf(std::nullopt, Meta({{"even", true}}),
                                    std::nullopt, 130))) == keys_of(even, 130));
  CHECK(Keys(Collect(*store, ListOf(std::nullopt, Value::MakeMap(),
                                    std::nullopt, 200))) == keys_of(all, 200));
  std::vector<CheckpointTuple> before = Collect(
      *store,
      ListOf(Cfg("b", std::nullopt, std::nullopt), Value::MakeMap(), CpId(31)));
  REQUIRE(before.size() == 30);
  CHECK(before.front().config.checkpoint_id == CpId(30));
  CHECK(before.back().config.checkpoint_id == CpId(1));
  CHECK(Collect(*store, ListOf(std::nullopt, Value::MakeMap(), std::nullopt, 0))
            .empty());
}

TEST_CASE("sqlite delta walk: a long chain, and a parent cycle ends it") {
  auto store = Unwrap(SqliteCheckpointer::Open(SqliteOptions{":memory:"}));
  constexpr int kChain = 300;
  for (int i = 1; i <= kChain; ++i) {
    std::optional<std::string> parent;
    if (i > 1) parent = CpId(i - 1);
    std::map<std::string, TypedValue> values;
    if (i == 1) values["m"] = Val("seed");
    DoPut(*store, {.thread = "t",
                   .id = CpId(i),
                   .parent = parent,
                   .values = values,
                   .versions = {{"m", int64_t{i}}}});
    DoWrites(*store, "t", CpId(i), {W("m", "w" + std::to_string(i))}, "k");
  }
  DeltaHistory history =
      Unwrap(store->GetDeltaChannelHistory(Cfg("t"), {"m", "other"}));
  REQUIRE(history.count("m") == 1);
  REQUIRE(history.at("m").seed.has_value());
  CHECK(history.at("m").seed->bytes == "seed");
  REQUIRE(history.at("m").writes.size() == kChain - 1);
  CHECK(history.at("m").writes.front().checkpoint_id == CpId(1));
  CHECK(history.at("m").writes.back().checkpoint_id == CpId(kChain - 1));
  CHECK(history.at("other").writes.empty());
  CHECK_FALSE(history.at("other").seed.has_value());

  // x1 <- x2, then x1 re-put as a child of x2: the walk must still end.
  DoPut(*store, {.thread = "cyc",
                 .id = "x1",
                 .versions = {{"m", int64_t{1}}},
                 .new_versions = ChannelVersions{{"m", int64_t{1}}}});
  DoPut(*store, {.thread = "cyc",
                 .id = "x2",
                 .parent = "x1",
                 .versions = {{"m", int64_t{2}}},
                 .new_versions = ChannelVersions{{"m", int64_t{2}}}});
  DoPut(*store, {.thread = "cyc",
                 .id = "x1",
                 .parent = "x2",
                 .versions = {{"m", int64_t{1}}},
                 .new_versions = ChannelVersions{{"m", int64_t{1}}}});
  DoWrites(*store, "cyc", "x1", {W("m", "c1")}, "k");
  DeltaHistory cycle =
      Unwrap(store->GetDeltaChannelHistory(Cfg("cyc", "x2"), {"m"}));
  CHECK(WritesOf(cycle.at("m").writes) == "/k#0:m=c1");
  CHECK_FALSE(cycle.at("m").seed.has_value());
  RP_REQUIRE_OK(store->Prune({"cyc"}, PruneStrategy::kKeepLatest));
}

}  // namespace
}  // namespace rockpoint
