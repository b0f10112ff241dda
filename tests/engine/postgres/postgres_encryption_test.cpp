// Encryption at rest on PostgresCheckpointer (engine/postgres/SCHEMA.md,
// "Encrypted stores"): what is sealed and what stays in the clear, keys at
// open, every kind of damage to a stored record as Corruption naming it with
// nothing returned, filters, delete_for_runs and copy_thread on an encrypted
// database, and Rekey: round trips (with rows LangGraph's saver wrote), a
// Rekey that finds a damaged row midway, and one whose session the server
// ends midway.
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/contract_harness.h"
#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_raw_db.h"
#include "engine/postgres/postgres_test_server.h"
#include "engine/store_snapshot.h"
#include "rockpoint/encryption.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

constexpr const char* kSendMarker = "SEND-MARKER-41d0";
constexpr const char* kTsMarker = "TS-MARKER-9e2b";

PostgresOptions OptionsFor(const std::string& url,
                           const std::optional<std::string>& key,
                           bool read_only = false) {
  PostgresOptions options;
  options.url = url;
  options.pool_size = 2;
  ApplySpec({key, read_only}, &options);
  return options;
}

Result<std::unique_ptr<PostgresCheckpointer>> OpenWith(
    const std::string& url, const std::optional<std::string>& key,
    bool read_only = false) {
  return PostgresCheckpointer::Open(OptionsFor(url, key, read_only));
}

Status RekeyDb(const std::string& url, const std::optional<std::string>& from,
               const std::optional<std::string>& to) {
  std::optional<EncryptionOptions> next;
  if (to) next = EncryptionOptions{*to};
  return PostgresCheckpointer::Rekey(OptionsFor(url, from), next);
}

// Thread "d" (delta channels, runs, writes, two namespaces), thread "m"
// (the markers: a value, metadata, a write, a pending send, a ts; an
// "empty" value) and thread "h" (pruned: hidden checkpoints).
void Fill(Checkpointer& store) {
  PutDeltaThreads(store);
  Checkpoint marked =
      MakeCheckpoint(CpId(1), {{"v", Val(kValueMarker)}},
                     {{"v", int64_t{1}}, {"gone", int64_t{2}}}, kTsMarker);
  marked.pending_sends = std::vector<TypedValue>{Val(kSendMarker)};
  Unwrap(store.Put(Cfg("m"), marked, Meta({{"note", Value(kMetaMarker)}}),
                   marked.channel_versions));
  DoWrites(store, "m", CpId(1), {W("v", kWriteMarker)}, "task");
  PutHiddenThread(store);
}

// Every byte of every table, as the server returns them.
std::string AllTables(const std::string& url) {
  RawDb raw(url);
  std::string bytes;
  for (const char* table :
       {"checkpoints", "checkpoint_blobs", "checkpoint_writes",
        "rockpoint_checkpoints", "rockpoint_encryption"}) {
    if (raw.One(std::string("SELECT (to_regclass('") + table +
                "') IS NULL)::text") == "true") {
      continue;  // a plaintext database has no rockpoint_encryption.
    }
    bytes += raw.AllBytes(std::string("SELECT * FROM ") + table);
  }
  return bytes;
}

// The bytes of the files of the database `url` on the server's disk, once a
// CHECKPOINT wrote its pages there; nullopt when they cannot be read here
// (a server on another host, or a role that may not CHECKPOINT).
std::optional<std::string> DatabaseFiles(const std::string& url) {
  RawDb raw(url);
  postgres_detail::Result checkpoint(PQexec(raw.conn(), "CHECKPOINT"));
  if (PQresultStatus(checkpoint.get()) != PGRES_COMMAND_OK) return {};
  const std::string dir = raw.One(
      "SELECT current_setting('data_directory') || '/base/' || oid::text "
      "FROM pg_database WHERE datname = current_database()");
  std::error_code error;
  std::string bytes;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    if (!in) return {};
    bytes.append(std::istreambuf_iterator<char>(in), {});
  }
  if (error || bytes.empty()) return {};
  return bytes;
}

// The markers as the rows of a plaintext database hold them (pending sends
// in base64).
const std::vector<std::string> kMarkers = {
    kValueMarker,
    kMetaMarker,
    kWriteMarker,
    "U0VORC1NQVJLRVItNDFkMA==",  // kSendMarker
    kTsMarker,
    "snapshot@",
    "side5"};

void CheckInvalidArgument(const Status& status, const std::string& why) {
  INFO(status.ToString());
  CHECK(status.IsInvalidArgument());
  CHECK(status.message().find(why) != std::string::npos);
}

TEST_CASE("postgres encryption: records are sealed, identifiers stay clear") {
  Database db("enc_sealed");
  const std::string key = KeyOf('k');
  Snapshot before;
  {
    auto store = Unwrap(OpenWith(db.url(), key));
    Fill(*store);
    before = Take(*store);
  }
  // Neither the rows the server returns nor the database's files on its
  // disk hold a marker ...
  const std::string bytes = AllTables(db.url());
  const std::optional<std::string> files = DatabaseFiles(db.url());
  if (!files) MESSAGE("the server's files cannot be read here: rows only");
  for (const std::string& marker : kMarkers) {
    CAPTURE(marker);
    CHECK(bytes.find(marker) == std::string::npos);
    if (files) CHECK(files->find(marker) == std::string::npos);
  }
  // ... where the same rows of a plaintext database hold every one.
  {
    Database plain("enc_sealed_plain");
    Fill(*Unwrap(OpenWith(plain.url(), std::nullopt)));
    const std::string plain_bytes = AllTables(plain.url());
    const std::optional<std::string> plain_files = DatabaseFiles(plain.url());
    for (const std::string& marker : kMarkers) {
      CAPTURE(marker);
      CHECK(plain_bytes.find(marker) != std::string::npos);
      if (plain_files) CHECK(plain_files->find(marker) != std::string::npos);
    }
  }

  RawDb raw(db.url());
  // Checkpoint columns: the sealed record and the clear channel_versions
  // copy; metadata: the run_id alone; no plaintext pending sends.
  CHECK(raw.One("SELECT count(*)::text FROM checkpoints WHERE NOT "
                "(checkpoint ? '$sealed') OR (checkpoint - '$sealed' - "
                "'channel_versions') <> '{}' OR (metadata - 'run_id') <> "
                "'{}'") == "0");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoints WHERE "
                "get_byte(decode(checkpoint ->> '$sealed', 'base64'), 0) <> "
                "225") == "0");
  CHECK(raw.One("SELECT count(*)::text FROM rockpoint_checkpoints WHERE "
                "pending_sends IS NOT NULL") == "0");
  // Values and writes: type "$sealed" and a sealed blob (format byte E1);
  // LangGraph's "empty" marker holds nothing and stays.
  CHECK(raw.One("SELECT count(*)::text FROM checkpoint_blobs WHERE NOT "
                "((type = '$sealed' AND get_byte(blob, 0) = 225) OR (type = "
                "'empty' AND blob IS NULL))") == "0");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoint_blobs WHERE type = "
                "'empty' AND thread_id = 'm' AND channel = 'gone'") == "1");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoint_writes WHERE type <> "
                "'$sealed' OR get_byte(blob, 0) <> 225") == "0");
  // Identifiers stay clear: lookups, the run_id index and the delta walk
  // run in SQL.
  CHECK(raw.One("SELECT count(*)::text FROM checkpoints WHERE thread_id = "
                "'m' AND checkpoint_id = 'cp0001'") == "1");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoints WHERE metadata ->> "
                "'run_id' = 'd/run-0'") == "6");  // 3 per namespace.
  CHECK(raw.One("SELECT (checkpoint -> 'channel_versions')::text FROM "
                "checkpoints WHERE thread_id = 'm'") ==
        "{\"v\": 1, \"gone\": 2}");
  CHECK(raw.One("SELECT length(store_id)::text FROM rockpoint_encryption") ==
        "16");
  CHECK(SchemaVersion(db.url()) == "2");

  for (bool read_only : {false, true}) {
    CAPTURE(read_only);
    auto store = Unwrap(OpenWith(db.url(), key, read_only));
    CheckSame(before, Take(*store));
  }
  // A key from ROCKPOINT_AES_KEY when EncryptionOptions.key is empty.
  REQUIRE(::setenv(kEncryptionKeyEnvironment, FormatEncryptionKey(key).c_str(),
                   1) == 0);
  auto from_environment = OpenWith(db.url(), std::string());
  ::unsetenv(kEncryptionKeyEnvironment);
  CheckSame(before, Take(*Unwrap(std::move(from_environment))));
}

// A missing, wrong or malformed key, and a key for a plaintext database
// with records: contract_encryption.h.
TEST_CASE(
    "postgres encryption: a plaintext database is not encrypted by a "
    "key") {
  Database db("enc_plain");
  DoPut(*Unwrap(OpenWith(db.url(), std::nullopt)),
        {.thread = "t", .id = CpId(1)});
  // A plaintext database keeps rockpoint's schema version 1, which a
  // rockpoint without encryption still opens.
  CHECK(SchemaVersion(db.url()) == "1");
  CHECK(StoredEncryptionRow(db.url()).empty());

  // An empty database becomes encrypted by a read-write open with a key:
  // its stored encryption (and schema version 2) before its first record.
  Database empty("enc_empty");
  Unwrap(OpenWith(empty.url(), std::nullopt)).reset();
  CheckInvalidArgument(
      OpenWith(empty.url(), KeyOf('k'), /*read_only=*/true).status(),
      "not encrypted");
  CHECK(StoredEncryptionRow(empty.url()).empty());
  Unwrap(OpenWith(empty.url(), KeyOf('k'))).reset();
  CHECK(SchemaVersion(empty.url()) == "2");
  CHECK(StoredEncryptionRow(empty.url()).size() > 16);
  CheckInvalidArgument(OpenWith(empty.url(), std::nullopt).status(),
                       "the store is encrypted");
  // A second open with the same key finds it; with another, refused.
  const std::string stored = StoredEncryptionRow(empty.url());
  Unwrap(OpenWith(empty.url(), KeyOf('k'))).reset();
  CHECK(StoredEncryptionRow(empty.url()) == stored);
  CheckInvalidArgument(OpenWith(empty.url(), KeyOf('o')).status(),
                       "wrong encryption key");

  // Rows LangGraph's saver wrote are plaintext records too.
  Database langgraph("enc_langgraph");
  Unwrap(OpenWith(langgraph.url(), std::nullopt)).reset();
  RawDb(langgraph.url())
      .Run(
          "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, "
          "checkpoint_id, task_id, idx, channel, type, blob) VALUES ('t', '', "
          "'c1', 'task', 0, 'c', 'json', '\\x01')");
  CheckInvalidArgument(OpenWith(langgraph.url(), KeyOf('k')).status(),
                       "plaintext records");
}

// A sealed record changed, truncated, moved, from another store or made
// plaintext: contract_encryption.h.
TEST_CASE(
    "postgres encryption: the clear columns beside a sealed checkpoint must "
    "agree with it") {
  Database db("enc_damage");
  const std::string key = KeyOf('k');
  PutTwinThreads(*Unwrap(OpenWith(db.url(), key)));
  RawDb raw(db.url());
  const std::string dump = Dump(db.url());
  // Checkpoint rows swapped whole between the threads (the clear copy
  // moves along): still Corruption.
  raw.Run(
      "UPDATE checkpoints c SET checkpoint = o.checkpoint FROM checkpoints o "
      "WHERE c.checkpoint_id = 'cp0001' AND o.checkpoint_id = 'cp0001' AND "
      "c.thread_id <> o.thread_id");
  auto store = Unwrap(OpenWith(db.url(), key));
  CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(), {"\"t\""});
  // The clear channel_versions copy is checked against the sealed one.
  raw.Run(
      "UPDATE checkpoints c SET checkpoint = o.checkpoint FROM checkpoints o "
      "WHERE c.checkpoint_id = 'cp0001' AND o.checkpoint_id = 'cp0001' AND "
      "c.thread_id <> o.thread_id");
  CHECK(Dump(db.url()) == dump);
  raw.Run(
      "UPDATE checkpoints SET checkpoint = jsonb_set(checkpoint, "
      "'{channel_versions,a}', '2') WHERE thread_id = 't' AND checkpoint_id "
      "= 'cp0001'");
  CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(),
                  {"channel_versions", "\"t\""});
  // Plaintext pending sends beside a sealed record.
  raw.Run(
      "UPDATE checkpoints SET checkpoint = jsonb_set(checkpoint, "
      "'{channel_versions,a}', '1') WHERE thread_id = 't' AND checkpoint_id "
      "= 'cp0001'");
  CHECK(ValuesOf(MustGet(*store, Cfg("t", CpId(1))).checkpoint) == "a=t-1");
  raw.Run(
      "UPDATE rockpoint_checkpoints SET pending_sends = '[]' WHERE thread_id "
      "= 't' AND checkpoint_id = 'cp0001'");
  CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(),
                  {"pending_sends", "\"t\""});
}

TEST_CASE("postgres encryption: filters, runs and lists on sealed metadata") {
  Database db("enc_filters");
  auto store = Unwrap(OpenWith(db.url(), KeyOf('k')));
  const std::string nul_run("run\0x", 5);  // JSON cannot hold it: a tag.
  for (int i = 0; i < 6; ++i) {
    Value::Map metadata = {{"source", Value(i % 2 ? "loop" : "input")},
                           {"step", Value(i)},
                           {"run_id", Value(i < 4 ? "r1" : nul_run)}};
    if (i == 5) metadata.emplace("bytes", Value(serde::Bytes{"\x01\x02"}));
    DoPut(*store, {.thread = i < 3 ? "a" : "b",
                   .id = CpId(i),
                   .metadata = Value(std::move(metadata))});
  }
  CHECK(Keys(Collect(
            *store, ListOf(std::nullopt, Meta({{"source", Value("loop")}})))) ==
        "b/cp0005 b/cp0003 a/cp0001");
  CHECK(Keys(Collect(*store, ListOf(Cfg("a", std::nullopt),
                                    Meta({{"step", Value(2)}})))) ==
        "a/cp0002");
  CHECK(Keys(Collect(
            *store,
            ListOf(std::nullopt,
                   Meta({{"bytes", Value(serde::Bytes{"\x01\x02"})}})))) ==
        "b/cp0005");
  CHECK(Keys(Collect(*store,
                     ListOf(std::nullopt, Meta({{"source", Value("loop")}}),
                            std::nullopt, 2))) == "b/cp0005 b/cp0003");
  // The metadata reads back whole.
  CHECK(MustGet(*store, Cfg("b", CpId(5)))
            .metadata.Find("bytes")
            ->as_bytes()
            .data == "\x01\x02");
  // delete_for_runs by the clear run_id, a plain and a tagged one.
  RP_REQUIRE_OK(store->DeleteForRuns({nul_run}));
  CHECK(Keys(Collect(*store, ListOf(std::nullopt))) ==
        "b/cp0003 a/cp0002 a/cp0001 a/cp0000");
  RP_REQUIRE_OK(store->DeleteForRuns({"r1"}));
  CHECK(Collect(*store, ListOf(std::nullopt)).empty());
}

TEST_CASE("postgres encryption: copy_thread re-seals every record") {
  Database db("enc_copy");
  const std::string key = KeyOf('k');
  auto store = Unwrap(OpenWith(db.url(), key));
  Fill(*store);
  RP_REQUIRE_OK(store->CopyThread("d", "d2"));
  RP_REQUIRE_OK(store->CopyThread("h", "h2"));
  store.reset();
  store = Unwrap(OpenWith(db.url(), key));
  for (const auto& [source, target] :
       std::vector<std::pair<std::string, std::string>>{{"d", "d2"},
                                                        {"h", "h2"}}) {
    CAPTURE(source);
    ListOptions all = ListOf(Cfg(source, std::nullopt, std::nullopt));
    all.include_hidden = true;
    std::vector<CheckpointTuple> copied;
    for (CheckpointTuple tuple : Collect(*store, all)) {
      copied.push_back(InThread(std::move(tuple), target));
    }
    all.config->thread_id = target;
    CHECK(Collect(*store, all) == copied);
    CHECK(copied.size() > 3);
  }
  const Readings d = ReadThread(*store, "d");
  const Readings d2 = ReadThread(*store, "d2");
  CheckSameReadings(d, d2, "d2");
  // No sealed record is shared by the source and the copy.
  RawDb raw(db.url());
  CHECK(raw.One("SELECT count(*)::text FROM checkpoint_blobs s JOIN "
                "checkpoint_blobs t ON s.thread_id = 'd' AND t.thread_id = "
                "'d2' AND s.blob = t.blob") == "0");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoint_writes s JOIN "
                "checkpoint_writes t ON s.thread_id = 'd' AND t.thread_id = "
                "'d2' AND s.blob = t.blob") == "0");
  CHECK(raw.One("SELECT count(*)::text FROM checkpoints s JOIN checkpoints t "
                "ON s.thread_id = 'd' AND t.thread_id = 'd2' AND "
                "s.checkpoint = t.checkpoint") == "0");
  // Retention and deletes work on the copy alone.
  RP_REQUIRE_OK(store->Prune({"d2"}, PruneStrategy::kKeepLatest, 1));
  CheckSameReadings(d, ReadThread(*store, "d"), "d");
  RP_REQUIRE_OK(store->DeleteThread("d2"));
  CHECK(Unwrap(store->ListThreads({})).threads.size() == 4);  // d h h2 m
}

// A LangGraph-written thread "lg": a value inlined in the checkpoint, one in
// a blob row, a write; then rockpoint's rows of Fill.
void FillWithLangGraph(const std::string& url) {
  Fill(*Unwrap(OpenWith(url, std::nullopt)));
  RawDb raw(url);
  raw.Run(
      "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
      "checkpoint, metadata) VALUES ('lg', '', 'c1', '{\"v\": 4, \"id\": "
      "\"c1\", \"ts\": \"2024\", \"channel_values\": {\"s\": \"text\"}, "
      "\"channel_versions\": {\"s\": 1, \"b\": 2}, \"versions_seen\": {}}', "
      "'{\"step\": 1, \"run_id\": \"lg-run\"}')");
  raw.Run(
      "INSERT INTO checkpoint_blobs VALUES ('lg', '', 'b', '2', 'bytes', "
      "'\\x0102')");
  raw.Run(
      "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, "
      "checkpoint_id, task_id, idx, channel, type, blob, task_path) VALUES "
      "('lg', '', 'c1', 'task', 0, 'c', 'json', '\"w\"', '')");
}

TEST_CASE("postgres encryption: Rekey round trips") {
  Database db("enc_rekey");
  FillWithLangGraph(db.url());
  const std::string plain_dump = Dump(db.url());
  Snapshot before;
  CheckpointTuple langgraph;
  {
    auto store = Unwrap(OpenWith(db.url(), std::nullopt));
    before = Take(*store);
    langgraph = MustGet(*store, Cfg("lg"));
    CHECK(ValuesOf(langgraph.checkpoint) == "b=\x01\x02 s=\xa4text");
  }
  const auto check_reads = [&](const std::optional<std::string>& key) {
    auto store = Unwrap(OpenWith(db.url(), key));
    CheckSame(before, Take(*store));
    CHECK(MustGet(*store, Cfg("lg")) == langgraph);
  };

  // plaintext -> k1 -> k2 -> plaintext.
  RP_REQUIRE_OK(RekeyDb(db.url(), std::nullopt, KeyOf('1')));
  CHECK(SchemaVersion(db.url()) == "2");
  const std::string first = StoredEncryptionRow(db.url());
  CHECK_FALSE(first.empty());
  const std::string bytes = AllTables(db.url());
  for (const std::string& marker : kMarkers) {
    CAPTURE(marker);
    CHECK(bytes.find(marker) == std::string::npos);
  }
  CHECK(bytes.find("text") == std::string::npos);  // LangGraph's inline one.
  check_reads(KeyOf('1'));
  CheckInvalidArgument(OpenWith(db.url(), std::nullopt).status(),
                       "the store is encrypted");

  RP_REQUIRE_OK(RekeyDb(db.url(), KeyOf('1'), KeyOf('2')));
  const std::string second = StoredEncryptionRow(db.url());
  CHECK(second.substr(0, 16) != first.substr(0, 16));  // a new store id.
  check_reads(KeyOf('2'));
  CheckInvalidArgument(OpenWith(db.url(), KeyOf('1')).status(),
                       "wrong encryption key");
  // Rekey itself needs the right key, and changes nothing without it.
  const std::string sealed_dump = Dump(db.url());
  CheckInvalidArgument(RekeyDb(db.url(), KeyOf('1'), KeyOf('3')),
                       "wrong encryption key");
  CheckInvalidArgument(RekeyDb(db.url(), std::nullopt, KeyOf('3')),
                       "the store is encrypted");
  CHECK(Dump(db.url()) == sealed_dump);

  RP_REQUIRE_OK(RekeyDb(db.url(), KeyOf('2'), std::nullopt));
  CHECK(StoredEncryptionRow(db.url()).empty());
  check_reads(std::nullopt);
  // Back to the very rows it started from, LangGraph's included.
  CHECK(Dump(db.url()) == plain_dump);
  // A plaintext database to plaintext: nothing to do.
  RP_REQUIRE_OK(RekeyDb(db.url(), std::nullopt, std::nullopt));
  CHECK(Dump(db.url()) == plain_dump);
  // The same key again re-seals under a new store id.
  RP_REQUIRE_OK(RekeyDb(db.url(), std::nullopt, KeyOf('4')));
  const std::string third = StoredEncryptionRow(db.url());
  RP_REQUIRE_OK(RekeyDb(db.url(), KeyOf('4'), KeyOf('4')));
  CHECK(StoredEncryptionRow(db.url()).substr(0, 16) != third.substr(0, 16));
  check_reads(KeyOf('4'));
  CHECK(RekeyDb(db.url(), KeyOf('4'), KeyOf('5')).ok());
  PostgresOptions read_only = OptionsFor(db.url(), KeyOf('5'), true);
  CheckInvalidArgument(PostgresCheckpointer::Rekey(read_only, std::nullopt),
                       "read_only");
}

TEST_CASE(
    "postgres encryption: a Rekey that finds a damaged row midway "
    "changes nothing") {
  Database db("enc_rekey_damaged");
  const std::string key = KeyOf('1');
  Snapshot before;
  {
    auto store = Unwrap(OpenWith(db.url(), key));
    Fill(*store);
    before = Take(*store);
  }
  // The last write of the last thread: the rows before it are re-sealed
  // when it is found.
  RawDb raw(db.url());
  const std::string write =
      "FROM checkpoint_writes WHERE thread_id = 'm' AND task_id = 'task'";
  const std::string sealed = raw.One("SELECT blob " + write);
  std::string tampered = sealed;
  tampered[tampered.size() - 1] ^= 0x01;
  raw.Run(
      "UPDATE checkpoint_writes SET blob = $1 WHERE thread_id = 'm' AND "
      "task_id = 'task'",
      {tampered});
  const std::string dump = Dump(db.url());
  const std::string stored = StoredEncryptionRow(db.url());
  CheckCorruption(RekeyDb(db.url(), key, KeyOf('2')),
                  {"write at", "\"m\"", "\"task\""});
  CHECK(Dump(db.url()) == dump);
  CHECK(StoredEncryptionRow(db.url()) == stored);
  CheckCorruption(RekeyDb(db.url(), key, std::nullopt), {"write at"});
  CHECK(Dump(db.url()) == dump);
  // Repaired, the old key reads everything; the new one opens nothing.
  raw.Run(
      "UPDATE checkpoint_writes SET blob = $1 WHERE thread_id = 'm' AND "
      "task_id = 'task'",
      {sealed});
  CheckSame(before, Take(*Unwrap(OpenWith(db.url(), key))));
  CheckInvalidArgument(OpenWith(db.url(), KeyOf('2')).status(),
                       "wrong encryption key");
}

TEST_CASE(
    "postgres encryption: a Rekey whose session the server ends "
    "midway changes nothing") {
  Database db("enc_rekey_killed");
  const std::string key = KeyOf('1');
  Snapshot before;
  {
    auto store = Unwrap(OpenWith(db.url(), key));
    Fill(*store);
    before = Take(*store);
  }
  const std::string dump = Dump(db.url());
  const std::string stored = StoredEncryptionRow(db.url());
  // Another session holds rockpoint_encryption, which Rekey replaces last:
  // Rekey waits there, every row re-sealed in its open transaction.
  RawDb holder(db.url());
  holder.Run("BEGIN");
  holder.Run("LOCK TABLE rockpoint_encryption IN SHARE MODE");
  Status rekeyed = Status::OK();
  std::thread rekey([&] { rekeyed = RekeyDb(db.url(), key, KeyOf('2')); });
  RawDb watcher(db.url());
  const std::string waiting =
      "SELECT count(*)::text FROM pg_stat_activity WHERE datname = "
      "current_database() AND application_name = 'rockpoint' AND "
      "wait_event_type = 'Lock'";
  for (int i = 0; i < 1000 && watcher.One(waiting) != "1"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(watcher.One(waiting) == "1");
  // It waits where it replaces the stored encryption, holding the tables
  // whose rows it rewrote.
  CHECK(watcher.One("SELECT count(*)::text FROM pg_stat_activity WHERE "
                    "datname = current_database() AND application_name = "
                    "'rockpoint' AND query LIKE "
                    "'%DELETE FROM rockpoint_encryption%'") == "1");
  CHECK(watcher.One("SELECT count(*)::text FROM pg_locks l JOIN "
                    "pg_stat_activity a ON a.pid = l.pid WHERE "
                    "a.application_name = 'rockpoint' AND l.granted AND "
                    "l.mode = 'AccessExclusiveLock' AND l.relation IN "
                    "('checkpoints'::regclass, "
                    "'checkpoint_blobs'::regclass, "
                    "'checkpoint_writes'::regclass)") == "3");
  watcher.Run(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname "
      "= current_database() AND application_name = 'rockpoint'");
  rekey.join();
  holder.Run("ROLLBACK");
  INFO(rekeyed.ToString());
  CHECK(rekeyed.IsIOError());
  CHECK(Dump(db.url()) == dump);
  CHECK(StoredEncryptionRow(db.url()) == stored);
  CheckSame(before, Take(*Unwrap(OpenWith(db.url(), key))));
  CheckInvalidArgument(OpenWith(db.url(), KeyOf('2')).status(),
                       "wrong encryption key");
  // The next Rekey completes.
  RP_REQUIRE_OK(RekeyDb(db.url(), key, KeyOf('2')));
  CheckSame(before, Take(*Unwrap(OpenWith(db.url(), KeyOf('2')))));
}

}  // namespace
}  // namespace rockpoint
