#include "native/async_calls.h"

#include <Python.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

namespace rockpoint::py {

std::shared_ptr<CompletionQueue> CompletionQueue::Create() {
  int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    PyErr_SetFromErrno(PyExc_OSError);
    throw nb::python_error();
  }
  return std::shared_ptr<CompletionQueue>(new CompletionQueue(fd));
}

CompletionQueue::~CompletionQueue() { close(fd_); }

void CompletionQueue::Finish(uint64_t ticket, Outcome::Convert convert) {
  bool was_empty;
  {
    std::lock_guard lock(mu_);
    was_empty = done_.empty();
    done_.emplace_back(ticket, std::move(convert));
  }
  // The loop drains everything queued after it reads fd, so one wake-up per
  // empty-to-non-empty change is enough. The counter cannot overflow: it
  // grows by one per change and every Drain resets it.
  if (was_empty) {
    uint64_t one = 1;
    while (write(fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
  }
}

nb::list CompletionQueue::Drain() {
  uint64_t count;
  while (read(fd_, &count, sizeof count) < 0 && errno == EINTR) {
  }
  std::vector<std::pair<uint64_t, Outcome::Convert>> done;
  {
    std::lock_guard lock(mu_);
    done.swap(done_);
  }
  nb::list out;
  for (auto& [ticket, convert] : done) {
    out.append(nb::make_tuple(ticket, Outcome(std::move(convert))));
  }
  return out;
}

void WorkerPool::Post(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    if (!stopped_) {
      jobs_.push_back(std::move(job));
      if (idle_ < jobs_.size() && threads_.size() < size_) {
        threads_.emplace_back([this] { Work(); });
      }
      ready_.notify_one();
      return;
    }
  }
  job();
}

void WorkerPool::Stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
    threads.swap(threads_);
  }
  ready_.notify_all();
  for (std::thread& thread : threads) thread.join();
}

void WorkerPool::Work() {
  std::unique_lock lock(mu_);
  while (true) {
    ++idle_;
    ready_.wait(lock, [this] { return stopped_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) return;  // stopped, nothing left
    {
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
    }  // the job's captures go without the lock
    lock.lock();
  }
}

}  // namespace rockpoint::py
