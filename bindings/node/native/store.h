// NativeStore: the JS object wrapping one rockpoint Checkpointer (a RocksDB
// store or an in-memory one). src/native.js is its only user.
//
// Every engine call runs on the libuv thread pool (PromiseWorker) and
// returns a promise; argument conversion happens synchronously on the JS
// thread, so a bad argument throws a TypeError before anything is queued.
// Workers hold the Checkpointer through a shared_ptr: close() drops this
// object's reference, and the store is destroyed (the RocksDB lock released)
// when the last in-flight call or open cursor lets go of it.
//
// Thread-safety: JS thread only; the engine itself is thread-safe, so calls
// queued concurrently run concurrently.
#pragma once

#include <napi.h>

#include <memory>

#include "rockpoint/checkpointer.h"
#include "rockpoint/rocksdb_checkpointer.h"

namespace rockpoint::node {

class NativeStore final : public Napi::ObjectWrap<NativeStore> {
 public:
  static Napi::Function Init(Napi::Env env);
  // A new JS NativeStore owning `store` (`rocks` is the same object when it
  // is a RocksDB store, else null).
  static Napi::Object Wrap(Napi::Env env, std::shared_ptr<Checkpointer> store,
                           std::shared_ptr<RocksDbCheckpointer> rocks);

  explicit NativeStore(const Napi::CallbackInfo& info);

 private:
  static Napi::Value OpenRocksDb(const Napi::CallbackInfo& info);
  static Napi::Value OpenMemory(const Napi::CallbackInfo& info);

  Napi::Value Kind(const Napi::CallbackInfo& info);
  Napi::Value Put(const Napi::CallbackInfo& info);
  Napi::Value PutWrites(const Napi::CallbackInfo& info);
  Napi::Value GetTuple(const Napi::CallbackInfo& info);
  Napi::Value List(const Napi::CallbackInfo& info);
  Napi::Value DeleteThread(const Napi::CallbackInfo& info);
  Napi::Value DeleteForRuns(const Napi::CallbackInfo& info);
  Napi::Value CopyThread(const Napi::CallbackInfo& info);
  Napi::Value Prune(const Napi::CallbackInfo& info);
  Napi::Value GetDeltaChannelHistory(const Napi::CallbackInfo& info);
  Napi::Value ListThreads(const Napi::CallbackInfo& info);
  Napi::Value Compact(const Napi::CallbackInfo& info);
  Napi::Value Stats(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);

  // The store, or throws "Aborted: store is closed".
  std::shared_ptr<Checkpointer> Store(Napi::Env env) const;
  std::shared_ptr<RocksDbCheckpointer> Rocks(Napi::Env env) const;

  std::shared_ptr<Checkpointer> store_;
  std::shared_ptr<RocksDbCheckpointer> rocks_;  // null for a memory store.
};

}  // namespace rockpoint::node
