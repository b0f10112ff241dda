// Small coroutine primitives on the runtime's one executor type (Executor,
// engine/async_checkpointer.h): parking a coroutine until another thread
// wakes it, and waiting for a group of tasks.
//
// Boost 1.74 has no asio channels or parallel groups, so these are built on
// async_initiate: the suspended coroutine's completion handler is stored and
// later posted back to its own executor (with outstanding work tracked, so
// an io_context that drives the coroutine keeps running meanwhile).
//
// Thread-safety: WaitGroup may be used from any thread.
#pragma once

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <functional>
#include <memory>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "rockpoint/runtime/async_checkpointer.h"

namespace rockpoint::runtime {

// Wraps a completion handler (signature void(Args...)) as a copyable
// std::function that posts the handler to its associated executor. Call it
// exactly once.
template <typename... Args, typename Handler>
std::function<void(Args...)> MakeResumer(Handler handler) {
  auto work =
      boost::asio::prefer(boost::asio::get_associated_executor(handler),
                          boost::asio::execution::outstanding_work.tracked);
  auto shared = std::make_shared<Handler>(std::move(handler));
  return [shared, work](Args... args) {
    boost::asio::post(work, [shared, args...]() mutable {
      std::move (*shared)(std::move(args)...);
    });
  };
}

// Suspends the calling coroutine; `park` receives a std::function that
// resumes it (call it once, from any thread).
//
// Note for coroutine code in this project: g++ 12 destroys lambda and
// aggregate temporaries of a co_await full-expression twice, so arguments
// of an awaited call are always named objects (or std::move of one).
template <typename Park>
Awaitable<void> Suspend(Park park) {
  auto initiation = [park = std::move(park)](auto handler) mutable {
    park(MakeResumer<>(std::move(handler)));
  };
  co_await boost::asio::async_initiate<
      const boost::asio::use_awaitable_t<Executor>&, void()>(
      std::move(initiation), boost::asio::use_awaitable);
}

// Waits until Done() has been called as often as Add() counted.
class WaitGroup {
 public:
  void Add(size_t n) {
    base::MutexLock lock(&mu_);
    count_ += n;
  }
  void Done() {
    std::function<void()> wake;
    {
      base::MutexLock lock(&mu_);
      if (--count_ == 0) wake = std::move(waiter_);
    }
    if (wake) wake();
  }
  // Completes once the count is zero. REQUIRES: one waiter at a time.
  Awaitable<void> Wait() {
    auto park = [this](std::function<void()> resume) {
      std::function<void()> now;  // resume, when it runs at once.
      {
        base::MutexLock lock(&mu_);
        if (count_ == 0) {
          now = std::move(resume);
        } else {
          waiter_ = std::move(resume);
        }
      }
      if (now) now();
    };
    co_await Suspend(std::move(park));
  }

 private:
  base::Mutex mu_;
  size_t count_ GUARDED_BY(mu_) = 0;
  std::function<void()> waiter_ GUARDED_BY(mu_);
};

}  // namespace rockpoint::runtime

// Coroutine forms of RP_RETURN_IF_ERROR / RP_ASSIGN_OR_RETURN.
#define RP_CO_RETURN_IF_ERROR(expr)             \
  do {                                          \
    ::rockpoint::Status rp_status_ = (expr);    \
    if (!rp_status_.ok()) co_return rp_status_; \
  } while (0)

#define RP_CO_ASSIGN_OR_RETURN(lhs, expr) \
  RP_CO_ASSIGN_OR_RETURN_IMPL_(RP_CONCAT_(rp_co_result_, __LINE__), lhs, expr)
#define RP_CO_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                                 \
  if (!result.ok()) co_return result.status();          \
  lhs = std::move(result).value()
