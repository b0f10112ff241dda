// AsyncCheckpointer: the asynchronous form of a Checkpointer, for coroutines.
//
// Every Checkpointer call may block (RocksDB fsyncs, SQLite locks), so each
// call here is run on a dedicated asio::thread_pool owned by this object and
// its result is delivered back to the awaiting coroutine's own executor. The
// coroutine's executor never blocks on storage.
//
// Thread-safety: safe to use from many coroutines and threads at once (the
// wrapped Checkpointer is). Calls issued concurrently may run concurrently on
// the pool (threads > 1); callers that need an order (the runtime's writer)
// await each call before issuing the next.
//
// REQUIRES: the wrapped Checkpointer outlives this object. Arguments passed
// by reference must stay alive until the returned awaitable completes, which
// holds when it is awaited in the same full-expression:
//   auto tuple = co_await store.GetTuple(config);
// Destroying an AsyncCheckpointer waits for the calls already submitted.
#pragma once

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rockpoint/checkpointer.h"

namespace rockpoint::runtime {

class AsyncCheckpointer {
 public:
  // Runs `base`'s calls on a pool of `threads` threads (at least 1).
  explicit AsyncCheckpointer(Checkpointer* base, size_t threads = 1)
      : base_(base), pool_(threads == 0 ? 1 : threads) {}
  AsyncCheckpointer(const AsyncCheckpointer&) = delete;
  AsyncCheckpointer& operator=(const AsyncCheckpointer&) = delete;
  // Waits for every submitted call to finish.
  ~AsyncCheckpointer() { pool_.join(); }

  Checkpointer& base() const { return *base_; }
  // The storage pool's executor: code posted here may block.
  boost::asio::thread_pool::executor_type executor() {
    return pool_.get_executor();
  }

  // Runs `fn(base())` on the storage pool and returns its result (a Status
  // or a Result<T>). An exception thrown by `fn` becomes an IOError.
  template <typename Fn>
  Awaitable<std::invoke_result_t<Fn&, Checkpointer&>> Run(Fn fn) {
    using R = std::invoke_result_t<Fn&, Checkpointer&>;
    // g++ 12 mishandles lambda and aggregate temporaries inside a co_await
    // expression (double destruction), so the initiation is a named object.
    auto initiation = [this, fn = std::move(fn)](auto handler) mutable {
      // Keeps the awaiting executor alive (e.g. io_context::run) while
      // the call runs elsewhere.
      auto work =
          boost::asio::prefer(boost::asio::get_associated_executor(handler),
                              boost::asio::execution::outstanding_work.tracked);
      boost::asio::post(pool_, [this, fn = std::move(fn),
                                handler = std::move(handler),
                                work = std::move(work)]() mutable {
        std::optional<R> out;
        try {
          out.emplace(fn(*base_));
        } catch (const std::exception& e) {
          out.emplace(
              Status::IOError(std::string("storage call threw: ") + e.what()));
        } catch (...) {
          out.emplace(Status::IOError("storage call threw"));
        }
        boost::asio::post(work, [handler = std::move(handler),
                                 out = std::move(out)]() mutable {
          std::move(handler)(std::move(out));
        });
      });
    };
    // Result<T> has no default constructor; the completion carries it in an
    // optional, which is always engaged.
    std::optional<R> result = co_await boost::asio::async_initiate<
        const boost::asio::use_awaitable_t<Executor>&, void(std::optional<R>)>(
        std::move(initiation), boost::asio::use_awaitable);
    co_return std::move(*result);
  }

  Awaitable<Result<CheckpointConfig>> Put(const CheckpointConfig& config,
                                          const Checkpoint& checkpoint,
                                          const Metadata& metadata,
                                          const ChannelVersions& new_versions) {
    return Run([&](Checkpointer& cp) {
      return cp.Put(config, checkpoint, metadata, new_versions);
    });
  }

  Awaitable<Status> PutWrites(const CheckpointConfig& config,
                              const std::vector<ChannelWrite>& writes,
                              std::string_view task_id,
                              std::string_view task_path = "") {
    return Run([&config, &writes, task_id, task_path](Checkpointer& cp) {
      return cp.PutWrites(config, writes, task_id, task_path);
    });
  }

  Awaitable<Result<std::optional<CheckpointTuple>>> GetTuple(
      const CheckpointConfig& config) {
    return Run([&](Checkpointer& cp) { return cp.GetTuple(config); });
  }

  // List materialized (a cursor would pin the storage thread between steps).
  Awaitable<Result<std::vector<CheckpointTuple>>> ListAll(
      const ListOptions& options) {
    return Run([&](Checkpointer& cp) { return cp.ListAll(options); });
  }

  Awaitable<Status> DeleteThread(std::string_view thread_id) {
    return Run(
        [thread_id](Checkpointer& cp) { return cp.DeleteThread(thread_id); });
  }

  Awaitable<Status> DeleteForRuns(const std::vector<std::string>& run_ids) {
    return Run([&](Checkpointer& cp) { return cp.DeleteForRuns(run_ids); });
  }

  Awaitable<Status> CopyThread(std::string_view source,
                               std::string_view target) {
    return Run([source, target](Checkpointer& cp) {
      return cp.CopyThread(source, target);
    });
  }

  Awaitable<Status> HideCheckpoint(const CheckpointConfig& config) {
    return Run([&](Checkpointer& cp) { return cp.HideCheckpoint(config); });
  }

  Awaitable<Status> Prune(const std::vector<std::string>& thread_ids,
                          PruneStrategy strategy, size_t keep_last = 1) {
    return Run([&thread_ids, strategy, keep_last](Checkpointer& cp) {
      return cp.Prune(thread_ids, strategy, keep_last);
    });
  }

  Awaitable<Result<DeltaHistory>> GetDeltaChannelHistory(
      const CheckpointConfig& config,
      const std::vector<std::string>& channels) {
    return Run([&](Checkpointer& cp) {
      return cp.GetDeltaChannelHistory(config, channels);
    });
  }

  Awaitable<Result<ThreadPage>> ListThreads(const ListThreadsOptions& options) {
    return Run([&](Checkpointer& cp) { return cp.ListThreads(options); });
  }

 private:
  Checkpointer* const base_;
  boost::asio::thread_pool pool_;
};

}  // namespace rockpoint::runtime
