// CallOrder: makes engine calls of one saver take effect in the order they
// were made, per thread, although each runs on the libuv thread pool.
//
// LangGraph may issue put / putWrites without awaiting the previous call
// (async durability). A write on thread T starts only after every earlier
// write on T has settled; a read on T waits for the writes on T made before
// it (so it sees them) but not for other reads. Calls that span threads
// (copyThread, prune, deleteForRuns, list over all threads) wait for every
// earlier write, and a spanning write is waited for by every later call.
// Calls on different threads run concurrently (RocksDB groups their fsyncs).
//
// Each function passed in must return a promise (an async function).

const settle = () => undefined;

export class CallOrder {
  /** thread id -> promise of its last write (never rejects). */
  #tails = new Map();
  /** promise of the last spanning write (never rejects), or null. */
  #spanning = null;

  #gateFor(thread) {
    const tail = this.#tails.get(thread);
    if (tail && this.#spanning) return Promise.all([tail, this.#spanning]);
    return tail ?? this.#spanning;
  }

  #gateForAll() {
    const waits = [...this.#tails.values()];
    if (this.#spanning) waits.push(this.#spanning);
    return waits.length === 0 ? null : Promise.all(waits);
  }

  static #run(gate, fn) {
    return gate ? gate.then(fn) : fn();
  }

  /**
   * What a read of `thread` must wait for: a promise, or null when nothing
   * is pending (the read may then run at once, even synchronously).
   */
  pending(thread) {
    return this.#gateFor(thread) ?? null;
  }

  /** What a read of every thread must wait for, or null. */
  pendingAll() {
    return this.#gateForAll();
  }

  /** A write on `thread`. */
  write(thread, fn) {
    const run = CallOrder.#run(this.#gateFor(thread), fn);
    const tail = run.then(settle, settle);
    this.#tails.set(thread, tail);
    tail.then(() => {
      if (this.#tails.get(thread) === tail) this.#tails.delete(thread);
    });
    return run;
  }

  /** A read of `thread`. */
  read(thread, fn) {
    return CallOrder.#run(this.#gateFor(thread), fn);
  }

  /** A write that may touch any thread. */
  writeAll(fn) {
    const run = CallOrder.#run(this.#gateForAll(), fn);
    const tail = run.then(settle, settle);
    this.#spanning = tail;
    tail.then(() => {
      if (this.#spanning === tail) this.#spanning = null;
    });
    return run;
  }

  /** A read that may see any thread. */
  readAll(fn) {
    return CallOrder.#run(this.#gateForAll(), fn);
  }
}
