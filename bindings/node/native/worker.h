// PromiseWorker: runs one blocking engine call on the libuv thread pool and
// settles a JS promise with its result, so the event loop never waits on
// disk.
//
// The work function runs on a pool thread and must touch no JS value; it
// owns (by capture) everything it reads, typically a shared_ptr to the
// Checkpointer, so the store outlives the call. The converter runs on the JS
// thread after the work finishes. A non-ok Status rejects the promise with an
// Error whose `code` is the status code name ("InvalidArgument", ...).
//
// Thread-safety: Start must be called on the JS thread.
#pragma once

#include <napi.h>

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "rockpoint/status.h"

namespace rockpoint::node {

// A JS Error for a non-ok Status: message "<Code>: <message>", property
// `code` = the code name.
inline Napi::Error StatusToError(Napi::Env env, const Status& status) {
  Napi::Error error = Napi::Error::New(env, status.ToString());
  error.Set("code", Napi::String::New(env, Status::CodeName(status.code())));
  return error;
}

// Throws the JS Error for `status` when it is not ok.
inline void ThrowIfError(Napi::Env env, const Status& status) {
  if (!status.ok()) throw StatusToError(env, status);
}

template <typename T>
class PromiseWorker final : public Napi::AsyncWorker {
 public:
  using Work = std::function<Result<T>()>;
  using ToJs = std::function<Napi::Value(Napi::Env, T&)>;

  // Queues `work` and returns the promise it settles.
  static Napi::Promise Start(Napi::Env env, Work work, ToJs to_js) {
    auto* worker = new PromiseWorker(env, std::move(work), std::move(to_js));
    Napi::Promise promise = worker->deferred_.Promise();
    worker->Queue();  // the worker deletes itself when done.
    return promise;
  }

 protected:
  void Execute() override {
    try {
      result_.emplace(work_());
    } catch (const std::exception& e) {
      SetError(std::string("rockpoint native error: ") + e.what());
    } catch (...) {
      SetError("rockpoint native error: unknown exception");
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (!result_->ok()) {
      deferred_.Reject(StatusToError(env, result_->status()).Value());
      return;
    }
    try {
      deferred_.Resolve(to_js_(env, result_->value()));
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    } catch (const std::exception& e) {
      deferred_.Reject(Napi::Error::New(env, e.what()).Value());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  PromiseWorker(Napi::Env env, Work work, ToJs to_js)
      : Napi::AsyncWorker(env, "rockpoint"),
        deferred_(Napi::Promise::Deferred::New(env)),
        work_(std::move(work)),
        to_js_(std::move(to_js)) {}

  Napi::Promise::Deferred deferred_;
  Work work_;
  ToJs to_js_;
  std::optional<Result<T>> result_;
};

// Runs `work` now, on the JS thread, and returns `to_js` of its value; a
// non-ok Status throws the Error of StatusToError. For calls that cannot
// wait on disk for long (reads, writes without fsync, the memory store),
// where the hop to a pool thread and back costs more than the call.
template <typename T, typename Work, typename ToJs>
Napi::Value RunNow(Napi::Env env, Work&& work, ToJs&& to_js) {
  Result<T> result = work();
  ThrowIfError(env, result.status());
  return to_js(env, result.value());
}

// The value type of a worker whose work returns only a Status.
struct Done {};

// Adapts a Status-returning call to PromiseWorker<Done>.
template <typename F>
std::function<Result<Done>()> StatusWork(F f) {
  return [f = std::move(f)]() mutable -> Result<Done> {
    Status status = f();
    if (!status.ok()) return status;
    return Done{};
  };
}

}  // namespace rockpoint::node
