// CompiledGraph::Impl: the pools and run bookkeeping behind a compiled
// graph, shared by compiled_graph.cpp (runs) and inspection.cpp. Internal.
#pragma once

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <exception>
#include <future>
#include <memory>
#include <optional>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "rockpoint/runtime/compiled_graph.h"
#include "runtime/graph_spec.h"

namespace rockpoint::runtime {

struct CompiledGraph::Impl {
  Impl(const CompileOptions& options);

  CompileOptions options;
  boost::asio::thread_pool tasks;
  std::unique_ptr<AsyncCheckpointer> storage;  // null without checkpointer.
  std::atomic<bool> stopping{false};

  base::Mutex mu;
  base::CondVar idle;  // waits on `mu`; signalled when `active` drops to 0.
  size_t active GUARDED_BY(mu) = 0;  // runs and calls in progress.

  // Counts one call in progress for Shutdown; refuses when stopping.
  class Activity {
   public:
    explicit Activity(Impl* impl);
    ~Activity();
    bool admitted() const { return admitted_; }

   private:
    Impl* impl_;
    bool admitted_;
  };

  // Runs `work` on the task pool and blocks until it completes.
  template <typename T>
  Result<T> Block(Awaitable<Result<T>> work) {
    std::promise<std::optional<Result<T>>> promise;
    auto future = promise.get_future();
    boost::asio::co_spawn(
        tasks.get_executor(), Boxed(std::move(work)),
        [&promise](const std::exception_ptr& error,
                   std::optional<Result<T>> result) {
          if (error || !result) {
            promise.set_value(Result<T>(Status::Aborted("run threw")));
          } else {
            promise.set_value(std::move(result));
          }
        });
    return std::move(*future.get());
  }

 private:
  // co_spawn needs a default-constructible result type.
  template <typename T>
  static Awaitable<std::optional<Result<T>>> Boxed(Awaitable<Result<T>> work) {
    co_return co_await std::move(work);
  }
};

// The spec of the graph that owns namespace `ns` ("" is the root; each
// "node:task_id" segment, joined by '|', descends into a subgraph node).
Result<const GraphSpec*> ResolveSpec(const GraphSpec& root,
                                     std::string_view ns);

}  // namespace rockpoint::runtime
