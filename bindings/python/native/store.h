// Store: one open engine (RocksDB or memory) shared by a RockpointSaver and
// its copies; Cursor: a list() in progress.
//
// Every method takes the GIL on entry (Python calls it), converts its
// arguments, releases the GIL around the engine call, and converts the
// result back. A call that fails converts nothing and stores nothing.
//
// Thread-safety: any number of Python threads may call one Store at once.
// Close() waits for the engine calls in flight, ends every open Cursor,
// stops the retention sweeper if any (waiting for a sweep in progress) and
// closes the engine (for RocksDB: releases the lock); later calls raise
// ClosedError. Close() is idempotent.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "native/async_calls.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/retention.h"

namespace rockpoint::py {

namespace nb = nanobind;

struct CursorSlot {
  std::mutex mu;
  std::unique_ptr<TupleCursor> cursor;  // GUARDED_BY(mu); null once ended.
};

struct OpenOptions {
  std::string path;
  bool sync_writes = true;
  bool create_if_missing = true;
  bool read_only = false;
  uint64_t blob_file_min_bytes = uint64_t{64} << 10;
  uint64_t block_cache_bytes = uint64_t{64} << 20;
  // With a policy, the engine is wrapped in a RetentionCheckpointer whose
  // sweeper runs on the system clock until Close().
  std::optional<RetentionPolicy> retention;
  // The AES-256 key (exactly 32 bytes) of an encrypted store
  // (docs/ENCRYPTION.md); nullopt: a plaintext store. Never empty when set
  // (an empty EncryptionOptions::key would read ROCKPOINT_AES_KEY, which
  // the binding never does implicitly). OpenRocksDb wipes its copies.
  std::optional<std::string> encryption_key;
};

class Store : public std::enable_shared_from_this<Store> {
 public:
  // InvalidArgumentError for a retention policy that
  // ValidateRetentionPolicy refuses (Open's check) or an encryption key that
  // is not 32 bytes (before anything is opened). Wipes options.encryption_key
  // (and every copy it makes) before returning or throwing.
  static std::shared_ptr<Store> OpenRocksDb(OpenOptions& options);
  static std::shared_ptr<Store> OpenMemory(
      const std::optional<RetentionPolicy>& retention);
  ~Store();

  // Returns the stored checkpoint's RunnableConfig.
  nb::dict Put(nb::handle config, nb::handle checkpoint, nb::handle metadata,
               nb::handle new_versions, nb::handle serde);
  void PutWrites(nb::handle config, nb::handle writes, nb::handle task_id,
                 nb::handle task_path, nb::handle serde);
  // A CheckpointTuple or None.
  nb::object GetTuple(nb::handle config, nb::handle serde);

  // The async forms (async_calls.h): each converts its arguments now (raising
  // for bad ones, with nothing started), runs the engine call on the store's
  // workers, and finishes `ticket` on `done` with what the sync form would
  // return or raise. Outcome::Result takes the serde of GetTupleAsync.
  void PutAsync(const Completions& done, uint64_t ticket, nb::handle config,
                nb::handle checkpoint, nb::handle metadata,
                nb::handle new_versions, nb::handle serde);
  void PutWritesAsync(const Completions& done, uint64_t ticket,
                      nb::handle config, nb::handle writes, nb::handle task_id,
                      nb::handle task_path, nb::handle serde);
  void GetTupleAsync(const Completions& done, uint64_t ticket,
                     nb::handle config);
  // (first batch: list of CheckpointTuple, Cursor or None). No cursor when
  // the first batch holds everything. `filter` is a dict without None
  // values; limit None means no limit.
  nb::tuple List(nb::handle config, nb::handle filter, nb::handle before,
                 nb::handle limit, size_t first_batch, nb::handle serde);
  nb::dict DeltaHistory(nb::handle config, nb::handle channels,
                        nb::handle serde);
  void DeleteThread(nb::handle thread_id);
  void DeleteForRuns(nb::handle run_ids);
  void CopyThread(nb::handle source, nb::handle target);
  void Prune(nb::handle thread_ids, const std::string& strategy,
             size_t keep_last);
  // One Checkpointer::Sweep of `retention` (PolicyFromPy's tuple) at
  // `now_micros` (TimeFromPy); ReportToPy of what it expired.
  nb::dict Sweep(nb::handle retention, int64_t now_micros, bool dry_run);
  void Close();

  bool closed();
  const std::string& kind() const { return kind_; }
  // Whether no write waits on an fsync (the memory store, or RocksDB opened
  // without sync_writes): the saver then runs writes inline.
  bool writes_inline() const { return writes_inline_; }

  // Runs fn(checkpointer) with the GIL released and the engine kept open;
  // Aborted if the store is closed.
  template <typename R, typename Fn>
  R Run(Fn&& fn) {
    nb::gil_scoped_release release;
    return CallEngine<R>(fn);
  }
  // Like Run, for a cursor's engine call.
  Result<std::vector<CheckpointTuple>> Next(CursorSlot& slot, size_t n);
  void EndCursor(CursorSlot& slot);

 private:
  Store(std::unique_ptr<Checkpointer> engine, std::string kind,
        bool writes_inline);

  // Runs fn(checkpointer) with the engine kept open, on a thread that holds
  // no GIL; Aborted if the store is closed.
  template <typename R, typename Fn>
  R CallEngine(Fn& fn) {
    std::shared_lock lock(mu_);
    if (!engine_) return R(Status::Aborted("the saver is closed"));
    return fn(*engine_);
  }
  // Close without the workers: waits for engine calls in flight.
  void CloseEngine();
  // Posts fn(checkpointer) to the workers; finishes `ticket` on `done` with
  // to_py(its result, serde).
  template <typename R, typename Fn, typename ToPy>
  void Start(const Completions& done, uint64_t ticket, Fn fn, ToPy to_py);

  std::shared_mutex mu_;  // shared: an engine call; exclusive: Close.
  std::unique_ptr<Checkpointer> engine_;  // GUARDED_BY(mu_); null: closed.
  std::mutex slots_mu_;
  std::vector<std::weak_ptr<CursorSlot>> slots_;  // GUARDED_BY(slots_mu_)
  const std::string kind_;
  const bool writes_inline_;
  // Concurrent writers that wait for a fsync share it (RocksDB's group
  // commit), so there are more workers than cores.
  static constexpr size_t kWorkers = 16;
  // Runs the async calls; its jobs use `this`. ~Store stops it before the
  // engine goes; Close closes the engine first, so the jobs left find the
  // store closed, then stops it.
  WorkerPool workers_{kWorkers};
};

class Cursor {
 public:
  Cursor(std::shared_ptr<Store> store, std::shared_ptr<CursorSlot> slot);
  ~Cursor();
  // Up to n tuples; fewer means the end.
  nb::list Next(size_t n, nb::handle serde);
  void Close();

 private:
  std::shared_ptr<Store> store_;
  std::shared_ptr<CursorSlot> slot_;
};

}  // namespace rockpoint::py
