#include "native/item_store.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "native/item_convert.h"
#include "native/worker.h"

namespace rockpoint::node {
namespace {

Napi::Value Arg(const Napi::CallbackInfo& info, size_t index) {
  return info.Length() > index ? info[index] : info.Env().Undefined();
}

Napi::Value Undefined(Napi::Env env, Done&) { return env.Undefined(); }

}  // namespace

Napi::Function ItemStore::Init(Napi::Env env) {
  return DefineClass(env, "ItemStore",
                     {InstanceMethod<&ItemStore::OpenMemory>("openMemory"),
                      InstanceMethod<&ItemStore::Open>("open"),
                      InstanceMethod<&ItemStore::Batch>("batch"),
                      InstanceMethod<&ItemStore::BatchNow>("batchNow"),
                      InstanceMethod<&ItemStore::Sweep>("sweep"),
                      InstanceMethod<&ItemStore::IndexStats>("indexStats"),
                      InstanceMethod<&ItemStore::Close>("close"),
                      InstanceAccessor<&ItemStore::Dims>("dims")});
}

ItemStore::ItemStore(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<ItemStore>(info) {}

std::shared_ptr<Store> ItemStore::Get(Napi::Env env) const {
  if (!store_) {
    ThrowIfError(env, Status::Aborted(closed_ ? "store is closed"
                                              : "store is not open"));
  }
  return store_;
}

void ItemStore::CheckUnopened(Napi::Env env) const {
  if (store_ || opening_ || closed_) {
    throw Napi::Error::New(env, "ItemStore: open may be called once");
  }
}

Napi::Value ItemStore::OpenMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CheckUnopened(env);
  StoreOpenOptions options = StoreOptionsFromJs(Arg(info, 0));
  auto opened = OpenStore("memory:", options);
  ThrowIfError(env, opened.status());
  store_ = std::shared_ptr<Store>(std::move(opened).value());
  return env.Undefined();
}

// open(url, options): the store is set when the promise resolves. The
// completion runs on the JS thread and holds a reference to this object, so
// the object outlives the open; a close() made while it was in flight (not
// src/store/store.js's way, which waits for the open) closes the new store.
Napi::Value ItemStore::Open(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CheckUnopened(env);
  if (!Arg(info, 0).IsString()) {
    throw Napi::TypeError::New(env, "url must be a string");
  }
  std::string url = Arg(info, 0).As<Napi::String>().Utf8Value();
  auto options =
      std::make_shared<StoreOpenOptions>(StoreOptionsFromJs(Arg(info, 1)));
  opening_ = true;
  auto self = std::make_shared<Napi::ObjectReference>(
      Napi::Persistent(info.This().As<Napi::Object>()));
  // Always "ok", so the completion runs (and clears opening_) either way.
  struct Opened {
    Status status;
    std::shared_ptr<Store> store;
  };
  return PromiseWorker<Opened>::Start(
      env,
      [url = std::move(url), options]() -> Result<Opened> {
        auto opened = OpenStore(url, *options);
        if (!opened.ok()) return Opened{opened.status(), nullptr};
        return Opened{Status::OK(), std::move(opened).value()};
      },
      [this, self](Napi::Env env, Opened& opened) -> Napi::Value {
        opening_ = false;
        ThrowIfError(env, opened.status);
        std::shared_ptr<Store> store = std::move(opened.store);
        if (closed_) {
          // Closed while opening: close it off the JS thread.
          PromiseWorker<Done>::Start(
              env, StatusWork([store]() { return store->Close(); }), Undefined);
          ThrowIfError(env, Status::Aborted("store is closed"));
        }
        store_ = std::move(store);
        return env.Undefined();
      });
}

// batch(ops) -> results (native/item_convert.h).
Napi::Value ItemStore::Batch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Store> store = Get(env);
  auto ops = std::make_shared<const std::vector<StoreOp>>(
      StoreOpsFromJs(Arg(info, 0)));
  using Results = std::vector<StoreOpResult>;
  return PromiseWorker<Results>::Start(
      env, [store, ops]() { return store->Batch(*ops); },
      [](Napi::Env env, Results& results) -> Napi::Value {
        return StoreResultsToJs(env, results);
      });
}

// batchNow(ops) -> results, on the JS thread (item_store.h).
Napi::Value ItemStore::BatchNow(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Store> store = Get(env);
  const std::vector<StoreOp> ops = StoreOpsFromJs(Arg(info, 0));
  Result<std::vector<StoreOpResult>> results = store->Batch(ops);
  ThrowIfError(env, results.status());
  return StoreResultsToJs(env, *results);
}

// sweep() -> the number of expired items deleted.
Napi::Value ItemStore::Sweep(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Store> store = Get(env);
  return PromiseWorker<uint64_t>::Start(
      env, [store]() { return store->SweepExpired(); },
      [](Napi::Env env, uint64_t& count) -> Napi::Value {
        return Napi::Number::New(env, static_cast<double>(count));
      });
}

// indexStats() -> {vectors, approximateReady}, or null without an index.
Napi::Value ItemStore::IndexStats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Store> store = Get(env);
  using Stats = std::optional<StoreIndexStats>;
  return PromiseWorker<Stats>::Start(
      env, [store]() { return store->IndexStats(); },
      [](Napi::Env env, Stats& stats) -> Napi::Value {
        return IndexStatsToJs(env, stats);
      });
}

// close() -> resolves once Store::Close returned on the pool (the sweeper
// stopped, calls in flight done, the backend closed). Idempotent.
Napi::Value ItemStore::Close(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  closed_ = true;
  std::shared_ptr<Store> store = std::move(store_);
  store_.reset();
  return PromiseWorker<Done>::Start(
      env,
      [store]() mutable -> Result<Done> {
        Status status = store ? store->Close() : Status::OK();
        store.reset();
        if (!status.ok()) return status;
        return Done{};
      },
      Undefined);
}

Napi::Value ItemStore::Dims(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!store_ || !store_->dims()) return env.Null();
  return Napi::Number::New(env, static_cast<double>(*store_->dims()));
}

}  // namespace rockpoint::node
