// RockpointStore: LangGraph.js's BaseStore (long-term memory shared across
// threads) on rockpoint's item store (include/rockpoint/store.h,
// docs/STORE.md), in a RocksDB directory (its own or a saver's) or in memory.
//
//   const store = await RockpointStore.open("./memory", {
//     index: { dims: 1536, embeddings, fields: ["text"] },
//     ttl: { defaultTtl: 60 * 24, sweepIntervalMinutes: 60 },
//   });
//   graph = builder.compile({ checkpointer, store });
//
// What runs where: the JS layer checks every operation (TypeError,
// RangeError, InvalidNamespaceError, all with code "InvalidArgument"),
// converts values to the engine's JSON-like shape and computes embeddings
// with the index's `embeddings` (as InMemoryStore: the texts at the
// index's fields, or at a put's own `index` paths); the addon's ItemStore
// (native/item_store.h) runs each batch on the libuv pool, where the engine
// checks it again, applies its puts in one atomic write (fsynced with
// syncWrites) and answers reads from one snapshot. A batch that fails
// (a bad op, an embedding that fails or has the wrong length) writes
// nothing.
//
// Order: batches take effect in the order they were called, although each
// runs on a pool thread: a batch with puts waits for every earlier batch; a
// read-only batch waits for the earlier batches with puts (StoreOrder).
// Embeddings are computed as soon as a batch is called, while it waits.
//
// Where rockpoint differs from InMemoryStore on purpose (docs/STORE.md):
// filters compare as JSON (1 == 1.0, true != 1, a missing field never
// orders), their operators are $eq $ne $gt $gte $lt $lte ($in and $nin are
// refused); a search without a query returns the newest updated first; a
// put replaces the item's vectors (index: false leaves it none); a query on
// a store without an index is an error, not ignored; the root label
// "langgraph" is refused in every put, batch() included.
//
// Errors follow errors.js: engine failures carry the engine's code
// ("InvalidArgument", "Busy", "Aborted" for a closed store, ...).
//
// This file holds the class; the JS layer's parts are its neighbours:
// options.js (open options: index, TTL), validate.js (namespaces, keys,
// TTLs, values), ops.js (operations to the addon's ops, results back),
// embed.js (field paths, embedding), order.js (call order), checks.js
// (the checks and errors they share).
import { BaseStore } from "@langchain/langgraph-checkpoint";

import { handled } from "../config.js";
import { rockpointError, withCode } from "../errors.js";
import { loadNative } from "../native.js";
import {
  closedError,
  coded,
  describe,
  isObject,
  typeError,
} from "./checks.js";
import { embed } from "./embed.js";
import { planBatch, resultOf } from "./ops.js";
import { MEMORY, nativeOptions, normalizeOptions } from "./options.js";
import { StoreOrder } from "./order.js";
import { checkNamespace } from "./validate.js";

/**
 * The error of an open that failed with the addon's `error`: "rockpoint:
 * cannot open <what>: <its message>" with `code`, a TypeError when
 * `error` is one, `error` as the cause.
 */
function openError(error, what, code) {
  return rockpointError(`rockpoint: cannot open ${what}: ${error.message}`, code, {
    cause: error,
    type: error instanceof TypeError ? TypeError : Error,
  });
}

export class RockpointStore extends BaseStore {
  /** The addon's ItemStore once open. */
  #native = null;
  /** Promise of the ItemStore while a RocksDB store is being opened. */
  #opening = null;
  #options;
  #closed = false;
  #closing = null;
  #order = new StoreOrder();
  #inflight = new Set();

  /**
   * @param location ":memory:" (default) for an in-memory store, a
   *   directory for a RocksDB store, or an options object {path, index,
   *   ttl, syncWrites, readOnly, createIfMissing}. A RocksDB store opens
   *   on first use; RockpointStore.open() opens it (and reports errors) at
   *   once. Bad options throw here, before anything is opened, except those
   *   the engine judges (index.hnsw.m outside 2 to 10000: InvalidArgument),
   *   which fail the open: here for an in-memory store, on open (or the
   *   first call) for a RocksDB one; nothing is written either way.
   */
  constructor(location = MEMORY) {
    super();
    this.#options = normalizeOptions(location);
    if (this.#options.path === MEMORY) {
      const native = new (loadNative().ItemStore)();
      try {
        native.openMemory(nativeOptions(this.#options));
      } catch (error) {
        const cause = withCode(error);
        throw openError(cause, "the in-memory store", cause.code);
      }
      this.#native = native;
    }
  }

  /**
   * Opens (or creates) the RocksDB store in directory `path` (or
   * ":memory:"), with options {index, ttl, syncWrites, readOnly,
   * createIfMissing}.
   */
  static async open(path, options = {}) {
    if (typeof path !== "string") {
      throw typeError(`open takes a directory path, got ${describe(path)}`);
    }
    if (!isObject(options)) {
      throw typeError(`options must be an object, got ${describe(options)}`);
    }
    if (Object.hasOwn(options, "path")) {
      throw typeError("options.path: give the path as open's first argument");
    }
    const store = new RockpointStore({ ...options, path });
    await store.#store();
    return store;
  }

  /** An in-memory store, with options {index, ttl}. */
  static memory(options = {}) {
    if (!isObject(options)) {
      throw typeError(`options must be an object, got ${describe(options)}`);
    }
    return new RockpointStore({ ...options, path: MEMORY });
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
   * The index options ({dims, embeddings, fields, exactSearchMaxVectors?,
   * hnsw?}), or undefined.
   */
  get indexConfig() {
    const index = this.#options.index;
    if (!index) return undefined;
    const out = { dims: index.dims, embeddings: index.embeddings, fields: [...index.fields] };
    if (index.exactSearchMaxVectors !== undefined) {
      out.exactSearchMaxVectors = index.exactSearchMaxVectors;
    }
    if (index.hnsw) out.hnsw = { ...index.hnsw };
    return out;
  }

  /** The TTL options ({defaultTtl?, refreshOnRead, sweepIntervalMinutes?}), or undefined. */
  get ttlConfig() {
    return this.#options.ttl;
  }

  async #store() {
    if (this.#native) return this.#native;
    if (this.#closed) throw closedError();
    if (!this.#opening) {
      const native = new (loadNative().ItemStore)();
      const path = this.#options.path;
      let opening;
      try {
        opening = native.open(`rocksdb:${path}`, nativeOptions(this.#options));
      } catch (error) {
        opening = Promise.reject(error);
      }
      this.#opening = opening.then(
        () => {
          this.#native = native;
          return native;
        },
        (error) => {
          this.#opening = null;  // a later call may retry.
          const code = typeof error.code === "string" ? error.code : "IOError";
          throw openError(error, `store ${path}`, code);
        },
      );
    }
    return this.#opening;
  }

  /** Tracks `promise` so close() waits for it; its rejection gets a code. */
  #track(promise) {
    const tracked = promise.then(undefined, (error) => {
      throw coded(error);
    });
    this.#inflight.add(tracked);
    const done = () => this.#inflight.delete(tracked);
    tracked.then(done, done);
    return tracked;
  }

  #checkOpen() {
    if (this.#closed) throw closedError();
  }

  /**
   * Runs LangGraph operations (GetOperation, PutOperation with optional
   * `ttl` (minutes; null: never expires) and `index`, SearchOperation with
   * optional `refreshTtl`, ListNamespacesOperation; Get also takes
   * `refreshTtl`): reads see the store as it was before the batch, then
   * its puts are written at once (the last put to a key wins). Any invalid
   * operation, or a failed embedding, rejects the whole batch and nothing
   * is written. Resolves to one result per operation: Item | null,
   * undefined, SearchItem[], string[][].
   */
  async batch(operations) {
    this.#checkOpen();
    let plan;
    try {
      plan = planBatch(operations, this.#options.index);
    } catch (error) {
      throw coded(error);
    }
    if (plan.ops.length === 0) return [];
    const needsEmbedding = plan.texts.size > 0 || plan.queries.size > 0;
    // Embeddings start now, while the batch waits for its turn.
    const prepared = needsEmbedding
      ? handled(embed(plan, this.#options.index))
      : null;
    // Gets, namespace listings and puts that do not wait for the disk
    // (syncWrites false, or the memory store) touch a few keys: they run on
    // the JS thread (batchNow), cheaper than a hop to the pool. Searches and
    // synced puts go to the pool.
    const waitsForDisk =
      this.#options.path !== MEMORY && this.#options.syncWrites !== false;
    const onThisThread = plan.ops.every(
      (op) =>
        op.kind === "get" ||
        op.kind === "list" ||
        (op.kind === "put" && !waitsForDisk),
    );
    const run = async () => {
      const ops = prepared ? await prepared : plan.ops;
      const native = this.#native ?? (await this.#store());
      return onThisThread ? native.batchNow(ops) : native.batch(ops);
    };
    const raw = await this.#track(
      plan.writes ? this.#order.write(run) : this.#order.read(run),
    );
    return raw.map((result, i) => resultOf(result, plan.ops[i]));
  }

  /**
   * The item at (namespace, key), or null. `refreshTtl` (default true):
   * restart its TTL when the store's ttl.refreshOnRead is set.
   */
  async get(namespace, key, options = {}) {
    checkNamespace(namespace, { allowEmpty: true, allowReservedRoot: true });
    const op = { namespace, key };
    if (options?.refreshTtl !== undefined) op.refreshTtl = options.refreshTtl;
    return (await this.batch([op]))[0];
  }

  /**
   * Items under `namespacePrefix`: with `query` (needs an index) the most
   * similar first, each with its `score`; else the newest updated first.
   * Options: filter, limit (10), offset (0), query, refreshTtl (true).
   */
  async search(namespacePrefix, options = {}) {
    checkNamespace(
      namespacePrefix,
      { allowEmpty: true, allowReservedRoot: true },
      "namespacePrefix",
    );
    const { filter, limit = 10, offset = 0, query, refreshTtl } = options ?? {};
    const op = { namespacePrefix, filter, limit, offset, query };
    if (refreshTtl !== undefined) op.refreshTtl = refreshTtl;
    return (await this.batch([op]))[0];
  }

  /**
   * Stores `value` at (namespace, key), replacing the item there (its
   * createdAt kept). `index`: the paths to embed instead of the index's
   * fields, or false for none. `options.ttl`: minutes until it expires,
   * null for never; default: the store's ttl.defaultTtl.
   */
  async put(namespace, key, value, index, options) {
    checkNamespace(namespace);
    const op = { namespace, key, value, index };
    if (options !== undefined && options !== null) {
      if (!isObject(options)) {
        throw typeError(`put's options must be an object {ttl?}, got ${describe(options)}`);
      }
      if (Object.hasOwn(options, "ttl")) op.ttl = options.ttl;
    }
    await this.batch([op]);
  }

  /** Deletes the item at (namespace, key); a missing one is no error. */
  async delete(namespace, key) {
    checkNamespace(namespace, { allowEmpty: true, allowReservedRoot: true });
    await this.batch([{ namespace, key, value: null }]);
  }

  /**
   * The namespaces holding items, sorted; `prefix` / `suffix` ("*" matches
   * any label), `maxDepth` (truncate, then deduplicate), limit (100),
   * offset (0).
   */
  async listNamespaces(options = {}) {
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = options ?? {};
    const matchConditions = [];
    if (prefix) {
      checkNamespace(prefix, { allowEmpty: true, allowReservedRoot: true }, "prefix");
      matchConditions.push({ matchType: "prefix", path: prefix });
    }
    if (suffix) {
      checkNamespace(suffix, { allowEmpty: true, allowReservedRoot: true }, "suffix");
      matchConditions.push({ matchType: "suffix", path: suffix });
    }
    return (await this.batch([{ matchConditions, maxDepth, limit, offset }]))[0];
  }

  /**
   * Deletes every expired item now (expired items are never returned
   * anyway); resolves to how many. The background sweeper
   * (ttl.sweepIntervalMinutes) does the same on its own thread.
   */
  async sweepTtl() {
    this.#checkOpen();
    return this.#track(
      this.#order.write(async () => (await this.#store()).sweep()),
    );
  }

  /**
   * The vector index's state: {vectors (one per embedded field of every
   * item), approximateReady (whether the HNSW graph answers queries: built
   * in the background once vectors exceeds index.exactSearchMaxVectors)},
   * or null without an index.
   */
  async indexStats() {
    this.#checkOpen();
    return this.#track(
      this.#order.read(async () => (await this.#store()).indexStats()),
    );
  }

  /** Resolves once the store is open (rejects when it cannot be). */
  async start() {
    this.#checkOpen();
    await this.#track(this.#store());
  }

  /** Closes the store, as PostgresStore's stop() does. */
  async stop() {
    await this.close();
  }

  /**
   * Waits for the calls in flight, stops the sweeper and closes the store
   * (for RocksDB: releases its lock). Later calls reject with code
   * "Aborted". Idempotent.
   */
  async close() {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    this.#closing = (async () => {
      while (this.#inflight.size > 0) {
        await Promise.allSettled([...this.#inflight]);
      }
      await this.#order.idle();
      let native = this.#native;
      if (!native && this.#opening) native = await this.#opening.catch(() => null);
      this.#native = null;
      if (native) await native.close();
    })();
    return this.#closing;
  }
}
