// NativeCursor: the JS object over an engine TupleCursor, returned by
// NativeStore.list(). next(n) resolves with up to n raw tuples, fewer only
// at the end (then [] forever); nextSync(n) returns them, read on the JS
// thread; close() releases the cursor at once.
//
// The cursor state holds a shared_ptr to its Checkpointer and is destroyed
// before it (member order), as TupleCursor requires. Concurrent next() calls
// are serialized by a mutex.
//
// Thread-safety: JS thread only; next() work runs on the thread pool.
#pragma once

#include <napi.h>

#include <memory>
#include <mutex>
#include <vector>

#include "rockpoint/checkpointer.h"

namespace rockpoint::node {

struct CursorState {
  std::shared_ptr<Checkpointer> store;  // destroyed after `cursor`.
  std::mutex mu;
  std::unique_ptr<TupleCursor> cursor;  // guarded by mu; null when closed.
};

// Reads up to `max` tuples from `state` (fewer only at the end, where the
// engine cursor is released at once). Runs on a pool thread.
Result<std::vector<CheckpointTuple>> ReadBatch(CursorState& state,
                                               uint32_t max);

// The JS array of raw tuples of `batch` (see convert.h).
Napi::Array BatchToJs(Napi::Env env, const std::vector<CheckpointTuple>& batch);

class NativeCursor final : public Napi::ObjectWrap<NativeCursor> {
 public:
  static Napi::Function Init(Napi::Env env);
  static Napi::Object Wrap(Napi::Env env, std::shared_ptr<CursorState> state);

  explicit NativeCursor(const Napi::CallbackInfo& info);

 private:
  template <bool kSync>
  Napi::Value Next(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);

  std::shared_ptr<CursorState> state_;
};

}  // namespace rockpoint::node
