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

#include "engine/contract_helpers.h"
#include "engine/delta_helpers.h"
#include "engine/postgres/postgres_checkpointer.h"
#include "engine/postgres/postgres_test_server.h"
#include "rockpoint/encryption.h"

namespace rockpoint {
namespace {

using namespace ::rockpoint::testing;

constexpr const char* kValueMarker = "VALUE-MARKER-3f9a";
constexpr const char* kMetaMarker = "META-MARKER-77c1";
constexpr const char* kWriteMarker = "WRITE-MARKER-b20e";
constexpr const char* kSendMarker = "SEND-MARKER-41d0";
constexpr const char* kTsMarker = "TS-MARKER-9e2b";

std::string KeyOf(char fill) { return std::string(kEncryptionKeyBytes, fill); }

PostgresOptions OptionsFor(const std::string& url,
                           const std::optional<std::string>& key,
                           bool read_only = false) {
  PostgresOptions options;
  options.url = url;
  options.pool_size = 2;
  options.read_only = read_only;
  if (key) options.encryption = EncryptionOptions{*key};
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

// A database for one case, dropped when the case ends.
class Database {
 public:
  explicit Database(std::string_view hint) : url_(FreshDatabase(hint)) {}
  ~Database() { DropDatabase(url_); }
  const std::string& url() const { return url_; }

 private:
  std::string url_;
};

// A libpq session on a test database, for looking at and changing rows
// beneath the checkpointer. Results are binary: text and bytea columns are
// their bytes.
class RawDb {
 public:
  explicit RawDb(const std::string& url)
      : conn_(postgres_detail::Connect(url)) {}

  // The first column of every row of `sql` (parameters $1... as bytes).
  std::vector<std::string> Column(const std::string& sql,
                                  const std::vector<std::string>& params = {}) {
    postgres_detail::Result result = Exec(sql, params);
    std::vector<std::string> out;
    for (int i = 0; i < PQntuples(result.get()); ++i) {
      out.emplace_back(PQgetvalue(result.get(), i, 0),
                       PQgetlength(result.get(), i, 0));
    }
    return out;
  }
  // The single value of `sql`.
  std::string One(const std::string& sql,
                  const std::vector<std::string>& params = {}) {
    std::vector<std::string> values = Column(sql, params);
    REQUIRE_MESSAGE(values.size() == 1, sql);
    return values.front();
  }
  // Every field of every row of `sql`, concatenated.
  std::string AllBytes(const std::string& sql) {
    postgres_detail::Result result = Exec(sql, {});
    std::string out;
    for (int i = 0; i < PQntuples(result.get()); ++i) {
      for (int j = 0; j < PQnfields(result.get()); ++j) {
        out.append(PQgetvalue(result.get(), i, j),
                   PQgetlength(result.get(), i, j));
        out += '|';
      }
      out += '\n';
    }
    return out;
  }
  void Run(const std::string& sql,
           const std::vector<std::string>& params = {}) {
    Exec(sql, params);
  }
  PGconn* conn() { return conn_.get(); }

 private:
  postgres_detail::Result Exec(const std::string& sql,
                               const std::vector<std::string>& params) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats(params.size(), 1);
    for (const std::string& param : params) {
      values.push_back(param.data());
      lengths.push_back(static_cast<int>(param.size()));
    }
    postgres_detail::Result result(PQexecParams(
        conn_.get(), sql.c_str(), static_cast<int>(params.size()), nullptr,
        values.data(), lengths.data(), formats.data(), /*resultFormat=*/1));
    const ExecStatusType status = PQresultStatus(result.get());
    REQUIRE_MESSAGE(
        (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK),
        sql << ": " << std::string(PQresultErrorMessage(result.get())));
    return result;
  }

  postgres_detail::Conn conn_;
};

// Every row of every table, in key order: equal dumps, equal databases.
std::string Dump(const std::string& url) {
  RawDb raw(url);
  std::string out;
  for (const char* sql :
       {"SELECT thread_id, checkpoint_ns, checkpoint_id, "
        "parent_checkpoint_id, checkpoint::text, metadata::text FROM "
        "checkpoints ORDER BY 1, 2, 3",
        "SELECT * FROM checkpoint_blobs ORDER BY 1, 2, 3, 4",
        "SELECT * FROM checkpoint_writes ORDER BY 1, 2, 3, 4, 5",
        "SELECT thread_id, checkpoint_ns, checkpoint_id, hidden, "
        "stored_channels::text, pending_sends::text FROM "
        "rockpoint_checkpoints ORDER BY 1, 2, 3"}) {
    out += raw.AllBytes(sql);
  }
  return out;
}

// The stored encryption's row ("" when none), and rockpoint's schema
// version.
std::string StoredEncryptionRow(const std::string& url) {
  RawDb raw(url);
  if (raw.One("SELECT (to_regclass('rockpoint_encryption') IS NULL)::text") ==
      "true") {
    return "";
  }
  return raw.AllBytes("SELECT store_id, key_check FROM rockpoint_encryption");
}
std::string SchemaVersion(const std::string& url) {
  return RawDb(url).One("SELECT max(v)::text FROM rockpoint_migrations");
}

// Thread "d" (delta channels, runs, writes, two namespaces), thread "m"
// (the markers: a value, metadata, a write, a pending send, a ts; an
// "empty" value) and thread "h" (pruned: hidden checkpoints).
void Fill(Checkpointer& store) {
  PutDeltaThread(store, "d");
  PutDeltaThread(store, "d", "n:1", 7, 3);
  Checkpoint marked =
      MakeCheckpoint(CpId(1), {{"v", Val(kValueMarker)}},
                     {{"v", int64_t{1}}, {"gone", int64_t{2}}}, kTsMarker);
  marked.pending_sends = std::vector<TypedValue>{Val(kSendMarker)};
  Unwrap(store.Put(Cfg("m"), marked, Meta({{"note", Value(kMetaMarker)}}),
                   marked.channel_versions));
  DoWrites(store, "m", CpId(1), {W("v", kWriteMarker)}, "task");
  PutDeltaThread(store, "h");
  RP_REQUIRE_OK(store.Prune({"h"}, PruneStrategy::kKeepLatest, 1));
}

// Everything a store reads back: every visible tuple, the hidden ones of
// "h", the delta readings of "d", the thread list.
struct Snapshot {
  std::vector<CheckpointTuple> all;
  std::vector<CheckpointTuple> hidden;
  Readings d;
  std::vector<ThreadInfo> threads;
};

Snapshot Take(Checkpointer& store) {
  Snapshot snapshot;
  snapshot.all = Collect(store, ListOf(std::nullopt));
  ListOptions hidden = ListOf(Cfg("h", std::nullopt, std::nullopt));
  hidden.include_hidden = true;
  snapshot.hidden = Collect(store, hidden);
  snapshot.d = ReadThread(store, "d");
  snapshot.threads = Unwrap(store.ListThreads({})).threads;
  return snapshot;
}

void CheckSame(const Snapshot& before, const Snapshot& after) {
  REQUIRE(before.all.size() > 20);
  CHECK(after.all == before.all);
  CHECK(after.hidden.size() > 1);
  CHECK(after.hidden == before.hidden);
  CHECK(after.d.size() == before.d.size());
  CheckSameReadings(before.d, after.d, "d");
  CHECK(after.threads == before.threads);
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

// REQUIREs Corruption whose message holds each of `parts`.
void CheckCorruption(const Status& status,
                     const std::vector<std::string>& parts) {
  INFO(status.ToString());
  CHECK(status.IsCorruption());
  for (const std::string& part : parts) {
    CAPTURE(part);
    CHECK(status.message().find(part) != std::string::npos);
  }
}

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

TEST_CASE("postgres encryption: a missing or wrong key is refused at open") {
  Database db("enc_keys");
  const std::string key = KeyOf('k');
  DoPut(*Unwrap(OpenWith(db.url(), key)), {.thread = "t", .id = CpId(1)});
  const std::string dump = Dump(db.url());
  const std::string stored = StoredEncryptionRow(db.url());
  for (bool read_only : {false, true}) {
    CAPTURE(read_only);
    CheckInvalidArgument(OpenWith(db.url(), std::nullopt, read_only).status(),
                         "the store is encrypted");
    CheckInvalidArgument(OpenWith(db.url(), KeyOf('w'), read_only).status(),
                         "wrong encryption key");
    CheckInvalidArgument(
        OpenWith(db.url(), std::string(7, 'x'), read_only).status(),
        "32 bytes");
  }
  CHECK(Dump(db.url()) == dump);  // nothing changed.
  CHECK(StoredEncryptionRow(db.url()) == stored);
  CHECK(MustGet(*Unwrap(OpenWith(db.url(), key)), Cfg("t")).checkpoint.id ==
        CpId(1));
}

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
  const std::string dump = Dump(db.url());
  for (bool read_only : {false, true}) {
    CAPTURE(read_only);
    CheckInvalidArgument(OpenWith(db.url(), KeyOf('k'), read_only).status(),
                         "plaintext records");
  }
  CHECK(Dump(db.url()) == dump);
  CHECK(SchemaVersion(db.url()) == "1");
  CHECK(MustGet(*Unwrap(OpenWith(db.url(), std::nullopt)), Cfg("t"))
            .checkpoint.id == CpId(1));

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

// Threads "t" and "u", each with cp0001 (value a@1, a write, metadata) and
// cp0002 (value a@2), so that records can be swapped between them.
void FillPair(Checkpointer& store) {
  for (const std::string thread : {"t", "u"}) {
    DoPut(store, {.thread = thread,
                  .id = CpId(1),
                  .values = {{"a", Val(thread + "-1")}},
                  .versions = {{"a", int64_t{1}}},
                  .metadata = Meta({{"owner", Value(thread)}})});
    DoWrites(store, thread, CpId(1), {W("a", thread + "-w")}, "task");
    DoPut(store, {.thread = thread,
                  .id = CpId(2),
                  .parent = CpId(1),
                  .values = {{"a", Val(thread + "-2")}},
                  .versions = {{"a", int64_t{2}}}});
  }
}

// The statements that read and set the sealed bytes of one record of
// thread $1 (cp0001's checkpoint, its value a@1, its write).
struct SealedColumn {
  const char* name;
  std::string select;              // $1 thread.
  std::string update;              // $1 thread, $2 the new sealed bytes.
  std::string plain;               // $1 thread: the record made plaintext.
  std::string save;                // $1 thread: what `plain` changes, as text.
  std::string restore;             // $1 thread, $2 what `save` read.
  std::vector<std::string> named;  // what the Corruption names.
};

const std::vector<SealedColumn>& SealedColumns() {
  static const std::vector<SealedColumn> columns = {
      {"checkpoint",
       "SELECT decode(checkpoint ->> '$sealed', 'base64') FROM checkpoints "
       "WHERE thread_id = $1 AND checkpoint_id = 'cp0001'",
       "UPDATE checkpoints SET checkpoint = jsonb_set(checkpoint, "
       "'{$sealed}', to_jsonb(translate(encode($2, 'base64'), E'\\n', ''))) "
       "WHERE thread_id = $1 AND checkpoint_id = 'cp0001'",
       // As a plaintext store (or LangGraph's saver) writes it.
       "UPDATE checkpoints SET checkpoint = jsonb_build_object('v', 1, 'id', "
       "'cp0001', 'ts', 'x', 'channel_values', '{}'::jsonb, "
       "'channel_versions', checkpoint -> 'channel_versions', "
       "'versions_seen', '{}'::jsonb) WHERE thread_id = $1 AND checkpoint_id "
       "= 'cp0001'",
       "SELECT checkpoint::text FROM checkpoints WHERE thread_id = $1 AND "
       "checkpoint_id = 'cp0001'",
       "UPDATE checkpoints SET checkpoint = $2::text::jsonb WHERE thread_id = "
       "$1 AND checkpoint_id = 'cp0001'",
       {"checkpoint at", "\"cp\"", "\"cp0001\""}},
      {"value",
       "SELECT blob FROM checkpoint_blobs WHERE thread_id = $1 AND version = "
       "'1'",
       "UPDATE checkpoint_blobs SET blob = $2 WHERE thread_id = $1 AND "
       "version = '1'",
       "UPDATE checkpoint_blobs SET type = 'json', blob = 'plain' WHERE "
       "thread_id = $1 AND version = '1'",
       "SELECT type || encode(blob, 'base64') FROM checkpoint_blobs WHERE "
       "thread_id = $1 AND version = '1'",
       "UPDATE checkpoint_blobs SET type = substr($2::text, 1, 7), blob = "
       "decode(substr($2::text, 8), 'base64') WHERE thread_id = $1 AND "
       "version = '1'",
       {"value at", "\"bl\"", "\"a\""}},
      {"write",
       "SELECT blob FROM checkpoint_writes WHERE thread_id = $1",
       "UPDATE checkpoint_writes SET blob = $2 WHERE thread_id = $1",
       "UPDATE checkpoint_writes SET type = 'json', blob = 'plain' WHERE "
       "thread_id = $1",
       "SELECT type || encode(blob, 'base64') FROM checkpoint_writes WHERE "
       "thread_id = $1",
       "UPDATE checkpoint_writes SET type = substr($2::text, 1, 7), blob = "
       "decode(substr($2::text, 8), 'base64') WHERE thread_id = $1",
       {"write at", "\"wr\"", "\"cp0001\"", "\"task\""}},
  };
  return columns;
}

TEST_CASE("postgres encryption: a damaged record is Corruption naming it") {
  Database db("enc_damage");
  Database other("enc_damage_other");
  const std::string key = KeyOf('k');
  FillPair(*Unwrap(OpenWith(db.url(), key)));
  FillPair(*Unwrap(OpenWith(other.url(), KeyOf('o'))));
  RawDb raw(db.url());
  const std::string dump = Dump(db.url());

  for (const SealedColumn& column : SealedColumns()) {
    CAPTURE(column.name);
    const std::string t = raw.One(column.select, {"t"});
    const std::string u = raw.One(column.select, {"u"});
    std::string tampered = t;
    tampered[tampered.size() / 2] ^= 0x01;
    std::vector<std::string> named = column.named;
    named.push_back("\"t\"");
    const auto check_t_unreadable = [&] {
      auto store = Unwrap(OpenWith(db.url(), key));
      CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(), named);
      // A list reaches the damaged record (a page of tuples is read whole:
      // its page fails) and never returns it.
      std::unique_ptr<TupleCursor> cursor =
          Unwrap(store->List(ListOf(Cfg("t", std::nullopt))));
      Result<std::optional<CheckpointTuple>> next = cursor->Next();
      while (next.ok() && next->has_value()) {
        CHECK((*next)->checkpoint.id != CpId(1));
        next = cursor->Next();
      }
      CheckCorruption(next.status(), named);
      // Thread u reads as before.
      CHECK(ValuesOf(MustGet(*store, Cfg("u", CpId(1))).checkpoint) == "a=u-1");
    };
    for (const auto& [damage, bytes] :
         std::vector<std::pair<std::string, std::string>>{
             {"a changed byte", tampered},
             {"u's record in t", u},
             {"truncated by one byte", t.substr(0, t.size() - 1)},
             {"truncated to 20 bytes", t.substr(0, 20)},
             {"sealed with another key",
              RawDb(other.url()).One(column.select, {"t"})}}) {
      CAPTURE(damage);
      raw.Run(column.update, {"t", bytes});
      check_t_unreadable();
      raw.Run(column.update, {"t", t});
    }
    {
      INFO("a plaintext record");
      const std::string saved = raw.One(column.save, {"t"});
      raw.Run(column.plain, {"t"});
      check_t_unreadable();
      raw.Run(column.restore, {"t", saved});
    }
    // Swapped both ways: neither reads.
    raw.Run(column.update, {"t", u});
    raw.Run(column.update, {"u", t});
    {
      auto store = Unwrap(OpenWith(db.url(), key));
      CheckCorruption(store->GetTuple(Cfg("t", CpId(1))).status(), {"\"t\""});
      CheckCorruption(store->GetTuple(Cfg("u", CpId(1))).status(), {"\"u\""});
    }
    raw.Run(column.update, {"t", t});
    raw.Run(column.update, {"u", u});
    CHECK(Dump(db.url()) == dump);  // restored.
  }
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
