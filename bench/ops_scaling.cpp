// postgres put throughput against the number of writer processes
// (RunScalingSection), and the writer process itself (RunScalingWriter).
//
// A round for N processes: the bench re-executes itself N times
// (posix_spawn of /proc/self/exe with kScalingWriterFlag), each child on
// its own thread id of one shared database; every child opens its store,
// warms up and reports "ready" on its stdout pipe; when all are ready the
// bench closes the write end of the pipe that is every child's stdin, which
// releases them at once. The wall time runs from that release to the last
// child's exit; the round's figure is N x puts per process over it. Rounds
// are interleaved across process counts (round r of every N before round
// r + 1 of any), as the other sections interleave subjects.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench/operations.h"
#include "bench/workload.h"

extern char** environ;

namespace rockpoint::bench {
namespace {

// Untimed puts of each writer before it reports ready: its connection is
// open and its statements prepared when the timed puts start.
constexpr size_t kWarmupPuts = 5;

// The put workload of a writer: 1 KB state in 1 channel.
const StateShape kScalingShape{1024, 1};

Status ErrnoError(const std::string& what) {
  return Status::IOError(what + ": " + std::strerror(errno));
}

// Steps [first, first + count) of `thread`, one put each.
Status PutSteps(Checkpointer& store, const std::string& thread, size_t first,
                size_t count) {
  const auto values = MakeChannelValues(kScalingShape, 9);
  for (size_t step = first; step < first + count; ++step) {
    const PutArgs args = MakeStep(thread, step, values);
    RP_RETURN_IF_ERROR(
        store
            .Put(args.config, args.checkpoint, args.metadata, args.new_versions)
            .status());
  }
  return Status::OK();
}

// One spawned writer: its pid and the read end of its stdout.
struct Writer {
  pid_t pid = -1;
  int ready_fd = -1;
};

// Spawns `rockpoint-bench --scaling-writer url thread count` with `release`
// as its stdin and a fresh pipe as its stdout (stderr inherited).
Result<Writer> SpawnWriter(const std::string& url, const std::string& thread,
                           size_t count, int release) {
  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) return ErrnoError("pipe2");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the child's copies only.
  posix_spawn_file_actions_adddup2(&actions, release, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, ready[1], STDOUT_FILENO);
  const std::string puts = std::to_string(count);
  std::string name = "rockpoint-bench";
  std::string flag = kScalingWriterFlag;
  std::string url_arg = url, thread_arg = thread, puts_arg = puts;
  char* argv[] = {name.data(),       flag.data(),     url_arg.data(),
                  thread_arg.data(), puts_arg.data(), nullptr};
  Writer writer;
  const int spawned = ::posix_spawn(&writer.pid, "/proc/self/exe", &actions,
                                    nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ready[1]);
  if (spawned != 0) {
    ::close(ready[0]);
    errno = spawned;
    return ErrnoError("posix_spawn /proc/self/exe");
  }
  writer.ready_fd = ready[0];
  return writer;
}

// Waits for `pid` to exit; IOError unless it exited 0.
Status Reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return ErrnoError("waitpid");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::OK();
  return Status::IOError(
      "scaling writer " + std::to_string(pid) +
      (WIFEXITED(status)
           ? " exited " + std::to_string(WEXITSTATUS(status))
           : " killed by signal " + std::to_string(WTERMSIG(status))));
}

// Reads the writer's "ready" line; IOError when it exits first.
Status AwaitReady(const Writer& writer) {
  std::string line;
  char c = 0;
  while (line != "ready\n") {
    const ssize_t n = ::read(writer.ready_fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::IOError("scaling writer " + std::to_string(writer.pid) +
                             " ended before it was ready");
    }
    line += c;
    if (line.size() > 6) return Status::IOError("scaling writer: bad output");
  }
  return Status::OK();
}

// Ends and reaps writers after a failure (they have not been released, or
// one of them failed); returns `error`.
Status Abandon(std::vector<Writer>& writers, Status error) {
  for (Writer& writer : writers) {
    ::kill(writer.pid, SIGKILL);
    (void)Reap(writer.pid);
    ::close(writer.ready_fd);
  }
  writers.clear();
  return error;
}

// One round of `processes` writers of `puts` timed puts each; returns the
// wall seconds from the release to the last exit.
Result<double> RunRound(const std::string& url, int processes, size_t puts,
                        int round) {
  int release[2];
  if (::pipe2(release, O_CLOEXEC) != 0) return ErrnoError("pipe2");
  std::vector<Writer> writers;
  Status started = Status::OK();
  for (int p = 0; p < processes && started.ok(); ++p) {
    const std::string thread = "n" + std::to_string(processes) + "-r" +
                               std::to_string(round) + "-p" + std::to_string(p);
    Result<Writer> writer = SpawnWriter(url, thread, puts, release[0]);
    if (writer.ok()) {
      writers.push_back(*writer);
    } else {
      started = writer.status();
    }
  }
  ::close(release[0]);
  for (const Writer& writer : writers) {
    if (!started.ok()) break;
    started = AwaitReady(writer);
  }
  if (!started.ok()) {
    ::close(release[1]);
    return Abandon(writers, started);
  }
  Stopwatch wall;
  ::close(release[1]);  // EOF on every writer's stdin: go.
  Status reaped = Status::OK();
  for (const Writer& writer : writers) {
    Status status = Reap(writer.pid);
    if (reaped.ok()) reaped = std::move(status);
    ::close(writer.ready_fd);
  }
  const double seconds = wall.ElapsedMicros() / 1e6;
  RP_RETURN_IF_ERROR(reaped);
  return seconds;
}

// Runs the rounds on the database `url` (schema created).
Status MeasureScaling(BenchContext& ctx, const std::string& url) {
  const BenchOptions& options = ctx.options;
  std::vector<ScalingRow> rows;
  for (const int processes : options.writers) {
    rows.push_back(ScalingRow{processes, options.scaling_puts, {}, {}});
  }
  for (int round = 0; round < options.repetitions; ++round) {
    for (ScalingRow& row : rows) {
      RP_ASSIGN_OR_RETURN(
          double seconds,
          RunRound(url, row.processes, options.scaling_puts, round));
      row.wall_seconds.push_back(seconds);
      row.puts_per_sec.push_back(
          row.processes * static_cast<double>(options.scaling_puts) / seconds);
    }
  }
  for (ScalingRow& row : rows) {
    std::fprintf(stderr, "  %-26s %-34s %-12s %10.0f puts/s\n",
                 "put, processes",
                 (std::to_string(row.processes) + " processes").c_str(),
                 kPostgres, row.median_puts_per_sec());
    ctx.scaling.push_back(std::move(row));
  }
  return Status::OK();
}

}  // namespace

Status RunScalingSection(BenchContext& ctx) {
  PostgresServer* server = ctx.scratch.postgres();
  if (server == nullptr) return Status::OK();  // the header says so.
  RP_ASSIGN_OR_RETURN(std::string url, server->CreateDatabase("scaling"));
  // Creates the schema once, before any writer opens it.
  Status status = OpenPostgres(url, 1).status();
  if (status.ok()) status = MeasureScaling(ctx, url);
  Status dropped = server->DropDatabase(url);
  RP_RETURN_IF_ERROR(status);
  return dropped;
}

int RunScalingWriter(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: rockpoint-bench %s URL THREAD COUNT\n",
                 kScalingWriterFlag);
    return 2;
  }
  const std::string url = argv[2], thread = argv[3];
  char* end = nullptr;
  const unsigned long long count = std::strtoull(argv[4], &end, 10);
  if (end == argv[4] || *end != '\0') {
    std::fprintf(stderr, "rockpoint-bench %s: bad COUNT %s\n",
                 kScalingWriterFlag, argv[4]);
    return 2;
  }
  auto fail = [](const Status& status) {
    std::fprintf(stderr, "rockpoint-bench %s: %s\n", kScalingWriterFlag,
                 status.ToString().c_str());
    return 1;
  };
  auto store = OpenPostgres(url, 1);
  if (!store.ok()) return fail(store.status());
  if (Status warm = PutSteps(**store, thread, 0, kWarmupPuts); !warm.ok()) {
    return fail(warm);
  }
  if (::write(STDOUT_FILENO, "ready\n", 6) != 6) {
    return fail(ErrnoError("write ready"));
  }
  // The release is EOF on stdin (the bench never writes to it).
  for (char byte = 0;;) {
    const ssize_t n = ::read(STDIN_FILENO, &byte, 1);
    if (n == 0) break;
    if (n < 0 && errno != EINTR) return fail(ErrnoError("read stdin"));
  }
  if (Status puts = PutSteps(**store, thread, kWarmupPuts, count); !puts.ok()) {
    return fail(puts);
  }
  return 0;
}

}  // namespace rockpoint::bench
