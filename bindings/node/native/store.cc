#include "native/store.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "native/addon.h"
#include "native/convert.h"
#include "native/cursor.h"
#include "native/worker.h"
#include "native/writer_pool.h"
#include "rockpoint/encryption.h"
#include "rockpoint/maintenance.h"

namespace rockpoint::node {
namespace {

// Reads an optional boolean option; `fallback` when absent.
bool BoolOption(const Napi::Object& options, const char* key, bool fallback) {
  Napi::Value value = options.Get(key);
  if (value.IsUndefined() || value.IsNull()) return fallback;
  if (!value.IsBoolean()) {
    throw Napi::TypeError::New(
        options.Env(), std::string("options.") + key + " must be a boolean");
  }
  return value.As<Napi::Boolean>().Value();
}

// Reads an optional non-negative integer option; `fallback` when absent.
uint64_t SizeOption(const Napi::Object& options, const char* key,
                    uint64_t fallback) {
  Napi::Value value = options.Get(key);
  if (value.IsUndefined() || value.IsNull()) return fallback;
  if (!value.IsNumber() || value.As<Napi::Number>().DoubleValue() < 0) {
    throw Napi::TypeError::New(options.Env(), std::string("options.") + key +
                                                  " must be a number >= 0");
  }
  return static_cast<uint64_t>(value.As<Napi::Number>().DoubleValue());
}

CheckpointerLimits LimitsOption(const Napi::Object& options) {
  CheckpointerLimits limits;
  limits.max_value_bytes =
      SizeOption(options, "maxValueBytes", limits.max_value_bytes);
  limits.max_id_bytes = SizeOption(options, "maxIdBytes", limits.max_id_bytes);
  return limits;
}

// StoreOptions whose encryption key is wiped (WipeSecret) as soon as the
// open is done with it, and at the latest when this is destroyed: an open
// that never runs (a later option throws) leaves no copy behind either.
struct KeyedOptions {
  std::string url;
  StoreOptions options;

  KeyedOptions() = default;
  KeyedOptions(const KeyedOptions&) = delete;
  KeyedOptions& operator=(const KeyedOptions&) = delete;
  ~KeyedOptions() { WipeKey(); }

  void WipeKey() {
    if (options.encryption) WipeSecret(options.encryption->key);
  }
};

// options.encryptionKey: absent (undefined / null) for a plaintext store,
// else the AES-256 key of an encrypted one: a Uint8Array (a Buffer) of 32
// bytes, or a string of 64 hex digits (surrounding whitespace ignored).
// Throws a TypeError for another type and a RangeError for a wrong length
// or a character that is not a hex digit; no message repeats the key.
// src/saver.js checks the same first, so these throws are a last guard.
std::optional<EncryptionOptions> EncryptionOption(const Napi::Object& options) {
  Napi::Env env = options.Env();
  Napi::Value value = options.Get("encryptionKey");
  if (value.IsUndefined() || value.IsNull()) return std::nullopt;
  EncryptionOptions encryption;
  if (value.IsTypedArray() &&
      value.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    auto bytes = value.As<Napi::Uint8Array>();
    if (bytes.ByteLength() != kEncryptionKeyBytes) {
      throw Napi::RangeError::New(
          env, "options.encryptionKey must be 32 bytes, got " +
                   std::to_string(bytes.ByteLength()));
    }
    encryption.key.assign(reinterpret_cast<const char*>(bytes.Data()),
                          bytes.ByteLength());
    return encryption;
  }
  if (value.IsString()) {
    std::string text = value.As<Napi::String>().Utf8Value();
    auto key = ParseEncryptionKey(text);
    WipeSecret(text);
    if (!key.ok()) {
      throw Napi::RangeError::New(
          env, "options.encryptionKey: " + key.status().message());
    }
    encryption.key = std::move(key).value();
    return encryption;
  }
  throw Napi::TypeError::New(
      env,
      "options.encryptionKey must be a Buffer or Uint8Array of 32 bytes or a "
      "string of 64 hex digits");
}

Napi::Object OptionsArg(const Napi::CallbackInfo& info, size_t index) {
  if (info.Length() <= index || info[index].IsUndefined() ||
      info[index].IsNull()) {
    return Napi::Object::New(info.Env());
  }
  if (!info[index].IsObject()) {
    throw Napi::TypeError::New(info.Env(), "options must be an object");
  }
  return info[index].As<Napi::Object>();
}

Napi::Value Arg(const Napi::CallbackInfo& info, size_t index) {
  return info.Length() > index ? info[index] : info.Env().Undefined();
}

Napi::Value Undefined(Napi::Env env, Done&) { return env.Undefined(); }

// The engine of a NativeStore over `store`, whose backend is `backend`:
// Open wrapped it in a RetentionCheckpointer when it had a retention
// policy. The views share the owner, so whichever reference goes last
// destroys the wrapper (stopping the sweeper) and then the store under it.
NativeStore::Engine EngineOf(std::unique_ptr<Checkpointer> store,
                             BackendKind backend) {
  NativeStore::Engine engine;
  engine.store = std::move(store);
  engine.backend = backend;
  auto* retention = dynamic_cast<RetentionCheckpointer*>(engine.store.get());
  if (retention != nullptr) {
    engine.retention =
        std::shared_ptr<RetentionCheckpointer>(engine.store, retention);
  }
  return engine;
}

// The options' retention policy as Open's RetentionOptions (the sweeper
// started on the system clock).
std::optional<RetentionOptions> RetentionOf(
    const std::optional<RetentionPolicy>& policy) {
  if (!policy) return std::nullopt;
  RetentionOptions options;
  options.policy = *policy;
  return options;
}

// Runs a read now (kSync) or on the libuv pool.
template <bool kSync, typename T, typename Work, typename ToJs>
Napi::Value Read(Napi::Env env, Work work, ToJs to_js) {
  if constexpr (kSync) {
    return RunNow<T>(env, work, to_js);
  } else {
    return PromiseWorker<T>::Start(env, std::move(work), std::move(to_js));
  }
}

// Runs a put / putWrites now (kSync) or on the writer pool.
template <bool kSync, typename T, typename Work, typename ToJs>
Napi::Value Write(Napi::Env env, Work work, ToJs to_js) {
  if constexpr (kSync) {
    return RunNow<T>(env, work, to_js);
  } else {
    return PoolPromise<T>::Start(env, std::move(work), std::move(to_js));
  }
}

}  // namespace

Napi::Function NativeStore::Init(Napi::Env env) {
  return DefineClass(
      env, "NativeStore",
      {StaticMethod<&NativeStore::OpenRocksDb>("openRocksDb"),
       StaticMethod<&NativeStore::OpenMemory>("openMemory"),
       InstanceAccessor<&NativeStore::Kind>("kind"),
       InstanceAccessor<&NativeStore::WritesSync>("writesSync"),
       InstanceMethod<&NativeStore::Put<false>>("put"),
       InstanceMethod<&NativeStore::Put<true>>("putSync"),
       InstanceMethod<&NativeStore::PutWrites<false>>("putWrites"),
       InstanceMethod<&NativeStore::PutWrites<true>>("putWritesSync"),
       InstanceMethod<&NativeStore::GetTuple<false>>("getTuple"),
       InstanceMethod<&NativeStore::GetTuple<true>>("getTupleSync"),
       InstanceMethod<&NativeStore::List<false>>("list"),
       InstanceMethod<&NativeStore::List<true>>("listSync"),
       InstanceMethod<&NativeStore::Ping<false>>("ping"),
       InstanceMethod<&NativeStore::Ping<true>>("pingSync"),
       InstanceMethod<&NativeStore::DeleteThread>("deleteThread"),
       InstanceMethod<&NativeStore::DeleteForRuns>("deleteForRuns"),
       InstanceMethod<&NativeStore::CopyThread>("copyThread"),
       InstanceMethod<&NativeStore::Prune>("prune"),
       InstanceMethod<&NativeStore::Sweep>("sweep"),
       InstanceMethod<&NativeStore::SweeperStats>("sweeperStats"),
       InstanceMethod<&NativeStore::GetDeltaChannelHistory<false>>(
           "getDeltaChannelHistory"),
       InstanceMethod<&NativeStore::GetDeltaChannelHistory<true>>(
           "getDeltaChannelHistorySync"),
       InstanceMethod<&NativeStore::ListThreads>("listThreads"),
       InstanceMethod<&NativeStore::Compact>("compact"),
       InstanceMethod<&NativeStore::Stats>("stats"),
       InstanceMethod<&NativeStore::Close>("close")});
}

Napi::Object NativeStore::Wrap(Napi::Env env, Engine engine, bool writes_sync) {
  Napi::Object object = GetAddonData(env).store_constructor.New({});
  NativeStore* self = NativeStore::Unwrap(object);
  self->store_ = std::move(engine.store);
  self->backend_ = engine.backend;
  self->retention_ = std::move(engine.retention);
  self->writes_sync_ = writes_sync;
  return object;
}

NativeStore::NativeStore(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<NativeStore>(info) {}

std::shared_ptr<Checkpointer> NativeStore::Store(Napi::Env env) const {
  if (!store_) ThrowIfError(env, Status::Aborted("store is closed"));
  return store_;
}

std::shared_ptr<Checkpointer> NativeStore::Rocks(Napi::Env env) const {
  std::shared_ptr<Checkpointer> store = Store(env);
  if (backend_ != BackendKind::kRocksDb) {
    ThrowIfError(env, Status::InvalidArgument(
                          "only a RocksDB store supports this call"));
  }
  return store;
}

// openRocksDb({path, createIfMissing, syncWrites, readOnly,
//              blobFileMinBytes, blockCacheBytes, maxValueBytes, maxIdBytes,
//              retention, encryptionKey}): rockpoint::Open of rocksdb:PATH.
// The key (EncryptionOption) is copied into one KeyedOptions, which the open
// wipes once Open returns; the engine keeps its own.
Napi::Value NativeStore::OpenRocksDb(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object options = OptionsArg(info, 0);
  auto keyed = std::make_shared<KeyedOptions>();
  keyed->url = "rocksdb:" + RequiredString(options.Get("path"), "options.path");
  StoreOptions& store = keyed->options;
  store.create_if_missing =
      BoolOption(options, "createIfMissing", store.create_if_missing);
  store.sync_writes = BoolOption(options, "syncWrites", store.sync_writes);
  store.read_only = BoolOption(options, "readOnly", store.read_only);
  store.rocksdb.blob_file_min_bytes = SizeOption(
      options, "blobFileMinBytes", store.rocksdb.blob_file_min_bytes);
  store.rocksdb.block_cache_bytes =
      SizeOption(options, "blockCacheBytes", store.rocksdb.block_cache_bytes);
  store.limits = LimitsOption(options);
  store.retention = RetentionOf(
      RetentionFromJs(options.Get("retention"), "options.retention"));
  store.encryption = EncryptionOption(options);
  return PromiseWorker<Engine>::Start(
      env,
      [keyed]() -> Result<Engine> {
        auto opened = Open(keyed->url, keyed->options);
        keyed->WipeKey();
        if (!opened.ok()) return opened.status();
        return EngineOf(std::move(opened).value(), BackendKind::kRocksDb);
      },
      [sync = store.sync_writes](Napi::Env env, Engine& engine) -> Napi::Value {
        return Wrap(env, std::move(engine), !sync);
      });
}

// openMemory({maxValueBytes, maxIdBytes, retention}): an encryptionKey is a
// TypeError, as the memory store keeps nothing at rest to encrypt.
Napi::Value NativeStore::OpenMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object options = OptionsArg(info, 0);
  Napi::Value key = options.Get("encryptionKey");
  if (!key.IsUndefined() && !key.IsNull()) {
    throw Napi::TypeError::New(
        env,
        "options.encryptionKey is for a RocksDB store: the in-memory store "
        "keeps nothing at rest");
  }
  StoreOptions store;
  store.limits = LimitsOption(options);
  store.retention = RetentionOf(
      RetentionFromJs(options.Get("retention"), "options.retention"));
  auto opened = Open("memory:", store);
  ThrowIfError(env, opened.status());
  return Wrap(env, EngineOf(std::move(opened).value(), BackendKind::kMemory),
              true);
}

Napi::Value NativeStore::Kind(const Napi::CallbackInfo& info) {
  if (!store_) return Napi::String::New(info.Env(), "closed");
  return Napi::String::New(info.Env(), std::string(BackendName(backend_)));
}

// writesSync: true when no write waits on an fsync (memory, or RocksDB
// without syncWrites), so putSync / putWritesSync may be used.
Napi::Value NativeStore::WritesSync(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), writes_sync_);
}

template <bool kSync>
Napi::Value NativeStore::Ping(const Napi::CallbackInfo& info) {
  return Read<kSync, Done>(
      info.Env(), []() -> Result<Done> { return Done{}; }, Undefined);
}

// put(config, checkpoint, metadata, newVersions) -> config
template <bool kSync>
Napi::Value NativeStore::Put(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  CheckpointConfig config = ConfigFromJs(Arg(info, 0), "config");
  Checkpoint checkpoint = CheckpointFromJs(Arg(info, 1));
  Metadata metadata = ValueFromJs(Arg(info, 2), "metadata");
  ChannelVersions new_versions = VersionsFromJs(Arg(info, 3), "newVersions");
  return Write<kSync, CheckpointConfig>(
      env,
      [store, config = std::move(config), checkpoint = std::move(checkpoint),
       metadata = std::move(metadata),
       new_versions = std::move(new_versions)]() {
        return store->Put(config, checkpoint, metadata, new_versions);
      },
      [](Napi::Env env, CheckpointConfig& out) -> Napi::Value {
        return ConfigToJs(env, out);
      });
}

// putWrites(config, [[channel, type, bytes]...], taskId, taskPath)
template <bool kSync>
Napi::Value NativeStore::PutWrites(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  CheckpointConfig config = ConfigFromJs(Arg(info, 0), "config");
  std::vector<ChannelWrite> writes = WritesFromJs(Arg(info, 1));
  std::string task_id = RequiredString(Arg(info, 2), "taskId");
  Napi::Value path_arg = Arg(info, 3);
  std::string task_path = path_arg.IsUndefined() || path_arg.IsNull()
                              ? std::string()
                              : RequiredString(path_arg, "taskPath");
  return Write<kSync, Done>(
      env,
      StatusWork([store, config = std::move(config), writes = std::move(writes),
                  task_id = std::move(task_id),
                  task_path = std::move(task_path)]() {
        return store->PutWrites(config, writes, task_id, task_path);
      }),
      Undefined);
}

// getTuple(config) -> raw tuple or null
template <bool kSync>
Napi::Value NativeStore::GetTuple(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  CheckpointConfig config = ConfigFromJs(Arg(info, 0), "config");
  using Found = std::optional<CheckpointTuple>;
  return Read<kSync, Found>(
      env,
      [store, config = std::move(config)]() { return store->GetTuple(config); },
      [](Napi::Env env, Found& tuple) -> Napi::Value {
        if (!tuple) return env.Null();
        return TupleToJs(env, *tuple);
      });
}

// list({config?, filter?, before?, limit?}, firstBatch = 16) ->
//   {tuples: the first up to firstBatch raw tuples, cursor?: the rest (absent
//   when the first batch is the whole result)}
template <bool kSync>
Napi::Value NativeStore::List(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  Napi::Object args = OptionsArg(info, 0);
  ListOptions options;
  Napi::Value config = args.Get("config");
  if (!config.IsUndefined() && !config.IsNull()) {
    options.config = ConfigFromJs(config, "config");
  }
  Napi::Value filter = args.Get("filter");
  if (!filter.IsUndefined() && !filter.IsNull()) {
    options.filter = ValueFromJs(filter, "filter");
  }
  Napi::Value before = args.Get("before");
  if (!before.IsUndefined() && !before.IsNull()) {
    options.before = ConfigFromJs(before, "before");
  }
  Napi::Value limit = args.Get("limit");
  if (!limit.IsUndefined() && !limit.IsNull()) {
    if (!limit.IsNumber() || limit.As<Napi::Number>().DoubleValue() < 0) {
      throw Napi::TypeError::New(env, "limit must be a number >= 0");
    }
    options.limit = static_cast<size_t>(limit.As<Napi::Number>().DoubleValue());
  }
  uint32_t first = 16;
  Napi::Value first_arg = Arg(info, 1);
  if (first_arg.IsNumber()) {
    first = std::max<uint32_t>(1, first_arg.As<Napi::Number>().Uint32Value());
  }
  struct Opened {
    std::shared_ptr<CursorState> state;
    std::vector<CheckpointTuple> batch;
  };
  return Read<kSync, Opened>(
      env,
      [store, options = std::move(options), first]() -> Result<Opened> {
        auto cursor = store->List(options);
        if (!cursor.ok()) return cursor.status();
        auto state = std::make_shared<CursorState>();
        state->store = store;
        state->cursor = std::move(cursor).value();
        auto batch = ReadBatch(*state, first);
        if (!batch.ok()) return batch.status();
        return Opened{std::move(state), std::move(batch).value()};
      },
      [first](Napi::Env env, Opened& opened) -> Napi::Value {
        Napi::Object out = Napi::Object::New(env);
        out.Set("tuples", BatchToJs(env, opened.batch));
        if (opened.batch.size() >= first) {
          out.Set("cursor", NativeCursor::Wrap(env, std::move(opened.state)));
        }
        return out;
      });
}

Napi::Value NativeStore::DeleteThread(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  std::string thread_id = RequiredString(Arg(info, 0), "threadId");
  return PromiseWorker<Done>::Start(
      env, StatusWork([store, thread_id = std::move(thread_id)]() {
        return store->DeleteThread(thread_id);
      }),
      Undefined);
}

Napi::Value NativeStore::DeleteForRuns(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  std::vector<std::string> run_ids = StringArray(Arg(info, 0), "runIds");
  return PromiseWorker<Done>::Start(
      env, StatusWork([store, run_ids = std::move(run_ids)]() {
        return store->DeleteForRuns(run_ids);
      }),
      Undefined);
}

Napi::Value NativeStore::CopyThread(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  std::string source = RequiredString(Arg(info, 0), "sourceThreadId");
  std::string target = RequiredString(Arg(info, 1), "targetThreadId");
  return PromiseWorker<Done>::Start(
      env,
      StatusWork(
          [store, source = std::move(source), target = std::move(target)]() {
            return store->CopyThread(source, target);
          }),
      Undefined);
}

// prune(threadIds, "keep_latest" | "delete", keepLast)
Napi::Value NativeStore::Prune(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  std::vector<std::string> thread_ids = StringArray(Arg(info, 0), "threadIds");
  std::string name = RequiredString(Arg(info, 1), "strategy");
  PruneStrategy strategy;
  if (name == "keep_latest") {
    strategy = PruneStrategy::kKeepLatest;
  } else if (name == "delete") {
    strategy = PruneStrategy::kDelete;
  } else {
    throw Napi::TypeError::New(
        env,
        "strategy must be \"keep_latest\" or \"delete\", got \"" + name + "\"");
  }
  size_t keep_last = 1;
  Napi::Value keep = Arg(info, 2);
  if (!keep.IsUndefined() && !keep.IsNull()) {
    if (!keep.IsNumber() || keep.As<Napi::Number>().DoubleValue() < 1) {
      throw Napi::TypeError::New(env, "keepLast must be a number >= 1");
    }
    keep_last = static_cast<size_t>(keep.As<Napi::Number>().DoubleValue());
  }
  return PromiseWorker<Done>::Start(
      env,
      StatusWork(
          [store, thread_ids = std::move(thread_ids), strategy, keep_last]() {
            return store->Prune(thread_ids, strategy, keep_last);
          }),
      Undefined);
}

// sweep({retention?, nowMs?, dryRun?}) -> report (RetentionReportToJs): one
// pass of `retention`, else of the store's own policy (which counts it in
// sweeperStats unless dry), at nowMs or the system clock's time when the
// pass starts. InvalidArgument when there is neither policy.
Napi::Value NativeStore::Sweep(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  Napi::Object args = OptionsArg(info, 0);
  auto policy = RetentionFromJs(args.Get("retention"), "retention");
  if (!policy && !retention_) {
    ThrowIfError(env, Status::InvalidArgument(
                          "sweep needs a retention policy: the store has "
                          "none and none was given"));
  }
  std::optional<RetentionTime> now;
  Napi::Value now_arg = args.Get("nowMs");
  if (!now_arg.IsUndefined() && !now_arg.IsNull()) {
    now = TimeFromJs(now_arg, "nowMs");
  }
  const bool dry_run = BoolOption(args, "dryRun", false);
  auto own = retention_;
  return PromiseWorker<RetentionReport>::Start(
      env,
      [store, own, policy, now, dry_run]() -> Result<RetentionReport> {
        const RetentionTime at = now.value_or(RetentionClock::now());
        if (policy) return store->Sweep(*policy, at, dry_run);
        return own->Sweep(at, dry_run);
      },
      [](Napi::Env env, RetentionReport& report) -> Napi::Value {
        return RetentionReportToJs(env, report);
      });
}

// sweeperStats() -> null without a retention policy, else {sweeps,
// failed_sweeps, expired: report, last_error: Error (StatusToError) or
// null}. Reads counters under the sweeper's lock, which no sweep holds
// while it works, so it returns at once.
Napi::Value NativeStore::SweeperStats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Store(env);
  if (!retention_) return env.Null();
  const rockpoint::SweeperStats stats = retention_->sweeper_stats();
  Napi::Object out = Napi::Object::New(env);
  out.Set("sweeps", Napi::Number::New(env, static_cast<double>(stats.sweeps)));
  out.Set("failed_sweeps",
          Napi::Number::New(env, static_cast<double>(stats.failed_sweeps)));
  out.Set("expired", RetentionReportToJs(env, stats.expired));
  out.Set("last_error", stats.last_status.ok()
                            ? env.Null()
                            : StatusToError(env, stats.last_status).Value());
  return out;
}

// getDeltaChannelHistory(config, channels) -> {channel: {writes, seed?}}
template <bool kSync>
Napi::Value NativeStore::GetDeltaChannelHistory(
    const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  CheckpointConfig config = ConfigFromJs(Arg(info, 0), "config");
  std::vector<std::string> channels = StringArray(Arg(info, 1), "channels");
  return Read<kSync, DeltaHistory>(
      env,
      [store, config = std::move(config), channels = std::move(channels)]() {
        return store->GetDeltaChannelHistory(config, channels);
      },
      [](Napi::Env env, DeltaHistory& history) -> Napi::Value {
        return DeltaHistoryToJs(env, history);
      });
}

// listThreads({after?, limit?}) -> {threads, next_after?}
Napi::Value NativeStore::ListThreads(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto store = Store(env);
  Napi::Object args = OptionsArg(info, 0);
  ListThreadsOptions options;
  options.after = OptionalString(args, "after", "options");
  options.limit = SizeOption(args, "limit", options.limit);
  return PromiseWorker<ThreadPage>::Start(
      env, [store, options]() { return store->ListThreads(options); },
      [](Napi::Env env, ThreadPage& page) -> Napi::Value {
        return ThreadPageToJs(env, page);
      });
}

Napi::Value NativeStore::Compact(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Checkpointer> store = Rocks(env);
  return PromiseWorker<Done>::Start(
      env, StatusWork([store]() { return rockpoint::Compact(*store); }),
      Undefined);
}

Napi::Value NativeStore::Stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Checkpointer> store = Rocks(env);
  return PromiseWorker<StoreStats>::Start(
      env,
      [store]() -> Result<StoreStats> {
        RP_ASSIGN_OR_RETURN(StoreFigures figures, Figures(*store));
        return std::move(*figures.rocksdb);
      },
      [](Napi::Env env, StoreStats& stats) -> Napi::Value {
        auto number = [env](uint64_t n) {
          return Napi::Number::New(env, static_cast<double>(n));
        };
        Napi::Object out = Napi::Object::New(env);
        Napi::Array families =
            Napi::Array::New(env, stats.column_families.size());
        for (size_t i = 0; i < stats.column_families.size(); ++i) {
          const ColumnFamilyStats& cf = stats.column_families[i];
          Napi::Object item = Napi::Object::New(env);
          item.Set("name", Napi::String::New(env, cf.name));
          item.Set("live_sst_bytes", number(cf.live_sst_bytes));
          item.Set("blob_file_bytes", number(cf.blob_file_bytes));
          item.Set("estimated_keys", number(cf.estimated_keys));
          families.Set(static_cast<uint32_t>(i), item);
        }
        out.Set("column_families", families);
        out.Set("total_disk_bytes", number(stats.total_disk_bytes));
        out.Set("bytes_written", number(stats.bytes_written));
        out.Set("compaction_bytes_written",
                number(stats.compaction_bytes_written));
        return out;
      });
}

// close() -> resolves once this object's reference is dropped, on the pool
// (destroying a RocksDB store flushes and may block; destroying a
// RetentionCheckpointer first waits for a sweep in progress).
Napi::Value NativeStore::Close(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<Checkpointer> store = std::move(store_);
  retention_.reset();
  store_.reset();
  return PromiseWorker<Done>::Start(
      env,
      [store]() mutable -> Result<Done> {
        store.reset();
        return Done{};
      },
      Undefined);
}

}  // namespace rockpoint::node
