#include "native/store.h"

#include <Python.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <string>
#include <utility>

#include "native/convert.h"
#include "native/errors.h"
#include "rockpoint/encryption.h"
#include "rockpoint/open.h"
#include "rockpoint/retention_checkpointer.h"

namespace rockpoint::py {
namespace {

PruneStrategy StrategyFromName(const std::string& name) {
  if (name == "keep_latest") return PruneStrategy::kKeepLatest;
  if (name == "delete") return PruneStrategy::kDelete;
  throw EngineError(Status::InvalidArgument(
      "strategy must be \"keep_latest\" or \"delete\", got \"" + name + "\""));
}

std::optional<size_t> LimitFromPy(nb::handle limit) {
  if (limit.is_none()) return std::nullopt;
  long long n = PyLong_AsLongLong(limit.ptr());
  if (n == -1 && PyErr_Occurred()) throw nb::python_error();
  return n < 0 ? 0 : static_cast<size_t>(n);
}

// The policy as Open's retention: a sweeper on the system clock.
std::optional<RetentionOptions> RetentionOf(
    const std::optional<RetentionPolicy>& policy) {
  if (!policy) return std::nullopt;
  RetentionOptions options;
  options.policy = *policy;
  return options;
}

// A put's arguments, converted with the GIL; called without it.
struct PutCall {
  CheckpointConfig target;
  Checkpoint checkpoint;
  Value metadata;
  ChannelVersions versions;

  Result<CheckpointConfig> operator()(Checkpointer& engine) const {
    return engine.Put(target, checkpoint, metadata, versions);
  }
};

PutCall PutCallFromPy(nb::handle config, nb::handle checkpoint,
                      nb::handle metadata, nb::handle new_versions,
                      nb::handle serde) {
  Serde s(serde);
  PutCall call;
  call.target = ConfigFromPy(config);
  call.checkpoint = CheckpointFromPy(checkpoint, new_versions, s);
  call.metadata = MetadataFromPy(metadata, s);
  call.versions = VersionsFromPy(new_versions, "new_versions");
  return call;
}

// The RunnableConfig of a stored checkpoint; raises a failed put's error.
nb::dict StoredConfigToPy(const Result<CheckpointConfig>& out) {
  ThrowIfError(out.status());
  return ConfigToPy(*out->thread_id, out->checkpoint_ns.value_or(""),
                    *out->checkpoint_id);
}

// A put_writes' arguments, converted with the GIL; called without it.
struct PutWritesCall {
  CheckpointConfig target;
  std::vector<ChannelWrite> writes;
  std::string task_id;
  std::string task_path;

  Status operator()(Checkpointer& engine) const {
    return engine.PutWrites(target, writes, task_id, task_path);
  }
};

PutWritesCall PutWritesCallFromPy(nb::handle config, nb::handle writes,
                                  nb::handle task_id, nb::handle task_path,
                                  nb::handle serde) {
  Serde s(serde);
  PutWritesCall call;
  call.target = ConfigFromPy(config);
  call.writes = WritesFromPy(writes, s);
  call.task_id = IdFromPy(task_id, "task_id");
  call.task_path = task_path.is_none() ? "" : IdFromPy(task_path, "task_path");
  return call;
}

// As InMemorySaver and SqliteSaver: a config of None is a TypeError, one
// without configurable.thread_id a KeyError (never None: "no checkpoint"
// must not hide a config that names no thread).
CheckpointConfig TupleConfigFromPy(nb::handle config) {
  if (config.is_none()) {
    throw nb::type_error(
        "get_tuple: config is None; it needs config['configurable']"
        "['thread_id']");
  }
  CheckpointConfig target = ConfigFromPy(config);
  if (!target.thread_id) {
    throw nb::key_error(
        "thread_id: get_tuple needs config['configurable']['thread_id']");
  }
  return target;
}

}  // namespace

Store::Store(std::unique_ptr<Checkpointer> engine, std::string kind,
             bool writes_inline)
    : engine_(std::move(engine)),
      kind_(std::move(kind)),
      writes_inline_(writes_inline) {}

Store::~Store() {
  workers_.Stop();
  std::unique_lock lock(mu_);
  engine_.reset();
}

template <typename R, typename Fn, typename ToPy>
void Store::Start(const Completions& done, uint64_t ticket, Fn fn, ToPy to_py) {
  workers_.Post([this, done = done.queue(), ticket, fn = std::move(fn),
                 to_py = std::move(to_py)]() mutable {
    auto out = std::make_shared<R>(CallEngine<R>(fn));
    done->Finish(ticket, [out = std::move(out), to_py](nb::handle serde) {
      return to_py(*out, serde);
    });
  });
}

std::shared_ptr<Store> Store::OpenRocksDb(OpenOptions& options) {
  StoreOptions store;
  // Every copy of the key is wiped on the way out, error or not (the
  // engine keeps its own and wipes it when the store closes).
  struct WipeKeys {
    OpenOptions& options;
    StoreOptions& store;
    ~WipeKeys() {
      if (options.encryption_key) WipeSecret(*options.encryption_key);
      if (store.encryption) WipeSecret(store.encryption->key);
    }
  } wipe{options, store};
  if (options.encryption_key) {
    if (options.encryption_key->size() != kEncryptionKeyBytes) {
      throw EngineError(Status::InvalidArgument(
          "an encryption key must be 32 bytes, not " +
          std::to_string(options.encryption_key->size())));
    }
    store.encryption.emplace();
    store.encryption->key = *options.encryption_key;
    WipeSecret(*options.encryption_key);
  }
  store.sync_writes = options.sync_writes;
  store.create_if_missing = options.create_if_missing;
  store.read_only = options.read_only;
  store.rocksdb.blob_file_min_bytes = options.blob_file_min_bytes;
  store.rocksdb.block_cache_bytes = options.block_cache_bytes;
  store.retention = RetentionOf(options.retention);
  const std::string url = "rocksdb:" + options.path;
  Result<std::unique_ptr<Checkpointer>> opened = [&] {
    nb::gil_scoped_release release;
    return Open(url, store);
  }();
  if (store.encryption) WipeSecret(store.encryption->key);
  ThrowIfError(opened.status());
  return std::shared_ptr<Store>(
      new Store(std::move(opened).value(), "rocksdb", !options.sync_writes));
}

std::shared_ptr<Store> Store::OpenMemory(
    const std::optional<RetentionPolicy>& retention) {
  StoreOptions store;
  store.retention = RetentionOf(retention);
  Result<std::unique_ptr<Checkpointer>> opened = Open("memory:", store);
  ThrowIfError(opened.status());
  return std::shared_ptr<Store>(
      new Store(std::move(opened).value(), "memory", true));
}

nb::dict Store::Put(nb::handle config, nb::handle checkpoint,
                    nb::handle metadata, nb::handle new_versions,
                    nb::handle serde) {
  PutCall call =
      PutCallFromPy(config, checkpoint, metadata, new_versions, serde);
  return StoredConfigToPy(Run<Result<CheckpointConfig>>(call));
}

void Store::PutAsync(const Completions& done, uint64_t ticket,
                     nb::handle config, nb::handle checkpoint,
                     nb::handle metadata, nb::handle new_versions,
                     nb::handle serde) {
  Start<Result<CheckpointConfig>>(
      done, ticket,
      PutCallFromPy(config, checkpoint, metadata, new_versions, serde),
      [](const Result<CheckpointConfig>& out, nb::handle) -> nb::object {
        return StoredConfigToPy(out);
      });
}

void Store::PutWrites(nb::handle config, nb::handle writes, nb::handle task_id,
                      nb::handle task_path, nb::handle serde) {
  PutWritesCall call =
      PutWritesCallFromPy(config, writes, task_id, task_path, serde);
  ThrowIfError(Run<Status>(call));
}

void Store::PutWritesAsync(const Completions& done, uint64_t ticket,
                           nb::handle config, nb::handle writes,
                           nb::handle task_id, nb::handle task_path,
                           nb::handle serde) {
  Start<Status>(done, ticket,
                PutWritesCallFromPy(config, writes, task_id, task_path, serde),
                [](const Status& status, nb::handle) -> nb::object {
                  ThrowIfError(status);
                  return nb::none();
                });
}

nb::object Store::GetTuple(nb::handle config, nb::handle serde) {
  CheckpointConfig target = TupleConfigFromPy(config);
  Result<std::optional<CheckpointTuple>> out =
      Run<Result<std::optional<CheckpointTuple>>>(
          [&](Checkpointer& engine) { return engine.GetTuple(target); });
  ThrowIfError(out.status());
  if (!out->has_value()) return nb::none();
  return TupleToPy(**out, Serde(serde));
}

void Store::GetTupleAsync(const Completions& done, uint64_t ticket,
                          nb::handle config) {
  CheckpointConfig target = TupleConfigFromPy(config);
  using Found = Result<std::optional<CheckpointTuple>>;
  Start<Found>(
      done, ticket,
      [target = std::move(target)](Checkpointer& engine) {
        return engine.GetTuple(target);
      },
      [](const Found& out, nb::handle serde) -> nb::object {
        ThrowIfError(out.status());
        if (!out->has_value()) return nb::none();
        return TupleToPy(**out, Serde(serde));
      });
}

nb::tuple Store::List(nb::handle config, nb::handle filter, nb::handle before,
                      nb::handle limit, size_t first_batch, nb::handle serde) {
  Serde s(serde);
  ListOptions options;
  if (!config.is_none()) {
    CheckpointConfig target = ConfigFromPy(config);
    if (target.thread_id || target.checkpoint_ns || target.checkpoint_id) {
      options.config = std::move(target);
    }
  }
  if (!filter.is_none()) {
    bool lossy = false;
    options.filter = ValueFromPy(filter, s, &lossy, "filter");
    if (!options.filter.is_map()) {
      throw nb::type_error("filter keys must be str");
    }
  }
  if (!before.is_none()) {
    CheckpointConfig b = ConfigFromPy(before);
    if (b.checkpoint_id) options.before = std::move(b);
  }
  options.limit = LimitFromPy(limit);
  size_t batch = std::max<size_t>(first_batch, 1);
  if (options.limit) batch = std::min(batch, *options.limit);
  auto slot = std::make_shared<CursorSlot>();
  Result<std::vector<CheckpointTuple>> first =
      Run<Result<std::vector<CheckpointTuple>>>(
          [&](Checkpointer& engine) -> Result<std::vector<CheckpointTuple>> {
            RP_ASSIGN_OR_RETURN(slot->cursor, engine.List(options));
            std::vector<CheckpointTuple> tuples;
            while (tuples.size() < batch) {
              RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> next,
                                  slot->cursor->Next());
              if (!next) {
                slot->cursor.reset();
                break;
              }
              tuples.push_back(*std::move(next));
            }
            if (options.limit && tuples.size() >= *options.limit) {
              slot->cursor.reset();
            }
            return tuples;
          });
  if (!first.ok()) {
    EndCursor(*slot);
    ThrowIfError(first.status());
  }
  nb::list tuples;
  for (const CheckpointTuple& tuple : *first) {
    tuples.append(TupleToPy(tuple, s));
  }
  nb::object cursor = nb::none();
  if (slot->cursor) {
    {
      std::lock_guard lock(slots_mu_);
      std::erase_if(slots_, [](const auto& w) { return w.expired(); });
      slots_.push_back(slot);
    }
    cursor = nb::cast(new Cursor(shared_from_this(), slot),
                      nb::rv_policy::take_ownership);
  }
  return nb::make_tuple(tuples, cursor);
}

Result<std::vector<CheckpointTuple>> Store::Next(CursorSlot& slot, size_t n) {
  return Run<Result<std::vector<CheckpointTuple>>>(
      [&](Checkpointer&) -> Result<std::vector<CheckpointTuple>> {
        std::lock_guard lock(slot.mu);
        std::vector<CheckpointTuple> tuples;
        if (!slot.cursor) return tuples;
        while (tuples.size() < n) {
          Result<std::optional<CheckpointTuple>> next = slot.cursor->Next();
          if (!next.ok() || !next->has_value()) {
            slot.cursor.reset();
            if (!next.ok()) return next.status();
            break;
          }
          tuples.push_back(**std::move(next));
        }
        return tuples;
      });
}

void Store::EndCursor(CursorSlot& slot) {
  nb::gil_scoped_release release;
  std::shared_lock lock(mu_);
  std::lock_guard slot_lock(slot.mu);
  slot.cursor.reset();
}

nb::dict Store::DeltaHistory(nb::handle config, nb::handle channels,
                             nb::handle serde) {
  Serde s(serde);
  CheckpointConfig target = ConfigFromPy(config);
  std::vector<std::string> names;
  for (nb::handle channel : channels) {
    if (!PyUnicode_Check(channel.ptr())) {
      throw nb::type_error("channels must be str");
    }
    names.push_back(nb::cast<std::string>(channel));
  }
  if (!target.thread_id || names.empty()) {
    return DeltaHistoryToPy({}, names, s);
  }
  Result<rockpoint::DeltaHistory> out =
      Run<Result<rockpoint::DeltaHistory>>([&](Checkpointer& engine) {
        return engine.GetDeltaChannelHistory(target, names);
      });
  ThrowIfError(out.status());
  return DeltaHistoryToPy(*out, names, s);
}

void Store::DeleteThread(nb::handle thread_id) {
  std::string thread = IdFromPy(thread_id, "thread_id");
  ThrowIfError(Run<Status>(
      [&](Checkpointer& engine) { return engine.DeleteThread(thread); }));
}

void Store::DeleteForRuns(nb::handle run_ids) {
  std::vector<std::string> ids = IdsFromPy(run_ids, "run_ids");
  ThrowIfError(Run<Status>(
      [&](Checkpointer& engine) { return engine.DeleteForRuns(ids); }));
}

void Store::CopyThread(nb::handle source, nb::handle target) {
  std::string from = IdFromPy(source, "source_thread_id");
  std::string to = IdFromPy(target, "target_thread_id");
  ThrowIfError(Run<Status>(
      [&](Checkpointer& engine) { return engine.CopyThread(from, to); }));
}

void Store::Prune(nb::handle thread_ids, const std::string& strategy,
                  size_t keep_last) {
  std::vector<std::string> ids = IdsFromPy(thread_ids, "thread_ids");
  PruneStrategy s = StrategyFromName(strategy);
  ThrowIfError(Run<Status>(
      [&](Checkpointer& engine) { return engine.Prune(ids, s, keep_last); }));
}

nb::dict Store::Sweep(nb::handle retention, int64_t now_micros, bool dry_run) {
  RetentionPolicy policy = PolicyFromPy(retention);
  RetentionTime now = TimeFromPy(now_micros);
  Result<RetentionReport> out = Run<Result<RetentionReport>>(
      [&](Checkpointer& engine) { return engine.Sweep(policy, now, dry_run); });
  ThrowIfError(out.status());
  return ReportToPy(*out);
}

void Store::Close() {
  nb::gil_scoped_release release;
  CloseEngine();
  workers_.Stop();  // the jobs left find the engine closed
}

void Store::CloseEngine() {
  std::unique_lock lock(mu_);
  if (!engine_) return;
  std::vector<std::shared_ptr<CursorSlot>> slots;
  {
    std::lock_guard slots_lock(slots_mu_);
    for (const auto& weak : slots_) {
      if (auto slot = weak.lock()) slots.push_back(std::move(slot));
    }
    slots_.clear();
  }
  for (const auto& slot : slots) {
    std::lock_guard slot_lock(slot->mu);
    slot->cursor.reset();
  }
  engine_.reset();
}

bool Store::closed() {
  std::shared_lock lock(mu_);
  return engine_ == nullptr;
}

Cursor::Cursor(std::shared_ptr<Store> store, std::shared_ptr<CursorSlot> slot)
    : store_(std::move(store)), slot_(std::move(slot)) {}

Cursor::~Cursor() { Close(); }

nb::list Cursor::Next(size_t n, nb::handle serde) {
  Result<std::vector<CheckpointTuple>> tuples = store_->Next(*slot_, n);
  ThrowIfError(tuples.status());
  Serde s(serde);
  nb::list out;
  for (const CheckpointTuple& tuple : *tuples) out.append(TupleToPy(tuple, s));
  return out;
}

void Cursor::Close() {
  if (slot_) store_->EndCursor(*slot_);
}

}  // namespace rockpoint::py
