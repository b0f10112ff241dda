// ItemStore: the JS object wrapping one rockpoint item Store
// (rockpoint/store.h), LangGraph's long-term memory. src/store/ is its
// only user; it does the argument checks with the messages a user sees
// (except the engine's own, such as the HNSW range, which reach the user
// as the engine's) and computes the embeddings, so what arrives here is
// already vectors.
//
//   const native = new ItemStore();
//   native.openMemory(options)            the in-memory store, now
//   await native.open("rocksdb:PATH", options)
//   await native.batch(ops)  -> results   (native/item_convert.h: shapes)
//   await native.sweep()     -> count     (items removed)
//   await native.indexStats() -> {vectors, approximateReady} | null
//   await native.close()
//
// open, batch, sweep and close run the engine call on the libuv pool
// (PromiseWorker), so the event loop never waits on disk; argument
// conversion is synchronous, so a bad argument throws a TypeError before
// anything is queued. Workers hold the Store through a shared_ptr; close()
// drops this object's reference and calls Store::Close on the pool, which
// stops the store's sweeper thread and waits for the calls in flight (a
// call queued after it is refused, "Aborted: store is closed"), so the
// RocksDB lock is released when the promise resolves. The sweeper
// (options.ttl.sweepIntervalMinutes) is the engine's own thread and touches
// no JS value.
//
// Thread-safety: JS thread only; the Store itself is thread-safe, so calls
// queued concurrently run concurrently (src/store/order.js orders them).
#pragma once

#include <napi.h>

#include <memory>

#include "rockpoint/store.h"

namespace rockpoint::node {

class ItemStore final : public Napi::ObjectWrap<ItemStore> {
 public:
  static Napi::Function Init(Napi::Env env);

  explicit ItemStore(const Napi::CallbackInfo& info);

 private:
  // openMemory(options): opens "memory:" now (no disk); throws on error.
  Napi::Value OpenMemory(const Napi::CallbackInfo& info);
  // open(url, options) -> Promise<undefined>: OpenStore on the pool.
  Napi::Value Open(const Napi::CallbackInfo& info);
  Napi::Value Batch(const Napi::CallbackInfo& info);
  // The same on the JS thread, returning the results (throwing the
  // engine's error): for batches of gets, namespace listings and puts that
  // do not wait for the disk, which touch a few keys (a refresh on read is
  // written without waiting for the disk either), so a hop to the pool
  // would cost more than the call.
  Napi::Value BatchNow(const Napi::CallbackInfo& info);
  Napi::Value Sweep(const Napi::CallbackInfo& info);
  Napi::Value IndexStats(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  // dims: the index's vector length, or null without an index.
  Napi::Value Dims(const Napi::CallbackInfo& info);

  // The store, or throws "Aborted: store is closed" (or "... not open").
  std::shared_ptr<Store> Get(Napi::Env env) const;
  // Throws unless neither open nor opening nor closed.
  void CheckUnopened(Napi::Env env) const;

  std::shared_ptr<Store> store_;
  bool opening_ = false;
  bool closed_ = false;
};

}  // namespace rockpoint::node
