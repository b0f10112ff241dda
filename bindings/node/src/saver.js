// RockpointSaver: a LangGraph.js checkpoint saver on rockpoint's engine.
//
// Drop-in for MemorySaver / SqliteSaver:
//   const checkpointer = await RockpointSaver.open("./checkpoints");
//   const checkpointer = new RockpointSaver(":memory:");  // tests
//
// Values (channel values, pending writes, legacy pending sends) are
// serialized with this.serde and stored by the engine as opaque [type, bytes]
// pairs. Metadata is converted to a serde Value (see metadata.js) so that
// list filters are evaluated by the engine. Every engine call runs off the
// JS thread; calls on one thread take effect in call order (ordering.js).
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
import { toNativeValue } from "./metadata.js";
import { loadNative } from "./native.js";
import { CallOrder } from "./ordering.js";

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
  const error = new Error("rockpoint: the saver is closed");
  error.code = "Aborted";
  return error;
}

export class RockpointSaver extends BaseCheckpointSaver {
  /** NativeStore once open. */
  #native = null;
  /** Promise of the NativeStore while a RocksDB store is being opened. */
  #opening = null;
  #options;
  #closed = false;
  #closing = null;
  #order = new CallOrder();
  #inflight = new Set();
  #cursors = new Set();

  /**
   * @param location ":memory:" (default) for an in-memory store, a directory
   *   path for a RocksDB store, or an options object {path, syncWrites,
   *   createIfMissing, readOnly, blobFileMinBytes, blockCacheBytes,
   *   maxValueBytes, maxIdBytes, serde}. A RocksDB store opens on first use;
   *   use RockpointSaver.open() to open it (and see errors) at once.
   * @param serde the serializer; default JsonPlusSerializer.
   */
  constructor(location = MEMORY, serde = undefined) {
    const options =
      typeof location === "string" ? { path: location } : { ...location };
    super(serde ?? options.serde);
    delete options.serde;
    if (options.path === undefined) options.path = MEMORY;
    if (typeof options.path !== "string" || options.path.length === 0) {
      throw new TypeError("rockpoint: path must be a non-empty string");
    }
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

  async #store() {
    if (this.#native) return this.#native;
    if (this.#closed) throw closedError();
    if (!this.#opening) {
      this.#opening = loadNative()
        .NativeStore.openRocksDb(this.#options)
        .then(
          (native) => {
            this.#native = native;
            return native;
          },
          (error) => {
            this.#opening = null;  // a later call may retry.
            throw new Error(
              `rockpoint: cannot open store ${this.#options.path}: ${error.message}`,
              { cause: error },
            );
          },
        );
    }
    return this.#opening;
  }

  /** Tracks `promise` so close() can wait for it. */
  #track(promise) {
    this.#inflight.add(promise);
    const done = () => this.#inflight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  #checkOpen() {
    if (this.#closed) throw closedError();
  }

  // ---- reads ---------------------------------------------------------------

  async getTuple(config) {
    this.#checkOpen();
    const target = engineConfig(config);
    if (target.thread_id === undefined) return undefined;
    const raw = await this.#track(
      this.#order.read(target.thread_id, async () =>
        (await this.#store()).getTuple(target),
      ),
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
        : handled(toNativeValue(filter, this.serde));
    // The first batch comes with the cursor: a short list is one call.
    let batchSize =
      typeof limit === "number" && limit > 0 ? Math.min(limit, 256) : 16;
    const firstSize = batchSize;
    const open = async () => {
      const args = {
        config: target,
        filter: nativeFilter === undefined ? undefined : await nativeFilter,
        before: beforeId === undefined ? undefined : { checkpoint_id: beforeId },
        limit:
          typeof limit === "number" && Number.isFinite(limit)
            ? Math.max(0, Math.floor(limit))
            : undefined,
      };
      return (await this.#store()).list(args, firstSize);
    };
    const { tuples: first, cursor } = await this.#track(
      target.thread_id === undefined
        ? this.#order.readAll(open)
        : this.#order.read(target.thread_id, open),
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
        batch = await this.#track(cursor.next(requested));
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
    const raw = await this.#track(
      this.#order.read(target.thread_id, async () =>
        (await this.#store()).getDeltaChannelHistory(target, [...channels]),
      ),
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
      throw new Error(`rockpoint: failed to put checkpoint. ${MISSING_THREAD_ID}`);
    }
    // Everything is captured now (serde's synchronous work included), so a
    // caller mutating `checkpoint` after this call changes nothing stored.
    const prepared = preparePut(this.serde, checkpoint, metadata, newVersions);
    const out = await this.#track(
      this.#order.write(target.thread_id, async () => {
        const args = await prepared;
        return (await this.#store()).put(
          target,
          args.checkpoint,
          args.metadata,
          args.newVersions,
        );
      }),
    );
    return runnableConfig(out.thread_id, out.checkpoint_ns, out.checkpoint_id);
  }

  async putWrites(config, writes, taskId, taskPath = "") {
    this.#checkOpen();
    const target = engineConfig(config);
    if (target.thread_id === undefined) {
      throw new Error(`rockpoint: failed to put writes. ${MISSING_THREAD_ID}`);
    }
    if (target.checkpoint_id === undefined) {
      throw new Error(
        'rockpoint: failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
      );
    }
    const prepared = prepareWrites(this.serde, writes);
    const task = idString(taskId, "taskId") ?? "";
    await this.#track(
      this.#order.write(target.thread_id, async () =>
        (await this.#store()).putWrites(
          target,
          await prepared,
          task,
          taskPath ?? "",
        ),
      ),
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

  /** RocksDB only: per column family sizes and bytes written. */
  async stats() {
    this.#checkOpen();
    return this.#track(
      this.#order.readAll(async () => (await this.#store()).stats()),
    );
  }

  /**
   * Waits for the calls in flight, ends open list() iterations, and closes
   * the store (for RocksDB: releases its lock). Later calls reject.
   * Idempotent.
   */
  async close() {
    if (this.#closing) return this.#closing;
    this.#closed = true;
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
        throw new Error(
          `rockpoint: cannot derive the next version of "${current}"`,
        );
      }
      counter = BigInt(digits);
    } else {
      throw new TypeError(`rockpoint: unsupported version ${String(current)}`);
    }
    const next = (counter + 1n).toString().padStart(32, "0");
    return `${next}.${randomSuffix()}`;
  }

  #toTuple(raw) {
    return toTuple(this.serde, raw, {
      readRaw: async (config) => (await this.#store()).getTuple(config),
      nextVersion: () => this.getNextVersion(undefined),
    });
  }
}
