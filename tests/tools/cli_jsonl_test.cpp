// `.jsonl` stores end to end: they are journals of the JSONL backend
// (engine/jsonl/jsonl_checkpointer.h), created by import, changed in place,
// read without a lock, locked against a second writer, compacted by
// `compact`, readable by `import` like an export; an export where a store
// is expected is refused with the command that converts it.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

namespace fs = std::filesystem;

const std::string kJournalHeader =
    R"({"kind":"header","format":"rockpoint-journal","version":3,"crc":"552875c0"})"
    "\n";

struct JsonlFixture {
  TempDir dir;
  std::string store = dir.Sub("store");  // RocksDB
  std::string exported;                  // its export
  std::string export_file = dir.Sub("store.export");
  std::string journal = dir.Sub("copy.jsonl");
  JsonlFixture() {
    MakeFixtureStore(store);
    exported = Export(store);
    WriteFile(export_file, exported);
  }
  std::string Export(const std::string& path) const {
    return RunOk({"export", "--store", path}).out;
  }
  // `journal`, holding the fixture.
  void MakeJournal() const {
    RunOk({"import", export_file, "--store", journal});
  }
};

// Holds the exclusive flock() a read-write JsonlCheckpointer takes on its
// journal (jsonl_checkpointer.h: "the journal is flock()ed while open"),
// as another process's writer would; released when this object dies.
class JournalLock {
 public:
  explicit JournalLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(fd_ >= 0);
    REQUIRE(::flock(fd_, LOCK_EX | LOCK_NB) == 0);
  }
  ~JournalLock() { ::close(fd_); }
  JournalLock(const JournalLock&) = delete;
  JournalLock& operator=(const JournalLock&) = delete;

 private:
  int fd_ = -1;
};

TEST_CASE("export -> import into x.jsonl -> export is byte-identical") {
  JsonlFixture f;
  Json counts = ParseJson(
      RunOk({"import", f.export_file, "--json", "--store", f.journal}).out);
  CHECK(counts["checkpoints"] == 11);
  const std::string journal = ReadFile(f.journal);
  CHECK(journal.starts_with(kJournalHeader));
  CHECK(journal.ends_with("{\"kind\":\"commit\",\"crc\":\"869c3d5e\"}\n"));
  CHECK(f.Export(f.journal) == f.exported);
  // Reads agree with the RocksDB original, not only exports.
  for (const char* command : {"threads", "history"}) {
    std::vector<std::string> args{command};
    if (std::string_view(command) == "history") args.push_back("t1");
    args.insert(args.end(), {"--json", "--store"});
    std::vector<std::string> on_journal = args, on_rocksdb = args;
    on_journal.push_back(f.journal);
    on_rocksdb.push_back(f.store);
    CHECK(RunOk(on_journal).out == RunOk(on_rocksdb).out);
  }
  Json stats = ParseJson(RunOk({"stats", "--json", "--store", f.journal}).out);
  CHECK(stats["backend"] == "jsonl");
  CHECK(stats["checkpoints"] == 11);
  CHECK(stats["disk_bytes"] == fs::file_size(f.journal));
  CHECK(stats["journal_lines"] ==
        std::count(journal.begin(), journal.end(), '\n'));
  CHECK(stats["journal_live_lines"] <= stats["journal_lines"]);
  CHECK(stats["torn_tail_bytes"] == 0);
}

TEST_CASE("a journal imports into RocksDB like its export, from stdin too") {
  JsonlFixture f;
  f.MakeJournal();
  const std::string rocksdb = f.dir.Sub("from-journal");
  Json counts =
      ParseJson(RunOk({"import", f.journal, "--json", "--store", rocksdb}).out);
  CHECK(counts["checkpoints"] == 11);
  CHECK(f.Export(rocksdb) == f.exported);
  const std::string piped = f.dir.Sub("piped.db");
  RunOk({"import", "-", "--store", piped}, {.stdin_path = f.journal});
  CHECK(f.Export(piped) == f.exported);
  // The input journal is only read.
  CHECK(f.Export(f.journal) == f.exported);
  // A journal into a journal.
  const std::string again = f.dir.Sub("again.jsonl");
  RunOk({"import", f.journal, "--store", again});
  CHECK(f.Export(again) == f.exported);
}

TEST_CASE("a journal is changed in place, each command's lines appended") {
  JsonlFixture f;
  f.MakeJournal();
  const std::string before = ReadFile(f.journal);
  RunOk({"delete", "t2", "--yes", "--store", f.journal});
  const std::string after_delete = ReadFile(f.journal);
  CHECK(after_delete.starts_with(before));
  CHECK(after_delete.substr(before.size()).find("\"delete_thread\"") !=
        std::string::npos);
  RunResult pruned = RunOk({"prune", "t1", "--yes", "--store", f.journal});
  CHECK(pruned.err.empty());
  Json threads =
      ParseJson(RunOk({"threads", "--json", "--store", f.journal}).out);
  CHECK(threads.size() == 3);
  const std::string exported = f.Export(f.journal);
  CHECK(exported.find("\"t2\"") == std::string::npos);
  // What cp-05's delta history needs stays, hidden.
  CHECK(exported.find("\"hidden\":true") != std::string::npos);
  // Forced backend: a journal without the .jsonl suffix.
  const std::string plain = f.dir.Sub("plain-journal");
  RunOk({"import", f.export_file, "--backend", "jsonl", "--store", plain});
  CHECK(ReadFile(plain).starts_with(kJournalHeader));
  CHECK(RunOk({"export", "--backend", "jsonl", "--store", plain}).out ==
        f.exported);
  // Detected by its first line, whatever its name.
  CHECK(f.Export(plain) == f.exported);
}

TEST_CASE("compact shrinks a journal after delete, keeping its content") {
  JsonlFixture f;
  f.MakeJournal();
  const uint64_t imported = fs::file_size(f.journal);
  RunOk({"delete", "t2", "--yes", "--store", f.journal});
  const uint64_t deleted = fs::file_size(f.journal);
  CHECK(deleted > imported);  // a delete appends
  const std::string exported = f.Export(f.journal);
  Json before = ParseJson(RunOk({"stats", "--json", "--store", f.journal}).out);
  CHECK(before["journal_dead_lines"] > 0);

  Json compacted =
      ParseJson(RunOk({"compact", "--json", "--store", f.journal}).out);
  CHECK(compacted["backend"] == "jsonl");
  CHECK(compacted["file_bytes_before"] == deleted);
  CHECK(compacted["file_bytes_after"] == fs::file_size(f.journal));
  CHECK(fs::file_size(f.journal) < imported);
  CHECK(compacted["lines_before"] == before["journal_lines"]);
  CHECK(compacted["lines_after"] == before["journal_live_lines"]);
  CHECK(!fs::exists(f.journal + ".compact"));

  CHECK(f.Export(f.journal) == exported);
  Json after = ParseJson(RunOk({"stats", "--json", "--store", f.journal}).out);
  CHECK(after["journal_dead_lines"] == 0);
  CHECK(ParseJson(
            RunOk({"verify", "--json", "--store", f.journal}).out)["sound"] ==
        true);
}

TEST_CASE("a journal open read-write elsewhere: writers refused, reads work") {
  JsonlFixture f;
  f.MakeJournal();
  const std::string journal = ReadFile(f.journal);
  JournalLock lock(f.journal);
  // A second writer gets one clear line and a nonzero exit.
  RunResult writer = RunCli({"delete", "t2", "--yes", "--store", f.journal});
  CheckOneLineError(writer,
                    "journal " + f.journal + " is open read-write elsewhere");
  CHECK(writer.err.find("read commands still work") != std::string::npos);
  RunResult importer =
      RunCli({"import", f.export_file, "--replace", "--store", f.journal});
  CheckOneLineError(importer, "open read-write elsewhere");
  CHECK(ReadFile(f.journal) == journal);  // unchanged, and not removed
  // Reads take no lock.
  CHECK(f.Export(f.journal) == f.exported);
  CHECK(ParseJson(RunOk({"threads", "--json", "--store", f.journal}).out)
            .size() == 4);
  const std::string rocksdb = f.dir.Sub("copy-rocksdb");
  RunOk({"import", f.journal, "--store", rocksdb});
  CHECK(f.Export(rocksdb) == f.exported);
}

TEST_CASE("reads see a torn tail as absent and leave it; a writer cuts it") {
  JsonlFixture f;
  f.MakeJournal();
  // An append of `delete t2` that stopped in its commit line.
  const std::string torn =
      R"({"kind":"delete_thread","thread":"t2","crc":"92307d40"})"
      "\n"
      R"({"kind":"com)";
  WriteFile(f.journal, ReadFile(f.journal) + torn);
  const std::string with_tail = ReadFile(f.journal);
  CHECK(f.Export(f.journal) == f.exported);  // t2 is still there
  Json stats = ParseJson(RunOk({"stats", "--json", "--store", f.journal}).out);
  CHECK(stats["torn_tail_bytes"] == torn.size());
  CHECK(stats["torn_tail_bytes_cut"] == 0);
  CHECK(stats["journal_version"] == 3);
  Json verify =
      ParseJson(RunOk({"verify", "--json", "--store", f.journal}).out);
  CHECK(verify["sound"] == true);
  CHECK(verify["torn_tail_bytes"] == torn.size());
  REQUIRE(verify["problems"].size() == 1);
  CHECK(verify["problems"][0]["check"] == "journal-torn-tail");
  CHECK(ReadFile(f.journal) == with_tail);  // reads write nothing
  const RunResult deleted =
      RunOk({"delete", "t1", "--yes", "--store", f.journal});
  CHECK(deleted.err.find("cut a torn tail of " + std::to_string(torn.size()) +
                         " bytes") != std::string::npos);
  const std::string cut = ReadFile(f.journal);
  CHECK(cut.find(torn) == std::string::npos);
  // Both namespaces of t1 gone; t2 (the torn delete never happened) stays.
  Json threads =
      ParseJson(RunOk({"threads", "--json", "--store", f.journal}).out);
  REQUIRE(threads.size() == 2);
  CHECK(threads[0]["thread"] == "t2");
}

TEST_CASE(
    "an export where a store is expected names the import that fixes it") {
  JsonlFixture f;
  const std::string old_memory_file = f.dir.Sub("old.jsonl");
  WriteFile(old_memory_file, f.exported);
  const std::string advice = "load it into one with `rockpoint import " +
                             old_memory_file + " --store NEW.jsonl`";
  CheckOneLineError(RunCli({"threads", "--store", old_memory_file}), advice);
  CheckOneLineError(
      RunCli({"delete", "t2", "--yes", "--store", old_memory_file}), advice);
  CheckOneLineError(
      RunCli({"import", f.export_file, "--store", old_memory_file}), advice);
  CheckOneLineError(
      RunCli({"threads", "--backend", "jsonl", "--store", f.export_file}),
      "is a rockpoint export, not a store");
  CHECK(ReadFile(old_memory_file) == f.exported);  // untouched
  // The advice works.
  const std::string converted = f.dir.Sub("new.jsonl");
  RunOk({"import", old_memory_file, "--store", converted});
  CHECK(f.Export(converted) == f.exported);
  // --backend memory is gone, and says what replaced it.
  CheckOneLineError(
      RunCli({"threads", "--backend", "memory", "--store", converted}),
      "--backend memory is gone: .jsonl stores are journals now (--backend "
      "jsonl)");
  CheckOneLineError(
      RunCli({"threads", "--backend", "nope", "--store", converted}),
      "--backend must be rocksdb, sqlite, jsonl or postgres");
}

TEST_CASE("files that are not journals are refused and left alone") {
  TempDir dir;
  // No newline: the backend alone would take this for a journal whose
  // creation stopped early and rewrite it.
  const std::string notes = dir.Sub("notes");
  WriteFile(notes, "hello");
  CheckOneLineError(
      RunCli({"import", "-", "--backend", "jsonl", "--store", notes}),
      "not a rockpoint journal");
  CHECK(ReadFile(notes) == "hello");
  const std::string notes_jsonl = dir.Sub("notes.jsonl");
  WriteFile(notes_jsonl, "hello");
  CheckOneLineError(RunCli({"delete", "x", "--yes", "--store", notes_jsonl}),
                    "not a rockpoint journal");
  CHECK(ReadFile(notes_jsonl) == "hello");
  // A .jsonl journal whose creation stopped before its header was whole
  // is an empty store.
  const std::string unfinished = dir.Sub("unfinished.jsonl");
  WriteFile(unfinished, kJournalHeader.substr(0, 10));
  CHECK(ParseJson(RunOk({"threads", "--json", "--store", unfinished}).out)
            .empty());
}

}  // namespace
}  // namespace rockpoint::cli_test
