// The order of a RockpointStore's calls. Each batch runs on a libuv pool
// thread, where nothing orders them; StoreOrder makes them take effect in
// the order they were called. Not thread-safe: used on the JS thread only.

const settle = () => undefined;

/**
 * Batches take effect in call order: a write (a batch with puts, a sweep)
 * starts after every earlier call has settled; a read after the earlier
 * writes, concurrently with other reads.
 */
export class StoreOrder {
  /** The last write's settling (never rejects), or null. */
  #write = null;
  /** The settlings of the reads made since the last write. */
  #reads = new Set();

  /** Runs `fn` (() => Promise) after the earlier writes; returns its promise. */
  read(fn) {
    const run = this.#write ? this.#write.then(fn) : fn();
    const done = run.then(settle, settle);
    this.#reads.add(done);
    done.then(() => this.#reads.delete(done));
    return run;
  }

  /** Runs `fn` (() => Promise) after every earlier call; returns its promise. */
  write(fn) {
    const waits = [...this.#reads];
    if (this.#write) waits.push(this.#write);
    this.#reads.clear();
    const run = waits.length > 0 ? Promise.all(waits).then(fn) : fn();
    const done = run.then(settle, settle);
    this.#write = done;
    done.then(() => {
      if (this.#write === done) this.#write = null;
    });
    return run;
  }

  /** Settles once every call made so far has. */
  idle() {
    return Promise.all([...this.#reads, this.#write]);
  }
}
