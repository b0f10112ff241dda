// Encrypted stores from the command line: keygen, a store created with
// --key-file, reading it with the key from a file or ROCKPOINT_AES_KEY,
// clear errors without it or with a wrong one, verify, and rekey to another
// key and back to plaintext, on RocksDB, SQLite and JSONL stores.
#include "engine/delta_helpers.h"
#include "engine/jsonl/jsonl_checkpointer.h"
#include "engine/sqlite/sqlite_checkpointer.h"
#include "tools/cli_harness.h"

namespace rockpoint::cli_test {
namespace {

std::string StorePath(TempDir& dir, const std::string& backend) {
  return dir.Sub(backend == "rocksdb"  ? "s.rpdb"
                 : backend == "sqlite" ? "s.db"
                                       : "s.jsonl");
}

// A new key, from `rockpoint keygen`, in a file of `dir`.
std::string NewKeyFile(TempDir& dir, const std::string& name) {
  const std::string key = RunOk({"keygen"}).out;
  CHECK(key.size() == 65);  // 64 hex digits and a newline
  const std::string path = dir.Sub(name);
  WriteFile(path, key);
  return path;
}

// Thread "a" with a delta channel, imported through an export into a new
// store created with `key_file`.
void MakeEncryptedStore(TempDir& dir, const std::string& store,
                        const std::string& key_file) {
  const std::string source = dir.Sub("source.rpdb");
  {
    auto plain = testing::Unwrap(RocksDbCheckpointer::Open({.path = source}));
    testing::PutDeltaThread(*plain, "a", "", 6, 3);
  }
  const std::string exported = dir.Sub("export.jsonl");
  RunOk({"export", "--store", source, "--output", exported});
  RunOk({"import", exported, "--store", store, "--key-file", key_file});
}

size_t HistoryLength(const std::vector<std::string>& key_args,
                     const std::string& store, const RunOptions& options = {}) {
  std::vector<std::string> args = {"history", "a", "--json", "--store", store};
  args.insert(args.end(), key_args.begin(), key_args.end());
  return ParseJson(RunOk(args, options).out).size();
}

TEST_CASE("an encrypted store from the CLI: keys, errors, rekey") {
  for (const std::string backend : {"rocksdb", "sqlite", "jsonl"}) {
    CAPTURE(backend);
    TempDir dir;
    const std::string store = StorePath(dir, backend);
    const std::string key_a = NewKeyFile(dir, "a.key");
    const std::string key_b = NewKeyFile(dir, "b.key");
    MakeEncryptedStore(dir, store, key_a);

    CHECK(HistoryLength({"--key-file", key_a}, store) == 6);
    const std::string hex = ReadFile(key_a).substr(0, 64);
    CHECK(HistoryLength({}, store, {.env = {"ROCKPOINT_AES_KEY=" + hex}}) == 6);
    CheckOneLineError(RunCli({"history", "a", "--store", store}), "encrypted");
    CheckOneLineError(
        RunCli({"history", "a", "--store", store, "--key-file", key_b}),
        "wrong encryption key");
    WriteFile(dir.Sub("bad.key"), "not a key");
    CheckOneLineError(RunCli({"history", "a", "--store", store, "--key-file",
                              dir.Sub("bad.key")}),
                      "64 hex digits");
    RunOk({"verify", "--store", store, "--key-file", key_a});

    RunOk({"rekey", "--store", store, "--key-file", key_a, "--new-key-file",
           key_b});
    CHECK(HistoryLength({"--key-file", key_b}, store) == 6);
    CheckOneLineError(
        RunCli({"history", "a", "--store", store, "--key-file", key_a}),
        "wrong encryption key");
    RunOk({"rekey", "--store", store, "--key-file", key_b, "--decrypt"});
    CHECK(HistoryLength({}, store) == 6);
    CheckOneLineError(RunCli({"rekey", "--store", store}), "--new-key-file");
  }
}

}  // namespace
}  // namespace rockpoint::cli_test
