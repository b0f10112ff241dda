#include "native/cursor.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "native/addon.h"
#include "native/convert.h"
#include "native/worker.h"

namespace rockpoint::node {

Result<std::vector<CheckpointTuple>> ReadBatch(CursorState& state,
                                               uint32_t max) {
  std::vector<CheckpointTuple> batch;
  std::lock_guard<std::mutex> lock(state.mu);
  while (state.cursor && batch.size() < max) {
    Result<std::optional<CheckpointTuple>> next = state.cursor->Next();
    if (!next.ok()) {
      state.cursor.reset();
      return next.status();
    }
    if (!next->has_value()) {
      state.cursor.reset();  // at the end: release it now.
      break;
    }
    batch.push_back(std::move(**next));
  }
  return batch;
}

Napi::Array BatchToJs(Napi::Env env,
                      const std::vector<CheckpointTuple>& batch) {
  Napi::Array out = Napi::Array::New(env, batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    out.Set(static_cast<uint32_t>(i), TupleToJs(env, batch[i]));
  }
  return out;
}

Napi::Function NativeCursor::Init(Napi::Env env) {
  return DefineClass(env, "NativeCursor",
                     {InstanceMethod<&NativeCursor::Next<false>>("next"),
                      InstanceMethod<&NativeCursor::Next<true>>("nextSync"),
                      InstanceMethod<&NativeCursor::Close>("close")});
}

Napi::Object NativeCursor::Wrap(Napi::Env env,
                                std::shared_ptr<CursorState> state) {
  Napi::Object object = GetAddonData(env).cursor_constructor.New({});
  NativeCursor::Unwrap(object)->state_ = std::move(state);
  return object;
}

NativeCursor::NativeCursor(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<NativeCursor>(info) {}

template <bool kSync>
Napi::Value NativeCursor::Next(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t max = 64;
  if (info.Length() > 0 && info[0].IsNumber()) {
    max = std::max<uint32_t>(1, info[0].As<Napi::Number>().Uint32Value());
  }
  std::shared_ptr<CursorState> state = state_;
  using Batch = std::vector<CheckpointTuple>;
  auto work = [state, max]() -> Result<Batch> {
    if (!state) return Batch();
    return ReadBatch(*state, max);
  };
  auto to_js = [](Napi::Env env, Batch& batch) -> Napi::Value {
    return BatchToJs(env, batch);
  };
  if constexpr (kSync) {
    return RunNow<Batch>(env, work, to_js);
  } else {
    return PromiseWorker<Batch>::Start(env, work, to_js);
  }
}

Napi::Value NativeCursor::Close(const Napi::CallbackInfo& info) {
  if (state_) {
    // A next() in flight holds the mutex; its own reference keeps the state
    // alive, and it sees the cursor gone on its next step.
    std::unique_lock<std::mutex> lock(state_->mu, std::try_to_lock);
    if (lock.owns_lock()) state_->cursor.reset();
    state_.reset();
  }
  return info.Env().Undefined();
}

}  // namespace rockpoint::node
