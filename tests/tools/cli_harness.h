// End-to-end harness for the `rockpoint` binary: a temporary directory, a
// runner that starts the built binary with posix_spawn (stdin from a file,
// stdout and stderr captured through files, so no pipe can deadlock) and
// returns its exit status and output, and a fixture store with every shape
// the tool must render (namespaces, int and string versions, non-UTF-8 ids,
// msgpack, json and opaque payloads, special and regular writes with an
// index gap, a delta-style channel with empty versions).
//
// Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/contract_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/msgpack_codec.h"

extern char** environ;

// RunOptions is meant to be built with designated initializers that name
// only what a test cares about.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace rockpoint::cli_test {

using Json = nlohmann::ordered_json;

// ROCKPOINT_TEST_BINARY_DIR is the build dir of tests/; the tool is built
// in the build dir of tools/.
inline const char* kBinary = ROCKPOINT_TEST_BINARY_DIR "/../tools/rockpoint";
inline const char* kDemoBinary =
    ROCKPOINT_TEST_BINARY_DIR "/../tools/rockpoint-demo";

using ::rockpoint::testing::TempDir;

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void WriteFile(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

// A pseudo-terminal: its slave side (path()) serves as a child's stdin, so
// that the child sees a terminal; `typed` is the input already typed.
class Terminal {
 public:
  explicit Terminal(std::string_view typed) {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(master_ >= 0);
    REQUIRE(::grantpt(master_) == 0);
    REQUIRE(::unlockpt(master_) == 0);
    path_ = ::ptsname(master_);
    REQUIRE(::write(master_, typed.data(), typed.size()) ==
            static_cast<ssize_t>(typed.size()));
  }
  ~Terminal() { ::close(master_); }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;
  const std::string& path() const { return path_; }
  // What the programs wrote to the terminal so far (does not block).
  std::string Output() {
    const int flags = ::fcntl(master_, F_GETFL);
    ::fcntl(master_, F_SETFL, flags | O_NONBLOCK);
    std::string output;
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(master_, buffer, sizeof(buffer))) > 0) {
      output.append(buffer, static_cast<size_t>(n));
    }
    return output;
  }

 private:
  int master_ = -1;
  std::string path_;
};

struct RunResult {
  int status = -1;  // exit status; 128 + signal if killed.
  std::string out;
  std::string err;
};

struct RunOptions {
  std::string stdin_path = "/dev/null";
  // Empty: captured into RunResult::err.
  std::string stderr_path;
  // Extra NAME=VALUE entries; ROCKPOINT_STORE is never inherited.
  std::vector<std::string> env;
  // Working directory of the child; empty: this process's.
  std::string cwd;
  // The program to run; empty: the rockpoint binary.
  std::string binary;
};

// Runs the binary with `args`; REQUIREs that it could be started.
inline RunResult RunCli(const std::vector<std::string>& args,
                        const RunOptions& options = {}) {
  TempDir io;
  const std::string out_path = io.Sub("stdout");
  const std::string err_path = io.Sub("stderr");
  const std::string binary = options.binary.empty() ? kBinary : options.binary;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!options.cwd.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());
  }
  posix_spawn_file_actions_addopen(&actions, 0, options.stdin_path.c_str(),
                                   O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (options.stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, options.stderr_path.c_str(),
                                     O_WRONLY, 0);
  }
  std::vector<std::string> argv_storage{binary};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_storage;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::string_view(*entry).starts_with("ROCKPOINT_STORE=")) continue;
    env_storage.emplace_back(*entry);
  }
  env_storage.insert(env_storage.end(), options.env.begin(), options.env.end());
  std::vector<char*> envp;
  for (std::string& entry : env_storage) envp.push_back(entry.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, binary.c_str(), &actions, nullptr,
                                  argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE_MESSAGE(spawned == 0, "cannot start ", binary);
  int wait_status = 0;
  REQUIRE(waitpid(pid, &wait_status, 0) == pid);
  RunResult result;
  result.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status)
                                         : 128 + WTERMSIG(wait_status);
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  return result;
}

// Runs and REQUIREs exit status 0, showing stderr otherwise.
inline RunResult RunOk(const std::vector<std::string>& args,
                       const RunOptions& options = {}) {
  RunResult result = RunCli(args, options);
  INFO("stderr: ", result.err);
  REQUIRE(result.status == 0);
  return result;
}

// One error line on stderr, nothing on stdout, exit status 1.
inline void CheckOneLineError(const RunResult& result,
                              std::string_view needle) {
  INFO("stdout: ", result.out, "\nstderr: ", result.err);
  CHECK(result.status == 1);
  CHECK(result.out.empty());
  CHECK(result.err.starts_with("rockpoint: error: "));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK(result.err.find(needle) != std::string::npos);
}

inline Json ParseJson(const std::string& text) {
  Json json = Json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(!json.is_discarded(), "not JSON: ", text);
  return json;
}

inline std::vector<Json> ParseJsonLines(const std::string& text) {
  std::vector<Json> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(ParseJson(line));
  return lines;
}

inline TypedValue Msgpack(const serde::Value& value) {
  return {std::string(serde::kMsgpackType), serde::EncodeMsgpack(value)};
}

// Fixture threads.
inline const std::string kOddThread = std::string(
    "\xff"
    "odd\0id",
    7);
inline const std::string kOddChannel = std::string("\xff\0ch", 4);

// Fills `store` with the fixture (see the file comment):
//   "t1" ns "":          cp-01 .. cp-05 (runs run-a, run-b), writes on
//                        cp-03 and cp-05 (__error__ at -1, a regular write
//                        at idx 1, task-2 at 0 and 1)
//   "t1" ns "child:t":   cp-02a, cp-03a
//   "t2":                t2-1 .. t2-3, string versions, json/opaque payloads,
//                        metadata with bytes, doubles, "$" keys, invalid UTF-8
//   kOddThread ns "\x01": odd-1 with a non-UTF-8 channel
void FillFixture(Checkpointer& store);

// Opens a RocksDB store at `path` (created), fills it, closes it.
void MakeFixtureStore(const std::string& path);

}  // namespace rockpoint::cli_test
