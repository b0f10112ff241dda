// WriterPool: the threads that run engine writes which fsync, settling JS
// promises on the JS thread of the environment that queued them.
//
// Why not the libuv pool: it has 4 threads by default, shared with fs, dns
// and zlib, so at most 4 writes could wait on the WAL at once. RocksDB
// groups the fsyncs of the writers that wait together (group commit), so
// synced write throughput grows with the writes in flight; this pool lets
// up to kWriterThreads of them wait at once, and never blocks the event
// loop. Threads start on first use and live until the process exits
// (detached; idle ones wait on a condition variable).
//
// Completion goes through one thread-safe function per environment,
// referenced while that environment has jobs in flight (the process stays
// alive until they settle) and unreferenced otherwise.
//
// Thread-safety: Submit on a JS thread; Run on a pool thread; Complete on
// the submitting environment's JS thread.
#pragma once

#include <napi.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "native/worker.h"

namespace rockpoint::node {

inline constexpr size_t kWriterThreads = 16;

class WriterJob {
 public:
  virtual ~WriterJob() = default;
  // The blocking work. Must touch no JS value.
  virtual void Run() = 0;
  // Settles the job's promise. `env` is null when the environment is being
  // torn down (then nothing may be settled).
  virtual void Complete(Napi::Env env) = 0;
};

// Queues `job` (ownership passes to the pool; it is deleted after Complete).
void SubmitWrite(Napi::Env env, std::unique_ptr<WriterJob> job);

// PromiseWorker's contract (worker.h) on the writer pool: `work` runs on a
// pool thread, `to_js` on the JS thread; a non-ok Status rejects with the
// Error of StatusToError, an exception with an Error "rockpoint native
// error: ...".
template <typename T>
class PoolPromise final : public WriterJob {
 public:
  using Work = std::function<Result<T>()>;
  using ToJs = std::function<Napi::Value(Napi::Env, T&)>;

  static Napi::Promise Start(Napi::Env env, Work work, ToJs to_js) {
    std::unique_ptr<PoolPromise> job(
        new PoolPromise(env, std::move(work), std::move(to_js)));
    Napi::Promise promise = job->deferred_.Promise();
    SubmitWrite(env, std::move(job));
    return promise;
  }

  void Run() override {
    try {
      result_.emplace(work_());
    } catch (const std::exception& e) {
      error_ = std::string("rockpoint native error: ") + e.what();
    } catch (...) {
      error_ = "rockpoint native error: unknown exception";
    }
  }

  void Complete(Napi::Env env) override {
    if (env == nullptr) return;
    if (!result_) {
      deferred_.Reject(Napi::Error::New(env, error_).Value());
    } else if (!result_->ok()) {
      deferred_.Reject(StatusToError(env, result_->status()).Value());
    } else {
      try {
        deferred_.Resolve(to_js_(env, result_->value()));
      } catch (const Napi::Error& e) {
        deferred_.Reject(e.Value());
      } catch (const std::exception& e) {
        deferred_.Reject(Napi::Error::New(env, e.what()).Value());
      }
    }
  }

 private:
  PoolPromise(Napi::Env env, Work work, ToJs to_js)
      : deferred_(Napi::Promise::Deferred::New(env)),
        work_(std::move(work)),
        to_js_(std::move(to_js)) {}

  Napi::Promise::Deferred deferred_;
  Work work_;
  ToJs to_js_;
  std::optional<Result<T>> result_;
  std::string error_;
};

}  // namespace rockpoint::node
