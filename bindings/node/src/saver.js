// RockpointSaver: a LangGraph.js checkpoint saver on rockpoint's engine.
//
// Drop-in for MemorySaver / SqliteSaver:
//   const checkpointer = await RockpointSaver.open("./checkpoints");
//   const checkpointer = new RockpointSaver(":memory:");  // tests
//
// Values (channel values, pending writes, legacy pending sends) are
// serialized with this.serde and stored by the engine as opaque [type, bytes]
// pairs. Metadata is converted to a serde Value (see metadata.js) so that
// list filters are evaluated by the engine. Calls on one thread take effect
// in call order (ordering.js).
//
// Where engine calls run: reads, and writes that do not fsync (the memory
// store, or syncWrites: false), run synchronously on the JS thread once
// nothing earlier on their thread is pending, as better-sqlite3 does: they
// take microseconds, less than the hop to a pool thread and back. Writes
// that fsync run on the addon's writer threads, so the event loop never
// waits on disk and concurrent writes share fsyncs (native/writer_pool.h);
// the other calls (deleteThread, prune, sweep, stats, ...) on the libuv
// pool. Errors follow errors.js.
//
// Retention (retention.js): a saver opened with a `retention` policy has the
// engine sweep it in the background, on a C++ thread of its own that never
// touches JS (native/store.h); sweep() runs one pass on demand.
//
// Encryption at rest (encryption.js): a RocksDB store opened with an
// `encryptionKey` seals every record with AES-256-GCM. A wrong or missing
// key fails the open (InvalidArgument), a record that does not authenticate
// fails its read (Corruption); the in-memory store takes no key.
//
// Thread-safety: one saver may be used by any number of concurrent graph
// runs. A RocksDB store directory is held by one saver (one process) at a
// time; close() releases it.
import { randomInt } from "node:crypto";

import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

import {
  loadWrites,
  prepareWrites,
  preparePut,
  toTuple,
} from "./codec.js";
import { engineConfig, handled, idString, runnableConfig } from "./config.js";
import { keyBytesOf, wipeKey } from "./encryption.js";
import { rockpointError, withCode } from "./errors.js";
import { toNativeValue } from "./metadata.js";
import { loadNative } from "./native.js";
import { CallOrder } from "./ordering.js";
import {
  normalizeRetention,
  reportOf,
  sweepArgs,
  sweeperStatsOf,
} from "./retention.js";

export const MEMORY = ":memory:";

const MISSING_THREAD_ID =
  'The passed RunnableConfig is missing a required "thread_id" field in its ' +
  '"configurable" property. When using a checkpointer, you must pass a ' +
  '"thread_id" so the checkpointer knows which conversation thread to ' +
  "persist state for.";

/** 16 random decimal digits. */
function randomSuffix() {
  const half = () => String(randomInt(0, 1e8)).padStart(8, "0");
  return half() + half();
}

function closedError() {
  return rockpointError("rockpoint: the saver is closed", "Aborted");
}

/** fn(native) now; a thrown error gets a code (errors.js). */
function callNow(fn, native) {
  try {
    return fn(native);
  } catch (error) {
    throw withCode(error);
  }
}

/** camelCase store stats, with the snake_case names as hidden aliases. */
function statsOf(raw) {
  const aliased = (object, aliases) => {
    for (const [snake, camel] of aliases) {
      Object.defineProperty(object, snake, {
        get() {
          return object[camel];
        },
        enumerable: false,
      });
    }
    return object;
  };
  const columnFamilies = raw.column_families.map((cf) =>
    aliased(
      {
        name: cf.name,
        liveSstBytes: cf.live_sst_bytes,
        blobFileBytes: cf.blob_file_bytes,
        estimatedKeys: cf.estimated_keys,
      },
      [
        ["live_sst_bytes", "liveSstBytes"],
        ["blob_file_bytes", "blobFileBytes"],
        ["estimated_keys", "estimatedKeys"],
      ],
    ),
  );
  return aliased(
    {
      columnFamilies,
      totalDiskBytes: raw.total_disk_bytes,
      bytesWritten: raw.bytes_written,
      compactionBytesWritten: raw.compaction_bytes_written,
    },
    [
      ["column_families", "columnFamilies"],
      ["total_disk_bytes", "totalDiskBytes"],
      ["bytes_written", "bytesWritten"],
      ["compaction_bytes_written", "compactionBytesWritten"],
    ],
  );
}

export class RockpointSaver extends BaseCheckpointSaver {
  /** NativeStore once open. */
  #native = null;
  /** Promise of the NativeStore while a RocksDB store is being opened. */
  #opening = null;
  #options;
  /**
   * The saver's copy of the encryption key (a 32-byte Buffer) until the
   * store is open, then zeroed and dropped; undefined without a key.
   */
  #key = undefined;
  #closed = false;
  #closing = null;
  #order = new CallOrder();
  #inflight = new Set();
  #cursors = new Set();

  /**
   * @param location ":memory:" (default) for an in-memory store, a directory
   *   path for a RocksDB store, or an options object {path, syncWrites,
   *   createIfMissing, readOnly, blobFileMinBytes, blockCacheBytes,
   *   maxValueBytes, maxIdBytes, retention, encryptionKey, serde}. A
   *   RocksDB store opens on first use; use RockpointSaver.open() to open it
   *   (and see errors) at once. `retention` (retention.js) starts the
   *   background sweeper; `encryptionKey` (encryption.js, RocksDB only)
   *   encrypts the store. A bad one of either throws here, before anything
   *   is opened.
   * @param serde the serializer; default JsonPlusSerializer.
   */
  constructor(location = MEMORY, serde = undefined) {
    const options =
      typeof location === "string" ? { path: location } : { ...location };
    super(serde ?? options.serde);
    delete options.serde;
    if (options.path === undefined) options.path = MEMORY;
    if (typeof options.path !== "string" || options.path.length === 0) {
      throw rockpointError(
        "rockpoint: path must be a non-empty string",
        "InvalidArgument",
        { type: TypeError },
      );
    }
    if (options.retention === undefined || options.retention === null) {
      delete options.retention;
    } else {
      if (options.readOnly === true) {
        throw rockpointError(
          "rockpoint: retention needs a writable store, but readOnly is set",
          "InvalidArgument",
          { type: TypeError },
        );
      }
      options.retention = normalizeRetention(options.retention);
    }
    if (options.encryptionKey !== undefined && options.encryptionKey !== null &&
        options.path === MEMORY) {
      throw rockpointError(
        "rockpoint: encryptionKey is for a RocksDB store: the in-memory " +
          "store keeps nothing at rest, so it takes no key",
        "InvalidArgument",
        { type: TypeError },
      );
    }
    // Last, so that no copy of the key is made when another option throws.
    this.#key = keyBytesOf(options.encryptionKey);
    delete options.encryptionKey;
    this.#options = options;
    if (options.path === MEMORY) {
      this.#native = loadNative().NativeStore.openMemory(options);
    }
  }

  /** Opens (or creates) a RocksDB store at `path`, or ":memory:". */
  static async open(path, options = {}) {
    const saver = new RockpointSaver({ ...options, path });
    await saver.#store();
    return saver;
  }

  /** An in-memory saver (the engine's MemoryCheckpointer). */
  static memory(options = {}) {
    return new RockpointSaver({ ...options, path: MEMORY });
  }

  /** "memory", "rocksdb", or "closed". */
  get kind() {
    if (this.#closed) return "closed";
    return this.#options.path === MEMORY ? "memory" : "rocksdb";
  }

  /** The store directory, or ":memory:". */
  get path() {
    return this.#options.path;
  }

  /**
   * The retention policy the background sweeper applies, normalized
   * ({maxAgeMs?, maxIdleMs?, keepLast?, sweepIntervalMs,
   * sweepBatchThreads}, frozen), or null when the saver has none.
   */
  get retention() {
    return this.#options.retention ?? null;
  }

  async #store() {
    if (this.#native) return this.#native;
    if (this.#closed) throw closedError();
    if (!this.#opening) {
      const keyed = this.#key !== undefined;
      // The addon copies the key before openRocksDb returns.
      const opening = loadNative().NativeStore.openRocksDb(
        keyed ? { ...this.#options, encryptionKey: this.#key } : this.#options,
      );
      this.#opening = opening.then(
        (native) => {
          this.#native = native;
          wipeKey(this.#key);
          this.#key = undefined;
          return native;
        },
        (error) => {
          this.#opening = null;  // a later call may retry (with the key).
          const code = typeof error.code === "string" ? error.code : "IOError";
          const hint =
            !keyed && code === "InvalidArgument" &&
            /the store is encrypted/.test(error.message)
              ? " (open it with the encryptionKey option)"
              : "";
          throw rockpointError(
            `rockpoint: cannot open store ${this.#options.path}: ${error.message}${hint}`,
            code,
            { cause: error },
          );
        },
      );
    }
    return this.#opening;
  }

  /**
   * Tracks `promise` so close() can wait for it; the promise returned
   * rejects with a coded error (errors.js).
   */
  #track(promise) {
    const tracked = promise.then(undefined, (error) => {
      throw withCode(error);
    });
    this.#inflight.add(tracked);
    const done = () => this.#inflight.delete(tracked);
    tracked.then(done, done);
    return tracked;
  }

  /**
   * A read of `thread` (every thread when undefined): fn(native) at once
   * when the store is open and nothing earlier on the thread is pending
   * (its value, or it throws), else a promise of it after those.
   */
  #read(thread, fn) {
    const native = this.#native;
    const gate =
      thread === undefined ? this.#order.pendingAll() : this.#order.pending(thread);
    if (native && !gate) return callNow(fn, native);
    const run = async () => callNow(fn, await this.#store());
    return this.#track(
      thread === undefined ? this.#order.readAll(run) : this.#order.read(thread, run),
    );
  }

  /**
   * A put / putWrites on `thread`, after the earlier writes on it: once
   * `prepared` settles, sync(native, args) on the JS thread when the store's
   * writes do not fsync, else async(native, args) on the writer threads.
   */
  #write(thread, prepared, sync, async) {
    return this.#track(
      this.#order.write(thread, async () => {
        const args = await prepared;
        const native = this.#native ?? (await this.#store());
        return native.writesSync ? callNow((n) => sync(n, args), native) : async(native, args);
      }),
    );
  }

  #checkOpen() {
    if (this.#closed) throw closedError();
  }

  // ---- reads ---------------------------------------------------------------

  async getTuple(config) {
    this.#checkOpen();
    // As MemorySaver and SqliteSaver, which read config.configurable.
    if (config === null || typeof config !== "object") {
      throw new TypeError(
        `getTuple needs a RunnableConfig with configurable.thread_id, got ${String(config)}`,
      );
    }
    const target = engineConfig(config);
    if (target.thread_id === undefined) return undefined;
    const raw = await this.#read(target.thread_id, (native) =>
      native.getTupleSync(target),
    );
    return raw ? this.#toTuple(raw) : undefined;
  }

  async *list(config, options = {}) {
    this.#checkOpen();
    const { limit, before, filter } = options ?? {};
    const target = engineConfig(config);
    const beforeId = idString(
      before?.configurable?.checkpoint_id || before?.configurable?.thread_ts ||
        undefined,
      "checkpoint_id",
    );
    const nativeFilter =
      filter === undefined || filter === null
        ? undefined
        : handled(toNativeValue(filter, this.serde, "filter"));
    // The first batch comes with the cursor: a short list is one call.
    let batchSize =
      typeof limit === "number" && limit > 0 ? Math.min(limit, 256) : 16;
    const firstSize = batchSize;
    const args = {
      config: target,
      filter: nativeFilter === undefined ? undefined : await nativeFilter,
      before: beforeId === undefined ? undefined : { checkpoint_id: beforeId },
      limit:
        typeof limit === "number" && Number.isFinite(limit)
          ? Math.max(0, Math.floor(limit))
          : undefined,
    };
    const { tuples: first, cursor } = await this.#read(target.thread_id, (native) =>
      native.listSync(args, firstSize),
    );
    if (cursor) this.#cursors.add(cursor);
    try {
      let batch = first;
      let requested = firstSize;
      let yielded = 0;
      for (;;) {
        const tuples = await Promise.all(batch.map((raw) => this.#toTuple(raw)));
        for (const tuple of tuples) yield tuple;
        yielded += tuples.length;
        // A short batch is the end; so is the first one without a cursor,
        // and reaching the limit.
        if (!cursor || batch.length < requested) return;
        if (typeof limit === "number" && yielded >= limit) return;
        this.#checkOpen();
        batchSize = Math.min(batchSize * 4, 256);
        requested = batchSize;
        batch = callNow(() => cursor.nextSync(requested));
      }
    } finally {
      if (cursor) {
        this.#cursors.delete(cursor);
        cursor.close();
      }
    }
  }

  async getDeltaChannelHistory({ config, channels }) {
    this.#checkOpen();
    if (!channels || channels.length === 0) return {};
    const target = engineConfig(config);
    const result = {};
    if (target.thread_id === undefined) {
      for (const channel of channels) result[channel] = { writes: [] };
      return result;
    }
    const raw = await this.#read(target.thread_id, (native) =>
      native.getDeltaChannelHistorySync(target, [...channels]),
    );
    await Promise.all(
      channels.map(async (channel) => {
        const entry = raw[channel];
        const out = {
          writes: entry ? await loadWrites(this.serde, entry.writes) : [],
        };
        if (entry?.seed !== undefined) {
          out.seed = await this.serde.loadsTyped(entry.seed[0], entry.seed[1]);
        }
        result[channel] = out;
      }),
    );
    return result;
  }

  // ---- writes --------------------------------------------------------------

  async put(config, checkpoint, metadata, newVersions) {
    this.#checkOpen();
    const target = engineConfig(config);
    if (target.thread_id === undefined) {
      throw rockpointError(
        `rockpoint: failed to put checkpoint. ${MISSING_THREAD_ID}`,
        "InvalidArgument",
      );
    }
    // Everything is captured now (serde's synchronous work included), so a
    // caller mutating `checkpoint` after this call changes nothing stored.
    const prepared = preparePut(this.serde, checkpoint, metadata, newVersions);
    const out = await this.#write(
      target.thread_id,
      prepared,
      (native, args) =>
        native.putSync(target, args.checkpoint, args.metadata, args.newVersions),
      (native, args) =>
        native.put(target, args.checkpoint, args.metadata, args.newVersions),
    );
    return runnableConfig(out.thread_id, out.checkpoint_ns, out.checkpoint_id);
  }

  async putWrites(config, writes, taskId, taskPath = "") {
    this.#checkOpen();
    const target = engineConfig(config);
    if (target.thread_id === undefined) {
      throw rockpointError(
        `rockpoint: failed to put writes. ${MISSING_THREAD_ID}`,
        "InvalidArgument",
      );
    }
    if (target.checkpoint_id === undefined) {
      throw rockpointError(
        'rockpoint: failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
        "InvalidArgument",
      );
    }
    const prepared = prepareWrites(this.serde, writes);
    const task = idString(taskId, "taskId") ?? "";
    const path = taskPath ?? "";
    await this.#write(
      target.thread_id,
      prepared,
      (native, writes) => native.putWritesSync(target, writes, task, path),
      (native, writes) => native.putWrites(target, writes, task, path),
    );
  }

  async deleteThread(threadId) {
    this.#checkOpen();
    const thread = idString(threadId, "thread_id") ?? "";
    await this.#track(
      this.#order.write(thread, async () =>
        (await this.#store()).deleteThread(thread),
      ),
    );
  }

  /**
   * Deletes every checkpoint whose metadata.run_id is in `runIds`, in every
   * thread and namespace, with its writes. Whatever surviving checkpoints'
   * delta histories still need is kept out of sight.
   */
  async deleteForRuns(runIds) {
    this.#checkOpen();
    const ids = [...runIds].map((id) => idString(id, "run_id"));
    await this.#track(
      this.#order.writeAll(async () => (await this.#store()).deleteForRuns(ids)),
    );
  }

  /** Copies every checkpoint, value and write of one thread to another. */
  async copyThread(sourceThreadId, targetThreadId) {
    this.#checkOpen();
    const source = idString(sourceThreadId, "thread_id") ?? "";
    const target = idString(targetThreadId, "thread_id") ?? "";
    await this.#track(
      this.#order.writeAll(async () =>
        (await this.#store()).copyThread(source, target),
      ),
    );
  }

  /**
   * Per (thread, namespace): keeps the newest `keepLast` checkpoints (and
   * what their delta histories need) with strategy "keep_latest" (default),
   * or deletes everything with "delete".
   */
  async prune(threadIds, { strategy = "keep_latest", keepLast = 1 } = {}) {
    this.#checkOpen();
    const ids = [...threadIds].map((id) => idString(id, "thread_id"));
    await this.#track(
      this.#order.writeAll(async () =>
        (await this.#store()).prune(ids, strategy, keepLast),
      ),
    );
  }

  /**
   * One retention pass over every thread, on the libuv pool: of
   * `retention` when given (either shape of retention.js), else of the
   * saver's policy (rejects with InvalidArgument when it has none), at
   * `now` (a Date; default: when the pass starts). With `dryRun` nothing
   * changes and the report says what would expire. Resolves to
   * {threadsExamined, threadsEmptied, checkpointsExpired,
   * checkpointsHidden, bytes}. Ordered after every earlier write (and,
   * unless dry, before every later call), as prune is; the background
   * sweeper is not ordered with the saver's calls, which the engine's
   * per-batch atomicity makes safe.
   */
  async sweep(options = {}) {
    this.#checkOpen();
    const args = sweepArgs(options);
    if (!args.retention && !this.retention) {
      throw rockpointError(
        "rockpoint: sweep needs a retention policy: the saver has none and " +
          "none was given",
        "InvalidArgument",
        { type: TypeError },
      );
    }
    const run = async () => (await this.#store()).sweep(args);
    const raw = await this.#track(
      args.dryRun ? this.#order.readAll(run) : this.#order.writeAll(run),
    );
    return reportOf(raw);
  }

  /**
   * What the saver's policy did so far, background sweeps and sweep()
   * calls without `retention` (dry runs excepted): {sweeps, failedSweeps,
   * expired: RetentionReport summed over the sweeps that completed,
   * lastError: the coded Error of the last sweep, or null}; null when the
   * saver has no retention policy. A failed background sweep shows only
   * here (the next one runs as scheduled).
   */
  async sweeperStats() {
    this.#checkOpen();
    if (!this.retention) return null;
    const raw = await this.#track(
      (async () => (await this.#store()).sweeperStats())(),
    );
    return sweeperStatsOf(raw);
  }

  // ---- store-level -----------------------------------------------------------

  /**
   * One page of threads, ordered by thread id: {threads: [{threadId,
   * namespaces: [{checkpointNs, checkpointCount, latestCheckpointId,
   * latestTs}]}], nextAfter?}.
   */
  async listThreads({ after, limit } = {}) {
    this.#checkOpen();
    const page = await this.#track(
      this.#order.readAll(async () =>
        (await this.#store()).listThreads({ after, limit }),
      ),
    );
    const out = {
      threads: page.threads.map((thread) => ({
        threadId: thread.thread_id,
        namespaces: thread.namespaces.map((ns) => ({
          checkpointNs: ns.checkpoint_ns,
          checkpointCount: ns.checkpoint_count,
          latestCheckpointId: ns.latest_checkpoint_id,
          latestTs: ns.latest_ts,
        })),
      })),
    };
    if (page.next_after !== undefined) out.nextAfter = page.next_after;
    return out;
  }

  /** RocksDB only: flushes and compacts every column family. */
  async compact() {
    this.#checkOpen();
    await this.#track(
      this.#order.readAll(async () => (await this.#store()).compact()),
    );
  }

  /**
   * RocksDB only: {columnFamilies: [{name, liveSstBytes, blobFileBytes,
   * estimatedKeys}], totalDiskBytes, bytesWritten, compactionBytesWritten}.
   * The snake_case names of earlier versions remain as hidden aliases.
   */
  async stats() {
    this.#checkOpen();
    const raw = await this.#track(
      this.#order.readAll(async () => (await this.#store()).stats()),
    );
    return statsOf(raw);
  }

  /**
   * Waits for the calls in flight, ends open list() iterations, and closes
   * the store (for RocksDB: releases its lock). Later calls reject.
   * Idempotent.
   */
  async close() {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    wipeKey(this.#key);
    this.#key = undefined;
    this.#closing = (async () => {
      while (this.#inflight.size > 0) {
        await Promise.allSettled([...this.#inflight]);
      }
      for (const cursor of this.#cursors) cursor.close();
      this.#cursors.clear();
      let native = this.#native;
      if (!native && this.#opening) native = await this.#opening.catch(() => null);
      this.#native = null;
      if (native) await native.close();
    })();
    return this.#closing;
  }

  /**
   * The version after `current`, as the string "<counter>.<suffix>": the
   * counter (current's, or 0 for none) + 1 zero-padded to 32 digits, and 16
   * random digits. rockpoint stores each channel value once per (thread,
   * namespace, channel, version), so versions must be unique per branch:
   * integer versions would collide when a graph is replayed from an older
   * checkpoint (the fork would read the other branch's values). Fixed-width
   * counters keep LangGraph's string comparison in step order.
   */
  getNextVersion(current) {
    let counter;
    if (current === undefined || current === null) {
      counter = 0n;
    } else if (typeof current === "number" && Number.isInteger(current)) {
      counter = BigInt(current);
    } else if (typeof current === "string") {
      const digits = current.split(".", 1)[0];
      if (!/^\d+$/.test(digits)) {
        throw rockpointError(
          `rockpoint: cannot derive the next version of "${current}"`,
          "InvalidArgument",
        );
      }
      counter = BigInt(digits);
    } else {
      throw rockpointError(
        `rockpoint: unsupported version ${String(current)}`,
        "InvalidArgument",
        { type: TypeError },
      );
    }
    const next = (counter + 1n).toString().padStart(32, "0");
    return `${next}.${randomSuffix()}`;
  }

  #toTuple(raw) {
    return toTuple(this.serde, raw, {
      readRaw: async (config) =>
        callNow((native) => native.getTupleSync(config), await this.#store()),
      nextVersion: () => this.getNextVersion(undefined),
    });
  }
}
