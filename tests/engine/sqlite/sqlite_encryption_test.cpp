// Encryption at rest on SqliteCheckpointer (engine/sqlite/sqlite_records.h):
// what is sealed and what stays in the clear, keys at open, every kind of
// damage to a stored record as Corruption naming it with nothing returned,
// copy_thread, filters and retention on an encrypted store, and Rekey:
// round trips, a Rekey that fails midway, and one killed (SIGKILL) midway.
#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "engine/sqlite/sqlite_test_util.h"
#include "engine/store_snapshot.h"
#include "rockpoint/encryption.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

SqliteOptions OptionsFor(const std::string& path,
                         const std::optional<std::string>& key,
                         bool read_only = false) {
  SqliteOptions options;
  options.path = path;
  options.sync_writes = false;
  ApplySpec({key, read_only}, &options);
  return options;
}

Result<std::unique_ptr<SqliteCheckpointer>> OpenWith(
    const std::string& path, const std::optional<std::string>& key,
    bool read_only = false) {
  return SqliteCheckpointer::Open(OptionsFor(path, key, read_only));
}

Status RekeyStore(const std::string& path,
                  const std::optional<std::string>& from,
                  const std::optional<std::string>& to) {
  std::optional<EncryptionOptions> next;
  if (to) next = EncryptionOptions{*to};
  return SqliteCheckpointer::Rekey(OptionsFor(path, from), next);
}

// Thread "d" (delta channels, runs, writes, two namespaces), thread "m"
// (the marker strings, an "empty" value) and thread "h" (pruned: hidden
// checkpoints).
void Fill(Checkpointer& store) {
  PutDeltaThreads(store);
  DoPut(store, {.thread = "m",
                .id = CpId(1),
                .values = {{"v", Val(kValueMarker)}},
                .versions = {{"v", int64_t{1}}, {"gone", int64_t{2}}},
                .metadata = Meta({{"note", Value(kMetaMarker)}})});
  DoWrites(store, "m", CpId(1), {W("v", kWriteMarker)}, "task");
  PutHiddenThread(store);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The bytes of every file in `dir` (database, WAL, shared memory).
std::string FilesIn(const std::string& dir) {
  std::string bytes;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) bytes += ReadFile(entry.path());
  }
  return bytes;
}

void CheckNoPlaintext(const std::string& dir) {
  const std::string bytes = FilesIn(dir);
  REQUIRE_FALSE(bytes.empty());
  for (const char* marker :
       {kValueMarker, kMetaMarker, kWriteMarker, "snapshot@"}) {
    CAPTURE(marker);
    CHECK(bytes.find(marker) == std::string::npos);
  }
}

std::string StoreId(const std::string& path) {
  std::vector<std::string> ids = RawDb(path).Blobs(
      "SELECT value FROM rockpoint_meta WHERE name = 'store_id'");
  return ids.empty() ? "" : ids.front();
}

TEST_CASE("sqlite encryption: records are sealed, identifiers stay clear") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key = KeyOf('k');
  Snapshot before;
  {
    auto store = Unwrap(OpenWith(path, key));
    Fill(*store);
    before = Take(*store);
    CheckNoPlaintext(dir.path());  // the WAL too, while open.
  }
  CheckNoPlaintext(dir.path());

  RawDb raw(path);
  // Every record column holds a sealed record (format byte E1) or is
  // empty; blob types are the clear has-value flag.
  CHECK(raw.Column("SELECT count(*) FROM checkpoints WHERE "
                   "substr(checkpoint, 1, 1) <> x'e1' OR metadata <> x''") ==
        std::vector<std::string>{"0"});
  CHECK(raw.Column("SELECT count(*) FROM checkpoint_blobs WHERE "
                   "substr(blob, 1, 1) <> x'e1' OR blob IS NULL OR "
                   "(type IS NOT NULL AND type <> x'')") ==
        std::vector<std::string>{"0"});
  CHECK(raw.Column("SELECT count(*) FROM checkpoint_blobs WHERE type IS "
                   "NULL AND thread_id = CAST('m' AS BLOB)") ==
        std::vector<std::string>{"1"});  // "gone".
  CHECK(raw.Column("SELECT count(*) FROM checkpoint_writes WHERE "
                   "substr(value, 1, 1) <> x'e1' OR type <> x''") ==
        std::vector<std::string>{"0"});
  // Identifiers stay clear: lookups run in SQL.
  CHECK(raw.Column("SELECT count(*) FROM checkpoints WHERE thread_id = "
                   "CAST('m' AS BLOB) AND checkpoint_id = CAST('cp0001' AS "
                   "BLOB)") == std::vector<std::string>{"1"});
  CHECK(raw.Column("SELECT count(*) FROM checkpoints WHERE run_id = "
                   "CAST('d/run-0' AS BLOB)") ==
        std::vector<std::string>{"6"});  // 3 per namespace.
  CHECK(StoreId(path).size() == 16);

  for (bool read_only : {false, true}) {
    CAPTURE(read_only);
    auto store = Unwrap(OpenWith(path, key, read_only));
    CheckSame(before, Take(*store));
  }
  // A key from ROCKPOINT_AES_KEY when EncryptionOptions.key is empty.
  REQUIRE(::setenv(kEncryptionKeyEnvironment, FormatEncryptionKey(key).c_str(),
                   1) == 0);
  auto from_environment = OpenWith(path, std::string());
  ::unsetenv(kEncryptionKeyEnvironment);
  CheckSame(before, Take(*Unwrap(std::move(from_environment))));
}

// A missing, wrong or malformed key, and a key for a plaintext store with
// records: contract_encryption.h.
TEST_CASE("sqlite encryption: an empty store becomes encrypted by a key") {
  TempDir dir;
  const std::string empty = dir.Sub("empty.sqlite");
  Unwrap(OpenWith(empty, std::nullopt)).reset();
  const Status read_only =
      OpenWith(empty, KeyOf('k'), /*read_only=*/true).status();
  CHECK(read_only.IsInvalidArgument());
  CHECK(read_only.message().find("not encrypted") != std::string::npos);
  CHECK(StoreId(empty).empty());
  Unwrap(OpenWith(empty, KeyOf('k'))).reset();
  CHECK(StoreId(empty).size() == 16);
  CHECK(OpenWith(empty, std::nullopt).status().IsInvalidArgument());
}

// The stored checkpoint column of cp0001 of `thread`.
std::string CheckpointColumn(const std::string& path,
                             const std::string& thread) {
  std::vector<std::string> values = RawDb(path).Blobs(
      "SELECT checkpoint FROM checkpoints WHERE thread_id = ?1 AND "
      "checkpoint_ns = x'' AND checkpoint_id = CAST('cp0001' AS BLOB)",
      {thread});
  REQUIRE(values.size() == 1);
  return values.front();
}

TEST_CASE("sqlite encryption: clear columns must agree with the record") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key = KeyOf('k');
  PutTwinThreads(*Unwrap(OpenWith(path, key)));
  const auto read = [&](const std::string& id) {
    return Unwrap(OpenWith(path, key))->GetTuple(Cfg("t", id)).status();
  };
  SUBCASE("a parent column pointing elsewhere") {
    RawDb(path).Exec(
        "UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE "
        "thread_id = CAST('t' AS BLOB) AND checkpoint_id = "
        "CAST('cp0002' AS BLOB)");
    CheckCorruption(read(CpId(2)), {"cp0002", "parent"});
    CheckCorruption(Unwrap(OpenWith(path, key))
                        ->GetDeltaChannelHistory(Cfg("t", CpId(2)), {"a"})
                        .status(),
                    {"cp0002", "parent"});
  }
  SUBCASE("a value flagged as the empty marker") {
    RawDb(path).Exec(
        "UPDATE checkpoint_blobs SET type = NULL WHERE thread_id = "
        "CAST('t' AS BLOB) AND version = 1");
    CheckCorruption(read(CpId(1)), {"checkpoint_blobs row", "type column"});
  }
  SUBCASE("a write moved to another channel") {
    RawDb(path).Exec(
        "UPDATE checkpoint_writes SET channel = CAST('b' AS BLOB) WHERE "
        "thread_id = CAST('t' AS BLOB)");
    CheckCorruption(read(CpId(1)), {"checkpoint_writes row", "channel"});
  }
  SUBCASE("plaintext metadata beside a sealed record") {
    RawDb(path).Exec(
        "UPDATE checkpoints SET metadata = x'80' WHERE thread_id = "
        "CAST('t' AS BLOB) AND checkpoint_id = CAST('cp0001' AS BLOB)");
    CheckCorruption(read(CpId(1)), {"cp0001", "metadata column"});
  }
}

TEST_CASE("sqlite encryption: copy_thread, filters, runs and retention") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key = KeyOf('k');
  auto store = Unwrap(OpenWith(path, key));
  PutDeltaThread(*store, "d");
  PutDeltaThread(*store, "d", "n:1", 7, 3);
  const Readings before = ReadThread(*store, "d");

  RP_REQUIRE_OK(store->CopyThread("d", "e"));
  // Re-sealed under the target's names: the copies' bytes differ.
  CHECK(CheckpointColumn(path, "d") != CheckpointColumn(path, "e"));
  RP_REQUIRE_OK(store->DeleteThread("d"));
  store = Unwrap(OpenWith(path, key));
  Readings copied = ReadThread(*store, "e");
  CHECK(copied.size() == before.size());
  CheckSameReadings(before, copied, "e");

  // Metadata filters decrypt, then filter.
  CHECK(Ids(Collect(*store, ListOf(Cfg("e", std::nullopt, std::nullopt),
                                   Meta({{"step", Value(5)}})))) ==
        CpId(5) + " " + CpId(5));
  CHECK(Keys(Collect(*store, ListOf(std::nullopt,
                                    Meta({{"run_id", Value("d/run-2")}})))) ==
        "e/cp0008 e/cp0007 e:n:1/cp0006 e/cp0006");

  RP_REQUIRE_OK(store->DeleteForRuns({"d/run-3"}));
  RP_REQUIRE_OK(store->Prune({"e"}, PruneStrategy::kKeepLatest, 4));
  store = Unwrap(OpenWith(path, key));
  const Readings kept = ReadThread(*store, "e");
  CHECK(ReadingKeys(kept) ==
        "/cp0005 /cp0006 /cp0007 /cp0008 n:1/cp0003 n:1/cp0004 n:1/cp0005 "
        "n:1/cp0006");
  CheckSameReadings(before, kept, "e");
  CHECK(Unwrap(store->ListThreads({})).threads.size() == 1);
}

TEST_CASE("sqlite rekey: plaintext, key 1, key 2, plaintext: all equal") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key1 = KeyOf('1');
  const std::string key2 = KeyOf('2');
  Snapshot before;
  {
    auto store = Unwrap(OpenWith(path, std::nullopt));
    Fill(*store);
    before = Take(*store);
  }
  CHECK(FilesIn(dir.path()).find(kValueMarker) != std::string::npos);

  RP_REQUIRE_OK(RekeyStore(path, std::nullopt, key1));
  CheckNoPlaintext(dir.path());  // the old bytes are overwritten too.
  const std::string id1 = StoreId(path);
  CHECK(id1.size() == 16);
  CHECK(OpenWith(path, std::nullopt).status().IsInvalidArgument());
  CheckSame(before, Take(*Unwrap(OpenWith(path, key1))));

  RP_REQUIRE_OK(RekeyStore(path, key1, key2));
  CheckNoPlaintext(dir.path());
  CHECK(StoreId(path).size() == 16);
  CHECK(StoreId(path) != id1);
  CHECK(OpenWith(path, key1).status().IsInvalidArgument());
  CheckSame(before, Take(*Unwrap(OpenWith(path, key2))));

  // Refused, changing nothing: the wrong old key, a read-only open.
  const std::string dump = Dump(path);
  CHECK(RekeyStore(path, key1, key2).IsInvalidArgument());
  CHECK(RekeyStore(path, std::nullopt, key1).IsInvalidArgument());
  SqliteOptions read_only = OptionsFor(path, key2, /*read_only=*/true);
  CHECK(SqliteCheckpointer::Rekey(read_only, std::nullopt).IsInvalidArgument());
  CHECK(Dump(path) == dump);

  RP_REQUIRE_OK(RekeyStore(path, key2, std::nullopt));
  CHECK(StoreId(path).empty());
  CHECK(OpenWith(path, key2).status().IsInvalidArgument());
  CheckSame(before, Take(*Unwrap(OpenWith(path, std::nullopt))));
  RP_REQUIRE_OK(RekeyStore(path, std::nullopt, std::nullopt));
  CheckSame(before, Take(*Unwrap(OpenWith(path, std::nullopt))));

  // A file that does not exist is not created.
  const std::string missing = dir.Sub("missing.sqlite");
  CHECK_FALSE(RekeyStore(missing, std::nullopt, key1).ok());
  CHECK_FALSE(std::filesystem::exists(missing));
}

TEST_CASE("sqlite rekey: a record that fails midway changes nothing") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key1 = KeyOf('1');
  SUBCASE("encrypted: the last write does not open") {
    PutTwinThreads(*Unwrap(OpenWith(path, key1)));
    // Rows are re-written checkpoints, blobs, writes, each in rowid order:
    // the last write row fails after everything else was re-written.
    const std::vector<std::string> last = RawDb(path).Blobs(
        "SELECT value FROM checkpoint_writes ORDER BY rowid DESC LIMIT 1");
    REQUIRE(last.size() == 1);
    std::string tampered = last.front();
    tampered.back() ^= 0x01;
    RawDb(path).Run(
        "UPDATE checkpoint_writes SET value = ?1 WHERE rowid = (SELECT "
        "max(rowid) FROM checkpoint_writes)",
        {tampered});
    const std::string dump = Dump(path);
    CheckCorruption(RekeyStore(path, key1, KeyOf('2')),
                    {"pending write at", "\"u\""});
    CHECK(Dump(path) == dump);
    CheckCorruption(RekeyStore(path, key1, std::nullopt), {"pending write"});
    CHECK(Dump(path) == dump);
    auto store = Unwrap(OpenWith(path, key1));
    CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(1))).checkpoint) == "a=t-1");
  }
  SUBCASE("plaintext: the last checkpoint does not decode") {
    PutTwinThreads(*Unwrap(OpenWith(path, std::nullopt)));
    RawDb(path).Exec(
        "UPDATE checkpoints SET checkpoint = x'ff00' WHERE rowid = (SELECT "
        "max(rowid) FROM checkpoints)");
    const std::string dump = Dump(path);
    CheckCorruption(RekeyStore(path, std::nullopt, key1),
                    {"checkpoints row", "does not decode"});
    CHECK(Dump(path) == dump);
    CHECK(StoreId(path).empty());
    CHECK(MustGet(*Unwrap(OpenWith(path, std::nullopt)), Cfg("t", CpId(1)))
              .checkpoint.id == CpId(1));
  }
}

// A store big enough that a Rekey takes a while: 6 threads of 40
// checkpoints, each with an 8 KiB value and two writes.
void FillLarge(Checkpointer& store) {
  for (int thread = 0; thread < 6; ++thread) {
    const std::string name = "big" + std::to_string(thread);
    for (int i = 0; i < 40; ++i) {
      std::optional<std::string> parent;
      if (i > 0) parent = CpId(i - 1);
      DoPut(store, {.thread = name,
                    .id = CpId(i),
                    .parent = parent,
                    .values = {{"v", Val(std::string(8192, 'a' + i % 26))}},
                    .versions = {{"v", int64_t{i + 1}}},
                    .metadata = Meta({{"step", Value(i)}})});
      DoWrites(store, name, CpId(i),
               {W("v", "w" + std::to_string(i)), W("x", std::string(512, 'x'))},
               "task");
    }
  }
}

// Runs Rekey(path, from -> to) in a child process; the child writes one
// byte to `ready` just before it starts. Returns the child's pid.
pid_t StartRekeyChild(const std::string& path, const std::string& from,
                      const std::string& to, int ready) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const char byte = 'r';
    if (::write(ready, &byte, 1) != 1) ::_exit(3);
    const Status status = RekeyStore(path, from, to);
    ::_exit(status.ok() ? 0 : 2);
  }
  return pid;
}

TEST_CASE("sqlite rekey: killed midway, the store reads under one key") {
  TempDir dir;
  const std::string seed = dir.Sub("seed.sqlite");
  const std::string key1 = KeyOf('1');
  const std::string key2 = KeyOf('2');
  std::vector<CheckpointTuple> expected;
  {
    auto store = Unwrap(OpenWith(seed, key1));
    FillLarge(*store);
    expected = Collect(*store, ListOf(std::nullopt));
  }
  REQUIRE_FALSE(std::filesystem::exists(seed + "-wal"));
  const auto reads = [&](const std::string& path,
                         const std::string& key) -> bool {
    Result<std::unique_ptr<SqliteCheckpointer>> opened = OpenWith(path, key);
    if (!opened.ok()) {
      CHECK(opened.status().IsInvalidArgument());
      return false;
    }
    CHECK(Collect(**opened, ListOf(std::nullopt)) == expected);
    return true;
  };

  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  // Trial 0 runs to the end and measures how long a Rekey takes; the
  // others are killed at fractions of that.
  std::chrono::steady_clock::duration full{};
  int killed_under_old = 0;
  constexpr int kTrials = 6;
  for (int trial = 0; trial <= kTrials; ++trial) {
    CAPTURE(trial);
    const std::string path = dir.Sub("trial" + std::to_string(trial));
    std::filesystem::copy_file(seed, path);
    const pid_t pid = StartRekeyChild(path, key1, key2, pipe_fds[1]);
    char byte = 0;
    REQUIRE(::read(pipe_fds[0], &byte, 1) == 1);
    const auto started = std::chrono::steady_clock::now();
    if (trial > 0) {
      std::this_thread::sleep_for(full * trial / (kTrials + 1));
      ::kill(pid, SIGKILL);
    }
    int wait_status = 0;
    REQUIRE(::waitpid(pid, &wait_status, 0) == pid);
    if (trial == 0) {
      full = std::chrono::steady_clock::now() - started;
      REQUIRE(WIFEXITED(wait_status));
      REQUIRE(WEXITSTATUS(wait_status) == 0);
    }
    // Entirely under one key: the other is refused at open, and every
    // record reads back under the one that opens.
    const bool old_key = reads(path, key1);
    const bool new_key = reads(path, key2);
    CHECK(old_key != new_key);
    if (WIFSIGNALED(wait_status) && old_key) ++killed_under_old;
    if (trial == 0) CHECK(new_key);
  }
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  MESSAGE("a full rekey took "
          << std::chrono::duration_cast<std::chrono::milliseconds>(full).count()
          << " ms; " << killed_under_old << " of " << kTrials
          << " kills landed before the commit");
  // The early kills land inside the transaction.
  CHECK(killed_under_old >= 1);
}

TEST_CASE("sqlite rekey: a handle opened before it cannot write the old key") {
  TempDir dir;
  const std::string path = dir.Sub("db.sqlite");
  const std::string key1 = KeyOf('1');
  for (const std::optional<std::string>& old_key :
       {std::optional<std::string>(), std::optional<std::string>(key1)}) {
    CAPTURE(old_key.has_value());
    std::filesystem::remove(path);
    auto stale = Unwrap(OpenWith(path, old_key));
    PutTwinThreads(*stale);
    // Exclusive access is the caller's duty; a handle left open is caught
    // on its next write of a record.
    RP_REQUIRE_OK(RekeyStore(path, old_key, KeyOf('2')));
    const Status put =
        stale->Put(Cfg("t", CpId(2)), MakeCheckpoint(CpId(3)), Meta(), {})
            .status();
    INFO(put.ToString());
    CHECK(put.IsAborted());
    CHECK(stale->PutWrites(Cfg("t", CpId(2)), {W("a", "x")}, "k").IsAborted());
    CHECK(stale->CopyThread("t", "v").IsAborted());
    stale.reset();
    auto store = Unwrap(OpenWith(path, KeyOf('2')));
    CHECK(Ids(Collect(*store, ListOf(Cfg("t", std::nullopt)))) ==
          CpId(2) + " " + CpId(1));
  }
}

}  // namespace
}  // namespace rockpoint
