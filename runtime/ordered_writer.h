// OrderedWriter: the storage side of one run. Every put and put_writes of
// the run (its subgraphs included) goes through one writer, which runs them
// one at a time, in submission order, on a strand of the storage pool: so a
// thread's writes and checkpoints reach storage in order in every durability
// mode.
//
// Backpressure: at most `capacity` operations may be pending (queued or
// running); a submitter waits for a free slot, so a run that produces
// checkpoints faster than storage takes them keeps flat memory.
//
// Failure: the first failing operation's Status is kept; every later
// operation is skipped (nothing is written after a failure, so what storage
// holds is always a prefix of what the run produced) and reports it.
//
// Thread-safety: all methods may be called from any thread. The writer must
// stay alive until Flush() has completed; hold it in a shared_ptr.
#pragma once

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "rockpoint/runtime/async_checkpointer.h"

namespace rockpoint::runtime {

class OrderedWriter : public std::enable_shared_from_this<OrderedWriter> {
 public:
  using Op = std::function<Status(Checkpointer&)>;

  // REQUIRES: storage outlives the writer; capacity >= 1.
  static std::shared_ptr<OrderedWriter> Create(AsyncCheckpointer* storage,
                                               size_t capacity);

  // Queues `op` behind every earlier one and completes once it is queued
  // (waiting for a slot if `capacity` are pending). Returns the first error
  // seen so far (OK if none).
  Awaitable<Status> Enqueue(Op op);
  // Queues `op` and completes when it has run; returns its Status (or the
  // earlier failure that made it skip).
  Awaitable<Status> Execute(Op op);
  // Completes when every queued operation has run; returns the first error.
  Awaitable<Status> Flush();

  Status first_error() const EXCLUDES(mu_);
  // The most operations ever pending at once (<= capacity).
  size_t max_pending() const;

 private:
  OrderedWriter(AsyncCheckpointer* storage, size_t capacity);

  // Completes once a slot is reserved for the caller.
  Awaitable<void> AcquireSlot();
  // Posts `op` to the strand; `done` (may be empty) gets its Status.
  void Submit(Op op, std::function<void(Status)> done);
  // On the strand: runs one op and releases its slot.
  void RunOne(const Op& op, const std::function<void(Status)>& done);

  AsyncCheckpointer* const storage_;
  const size_t capacity_;
  boost::asio::strand<boost::asio::thread_pool::executor_type> strand_;

  mutable base::Mutex mu_;
  size_t pending_ GUARDED_BY(mu_) = 0;  // slots reserved or running.
  size_t max_pending_ GUARDED_BY(mu_) = 0;
  Status error_ GUARDED_BY(mu_);
  std::deque<std::function<void()>> slot_waiters_ GUARDED_BY(mu_);
  std::deque<std::function<void()>> flush_waiters_ GUARDED_BY(mu_);
};

}  // namespace rockpoint::runtime
