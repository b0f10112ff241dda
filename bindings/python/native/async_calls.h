// Engine calls for asyncio that never take the GIL off the event loop's
// thread.
//
// An async call converts its arguments on the loop's thread (which holds the
// GIL), runs the engine call on a WorkerPool thread (which never touches
// Python), and hands the result to the loop through Completions: a queue
// and an eventfd that the loop watches with add_reader. The loop drains the
// queue and converts each result to Python on its own thread. So a write
// that waits for its fsync holds no Python thread and no GIL, and many such
// writes wait at once (RocksDB's group commit shares one fsync among them).
#pragma once

#include <nanobind/nanobind.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace rockpoint::py {

namespace nb = nanobind;

// What one async call produced, converted to Python only when the loop asks.
class Outcome {
 public:
  // Called with the GIL: returns the call's Python result or raises its
  // error. Must hold no Python object (it is built without the GIL).
  using Convert = std::function<nb::object(nb::handle serde)>;

  explicit Outcome(Convert convert) : convert_(std::move(convert)) {}
  nb::object Result(nb::handle serde) const { return convert_(serde); }

 private:
  Convert convert_;
};

// The finished calls of one event loop, shared by the loop's Completions and
// the jobs in flight. Pure C++ (no Python reference), so a worker may drop
// the last reference without the GIL. Finish may be called from any thread
// without the GIL; Drain belongs to the loop's thread.
class CompletionQueue {
 public:
  // OSError when the process has no eventfd left.
  static std::shared_ptr<CompletionQueue> Create();
  ~CompletionQueue();
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;

  // Readable while finished calls wait to be drained.
  int fd() const { return fd_; }
  // Queues the outcome of `ticket` and wakes the loop.
  void Finish(uint64_t ticket, Outcome::Convert convert);
  // [(ticket, Outcome)], oldest first; resets fd's readiness.
  nb::list Drain();

 private:
  explicit CompletionQueue(int fd) : fd_(fd) {}

  const int fd_;
  std::mutex mu_;
  std::vector<std::pair<uint64_t, Outcome::Convert>> done_;  // GUARDED_BY(mu_)
};

// The Python object of one loop's CompletionQueue (_shared.LoopCalls).
class Completions {
 public:
  Completions() : queue_(CompletionQueue::Create()) {}
  int fd() const { return queue_->fd(); }
  nb::list Drain() { return queue_->Drain(); }
  const std::shared_ptr<CompletionQueue>& queue() const { return queue_; }

 private:
  std::shared_ptr<CompletionQueue> queue_;
};

// A fixed set of threads that run jobs in the order posted. Jobs must not
// touch Python. Threads start on the first Post.
class WorkerPool {
 public:
  explicit WorkerPool(size_t threads) : size_(threads) {}
  ~WorkerPool() { Stop(); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs `job` on a worker; after Stop, on the calling thread.
  void Post(std::function<void()> job);
  // Runs the jobs already posted, then joins the threads. Idempotent. Jobs
  // never take the GIL, so a caller that holds it cannot deadlock here, but
  // it stalls Python while they wait for the disk; Store::Close releases the
  // GIL first (~Store, when a store is dropped unclosed, cannot).
  void Stop();

 private:
  void Work();

  const size_t size_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;  // GUARDED_BY(mu_)
  std::vector<std::thread> threads_;        // GUARDED_BY(mu_)
  size_t idle_ = 0;       // GUARDED_BY(mu_); threads waiting for a job
  bool stopped_ = false;  // GUARDED_BY(mu_)
};

}  // namespace rockpoint::py
