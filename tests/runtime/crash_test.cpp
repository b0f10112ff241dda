// Crash test: a child process (crash_run_main) runs a sync-durability graph
// on a RocksDB store and is SIGKILLed mid-run, twice; a new process resumes
// the thread. The final state, and the number of checkpoints, equal those of
// an uninterrupted run, and the stored history is one unbroken chain.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/crash_graph.h"
#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

constexpr int64_t kRounds = 24;

// A started child whose stdout goes to `out_path`. Killed and reaped on
// destruction if still running.
class WriterChild {
 public:
  WriterChild(const std::vector<std::string>& args,
              const std::string& out_path) {
    std::vector<char*> argv;
    std::vector<std::string> copy = args;
    for (std::string& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) ::dup2(fd, STDOUT_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~WriterChild() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
  }
  void Kill() { ::kill(pid_, SIGKILL); }
  // The wait status.
  int Wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }

 private:
  pid_t pid_ = -1;
};

int64_t ReadProgress(const std::string& path) {
  std::ifstream in(path);
  int64_t round = 0;
  in >> round;
  return round;
}

// Waits (bounded, as a hang guard only) until the child reports `round`.
void AwaitRound(const std::string& path, int64_t round) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (ReadProgress(path) < round) {
    if (std::chrono::steady_clock::now() > deadline) {
      FAIL("child made no progress to round " << round);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

TEST_CASE("a SIGKILLed sync run resumes to the uninterrupted result") {
  std::string pattern = "/tmp/rockpoint-crash-XXXXXX";
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  std::string dir = pattern;
  std::string store_dir = dir + "/store";
  std::string progress = dir + "/progress";
  std::string out = dir + "/out";
  std::string binary =
      std::string(ROCKPOINT_TEST_BINARY_DIR) + "/crash_run_main";
  std::vector<std::string> args{binary, store_dir, "crash",
                                std::to_string(kRounds), progress};

  // The reference: the same graph, uninterrupted, in memory.
  MemoryCheckpointer reference_store;
  auto reference = Must(CrashGraph(kRounds, {}, std::chrono::microseconds(0))
                            .Compile({.checkpointer = &reference_store,
                                      .durability = Durability::kSync}));
  RunConfig config = Thread("crash");
  config.recursion_limit = 10000;
  RunOutcome expected = Must(reference->Invoke(State{}, config));
  size_t expected_checkpoints = History(reference_store, "crash").size();

  for (int64_t kill_at : {4, 13}) {
    CAPTURE(kill_at);
    WriterChild child(args, out);
    AwaitRound(progress, kill_at);
    child.Kill();
    int status = child.Wait();
    // The kill landed mid-run, not after a clean exit.
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
  }
  {
    WriterChild child(args, out);
    int status = child.Wait();
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
  }
  std::ifstream printed(out);
  std::string line;
  std::getline(printed, line);
  CHECK(line == "DONE " + Value(expected.values).DebugString());

  // Read the store back in this process.
  {
    RocksDbOptions options;
    options.path = store_dir;
    auto store = Must(RocksDbCheckpointer::Open(options));
    auto graph = Must(CrashGraph(kRounds, {}, std::chrono::microseconds(0))
                          .Compile({.checkpointer = store.get()}));
    StateSnapshot state = Must(graph->GetState(Thread("crash")));
    CHECK(state.values == expected.values);
    CHECK(state.next.empty());
    std::vector<CheckpointTuple> history = History(*store, "crash");
    CHECK(history.size() == expected_checkpoints);
    // One chain, newest first, step by step down to the input checkpoint.
    for (size_t i = 0; i + 1 < history.size(); ++i) {
      REQUIRE(history[i].parent_config.has_value());
      CHECK(history[i].parent_config->checkpoint_id ==
            history[i + 1].config.checkpoint_id);
      CHECK(MetaStep(history[i]) == MetaStep(history[i + 1]) + 1);
    }
    CHECK(MetaStep(history.back()) == -1);
    // Every historical checkpoint reads back (delta history intact).
    for (const CheckpointTuple& tuple : history) {
      RunConfig at = Thread("crash");
      at.checkpoint_id = tuple.config.checkpoint_id;
      CHECK(graph->GetState(at).ok());
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}
