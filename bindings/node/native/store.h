// NativeStore: the JS object wrapping one rockpoint Checkpointer (a RocksDB
// store or an in-memory one). src/native.js is its only user.
//
// Calls come in two forms. The promise form (put, getTuple, ...) runs the
// engine call off the JS thread: put and putWrites on the writer pool
// (writer_pool.h), where concurrent fsyncs are grouped, everything else on
// the libuv pool (PromiseWorker). The *Sync form (putSync, putWritesSync,
// getTupleSync, listSync, getDeltaChannelHistorySync) runs it on the JS
// thread and returns its value (or throws): for reads, and for writes when
// `writesSync` is true (the memory store, or RocksDB without syncWrites),
// where no call waits on an fsync and the hop to a thread and back would
// cost more than the call. Argument conversion is always synchronous, so a
// bad argument throws a TypeError before anything is queued.
// Workers hold the Checkpointer through a shared_ptr: close() drops this
// object's reference, and the store is destroyed (the RocksDB lock released)
// when the last in-flight call or open cursor lets go of it.
// Retention: opened with a `retention` policy, the engine is wrapped in a
// RetentionCheckpointer whose sweeper thread sweeps every sweepIntervalMs;
// the sweeper touches no JS value. Destroying the store stops the sweeper
// first (waiting for a sweep in progress), so no sweep outlives the store.
//
// Thread-safety: JS thread only; the engine itself is thread-safe, so calls
// queued concurrently run concurrently.
#pragma once

#include <napi.h>

#include <memory>

#include "rockpoint/checkpointer.h"
#include "rockpoint/open.h"
#include "rockpoint/retention_checkpointer.h"

namespace rockpoint::node {

class NativeStore final : public Napi::ObjectWrap<NativeStore> {
 public:
  static Napi::Function Init(Napi::Env env);
  // The engine a NativeStore calls: `store` (from rockpoint::Open), its
  // backend, and the store seen as a RetentionCheckpointer (null without a
  // retention policy). Both pointers share one owner.
  struct Engine {
    std::shared_ptr<Checkpointer> store;
    BackendKind backend = BackendKind::kMemory;
    std::shared_ptr<RetentionCheckpointer> retention;
  };

  // A new JS NativeStore owning `engine`.
  // `writes_sync`: whether writes need no fsync (see writesSync).
  static Napi::Object Wrap(Napi::Env env, Engine engine, bool writes_sync);

  explicit NativeStore(const Napi::CallbackInfo& info);

 private:
  static Napi::Value OpenRocksDb(const Napi::CallbackInfo& info);
  static Napi::Value OpenMemory(const Napi::CallbackInfo& info);

  Napi::Value Kind(const Napi::CallbackInfo& info);
  Napi::Value WritesSync(const Napi::CallbackInfo& info);
  template <bool kSync>
  Napi::Value Put(const Napi::CallbackInfo& info);
  template <bool kSync>
  Napi::Value PutWrites(const Napi::CallbackInfo& info);
  template <bool kSync>
  Napi::Value GetTuple(const Napi::CallbackInfo& info);
  template <bool kSync>
  Napi::Value List(const Napi::CallbackInfo& info);
  // ping() / pingSync(): no engine call; measures the hop (bench only).
  template <bool kSync>
  Napi::Value Ping(const Napi::CallbackInfo& info);
  Napi::Value DeleteThread(const Napi::CallbackInfo& info);
  Napi::Value DeleteForRuns(const Napi::CallbackInfo& info);
  Napi::Value CopyThread(const Napi::CallbackInfo& info);
  Napi::Value Prune(const Napi::CallbackInfo& info);
  Napi::Value Sweep(const Napi::CallbackInfo& info);
  Napi::Value SweeperStats(const Napi::CallbackInfo& info);
  template <bool kSync>
  Napi::Value GetDeltaChannelHistory(const Napi::CallbackInfo& info);
  Napi::Value ListThreads(const Napi::CallbackInfo& info);
  Napi::Value Compact(const Napi::CallbackInfo& info);
  Napi::Value Stats(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);

  // The store, or throws "Aborted: store is closed".
  std::shared_ptr<Checkpointer> Store(Napi::Env env) const;
  // The store, or throws InvalidArgument unless it is a RocksDB store.
  std::shared_ptr<Checkpointer> Rocks(Napi::Env env) const;

  std::shared_ptr<Checkpointer> store_;
  BackendKind backend_ = BackendKind::kMemory;
  // null without a retention policy.
  std::shared_ptr<RetentionCheckpointer> retention_;
  bool writes_sync_ = true;
};

}  // namespace rockpoint::node
