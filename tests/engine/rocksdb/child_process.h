// A child process for tests that run real processes, started with
// posix_spawn, its stdout (and optionally stdin) a pipe read line by line.
//
// Thread-safety: none; each object belongs to the thread that made it.
// Spawn ignores SIGPIPE in this process (so writing to a dead child's stdin
// is an error, not a death) and restores the default in the child.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ;

namespace rockpoint::testing {

// "exited with 3", "killed by signal 9", for messages.
inline std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) {
    return "exited with " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status));
  }
  return "wait status " + std::to_string(status);
}

// A child process with its stdout connected to a pipe. Destroying a running
// child kills it with SIGKILL and reaps it, so a failed test leaves no
// process behind.
class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts `binary` with `args` (argv[1..]); stderr is inherited. With
  // `pipe_stdin` the child's stdin is a pipe written by WriteStdin, else
  // /dev/null. nullopt on failure, with the reason in *error.
  static std::optional<ChildProcess> Spawn(const std::string& binary,
                                           const std::vector<std::string>& args,
                                           bool pipe_stdin,
                                           std::string* error) {
    ::signal(SIGPIPE, SIG_IGN);
    int out[2] = {-1, -1};
    int in[2] = {-1, -1};
    if (::pipe2(out, O_CLOEXEC) != 0 ||
        (pipe_stdin && ::pipe2(in, O_CLOEXEC) != 0)) {
      *error = std::string("pipe2: ") + std::strerror(errno);
      CloseAll({out[0], out[1], in[0], in[1]});
      return std::nullopt;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    if (pipe_stdin) {
      posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    } else {
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                       O_RDONLY, 0);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argv_storage;
    argv_storage.push_back(binary);
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_storage) argv.push_back(arg.data());
    argv.push_back(nullptr);

    pid_t pid = -1;
    int rc = ::posix_spawn(&pid, binary.c_str(), &actions, &attr, argv.data(),
                           environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    CloseAll({out[1], in[0]});
    if (rc != 0) {
      *error = "posix_spawn " + binary + ": " + std::strerror(rc);
      CloseAll({out[0], in[1]});
      return std::nullopt;
    }
    ChildProcess child;
    child.pid_ = pid;
    child.stdout_fd_ = out[0];
    child.stdin_fd_ = in[1];
    return child;
  }

  ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }
  ChildProcess& operator=(ChildProcess&& other) noexcept {
    if (this != &other) {
      Reset();
      pid_ = std::exchange(other.pid_, -1);
      stdout_fd_ = std::exchange(other.stdout_fd_, -1);
      stdin_fd_ = std::exchange(other.stdin_fd_, -1);
      partial_ = std::move(other.partial_);
      lines_ = std::move(other.lines_);
      eof_ = other.eof_;
      wait_status_ = other.wait_status_;
    }
    return *this;
  }
  ~ChildProcess() { Reset(); }

  pid_t pid() const { return pid_; }
  // True once the child's stdout is closed and every line was returned.
  bool at_eof() const { return eof_ && lines_.empty(); }

  // The next stdout line (without '\n'), waiting until `deadline`. nullopt
  // on timeout or at EOF (see at_eof()).
  std::optional<std::string> ReadLineUntil(Clock::time_point deadline) {
    while (lines_.empty() && !eof_) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - Clock::now());
      if (left.count() < 0) return std::nullopt;
      if (!Fill(static_cast<int>(left.count()))) break;
    }
    if (lines_.empty()) return std::nullopt;
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }

  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout) {
    return ReadLineUntil(Clock::now() + timeout);
  }

  // Every remaining complete line until EOF or `timeout`. A trailing partial
  // line (the child died mid-line) is dropped.
  std::vector<std::string> ReadRemainingLines(
      std::chrono::milliseconds timeout) {
    std::vector<std::string> out;
    auto deadline = Clock::now() + timeout;
    while (auto line = ReadLineUntil(deadline)) out.push_back(*line);
    return out;
  }

  // Writes all of `data` to the child's stdin. False if it is gone.
  bool WriteStdin(std::string_view data) {
    while (!data.empty() && stdin_fd_ >= 0) {
      ssize_t n = ::write(stdin_fd_, data.data(), data.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return data.empty();
  }

  void CloseStdin() { CloseFd(&stdin_fd_); }

  void Kill(int signal) {
    if (pid_ > 0 && !wait_status_) ::kill(pid_, signal);
  }

  // Reaps the child (blocking) and returns its wait status.
  int Wait() {
    if (!wait_status_ && pid_ > 0) {
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      wait_status_ = status;
    }
    return wait_status_.value_or(-1);
  }

 private:
  ChildProcess() = default;

  static void CloseAll(std::initializer_list<int> fds) {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  static void CloseFd(int* fd) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }

  // Waits up to `timeout_ms` for stdout data and splits it into lines.
  // False on timeout.
  bool Fill(int timeout_ms) {
    pollfd pfd{stdout_fd_, POLLIN, 0};
    int ready = ::poll(&pfd, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) return true;
    if (ready <= 0) return false;
    char buffer[4096];
    ssize_t n = ::read(stdout_fd_, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) {
      eof_ = true;
      return true;
    }
    partial_.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = partial_.find('\n', start)) != std::string::npos;
         start = nl + 1) {
      lines_.push_back(partial_.substr(start, nl - start));
    }
    partial_.erase(0, start);
    return true;
  }

  void Reset() {
    if (pid_ > 0 && !wait_status_) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
    CloseFd(&stdout_fd_);
    CloseFd(&stdin_fd_);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int stdin_fd_ = -1;
  std::string partial_;
  std::deque<std::string> lines_;
  bool eof_ = false;
  std::optional<int> wait_status_;
};

}  // namespace rockpoint::testing
