#include "runtime/ordered_writer.h"

#include <boost/asio/post.hpp>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "runtime/async_util.h"

namespace rockpoint::runtime {

std::shared_ptr<OrderedWriter> OrderedWriter::Create(AsyncCheckpointer* storage,
                                                     size_t capacity) {
  return std::shared_ptr<OrderedWriter>(new OrderedWriter(storage, capacity));
}

OrderedWriter::OrderedWriter(AsyncCheckpointer* storage, size_t capacity)
    : storage_(storage),
      capacity_(capacity == 0 ? 1 : capacity),
      strand_(boost::asio::make_strand(storage->executor())) {}

Awaitable<void> OrderedWriter::AcquireSlot() {
  auto park = [this](std::function<void()> resume) {
    std::function<void()> granted;  // resume, when a slot is free now.
    {
      base::MutexLock lock(&mu_);
      if (pending_ < capacity_) {
        ++pending_;
        if (pending_ > max_pending_) max_pending_ = pending_;
        granted = std::move(resume);
      } else {
        slot_waiters_.push_back(std::move(resume));
      }
    }
    if (granted) granted();
  };
  co_await Suspend(std::move(park));
}

void OrderedWriter::Submit(Op op, std::function<void(Status)> done) {
  boost::asio::post(strand_,
                    [self = shared_from_this(), op = std::move(op),
                     done = std::move(done)]() { self->RunOne(op, done); });
}

void OrderedWriter::RunOne(const Op& op,
                           const std::function<void(Status)>& done) {
  Status earlier = first_error();
  Status status;
  if (!earlier.ok()) {
    status = earlier;
  } else {
    try {
      status = op(storage_->base());
    } catch (const std::exception& e) {
      status = Status::IOError(std::string("storage call threw: ") + e.what());
    } catch (...) {
      status = Status::IOError("storage call threw");
    }
  }
  std::vector<std::function<void()>> wake;
  {
    base::MutexLock lock(&mu_);
    if (!status.ok() && error_.ok()) error_ = status;
    if (!slot_waiters_.empty()) {
      // Hand the slot straight to the next waiter.
      wake.push_back(std::move(slot_waiters_.front()));
      slot_waiters_.pop_front();
    } else {
      --pending_;
      if (pending_ == 0) {
        for (auto& waiter : flush_waiters_) wake.push_back(std::move(waiter));
        flush_waiters_.clear();
      }
    }
  }
  if (done) done(status);
  for (auto& resume : wake) resume();
}

Awaitable<Status> OrderedWriter::Enqueue(Op op) {
  co_await AcquireSlot();
  Submit(std::move(op), nullptr);
  co_return first_error();
}

Awaitable<Status> OrderedWriter::Execute(Op op) {
  co_await AcquireSlot();
  // Status is default-constructible, so it can travel as the completion
  // argument directly.
  auto initiation = [this, op = std::move(op)](auto handler) mutable {
    Submit(std::move(op), MakeResumer<Status>(std::move(handler)));
  };
  Status status = co_await boost::asio::async_initiate<
      const boost::asio::use_awaitable_t<Executor>&, void(Status)>(
      std::move(initiation), boost::asio::use_awaitable);
  co_return status;
}

Awaitable<Status> OrderedWriter::Flush() {
  auto park = [this](std::function<void()> resume) {
    std::function<void()> now;  // resume, when nothing is pending.
    {
      base::MutexLock lock(&mu_);
      if (pending_ == 0) {
        now = std::move(resume);
      } else {
        flush_waiters_.push_back(std::move(resume));
      }
    }
    if (now) now();
  };
  co_await Suspend(std::move(park));
  co_return first_error();
}

Status OrderedWriter::first_error() const {
  base::MutexLock lock(&mu_);
  return error_;
}

size_t OrderedWriter::max_pending() const {
  base::MutexLock lock(&mu_);
  return max_pending_;
}

}  // namespace rockpoint::runtime
