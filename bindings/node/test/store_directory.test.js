// RockpointStore's RocksDB directory (reopened, locked, read-only, its
// index's dims fixed, shared with a saver, released by a process that
// exits without closing) and what is special to the in-memory store.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";

import { RockpointSaver, RockpointStore } from "../src/index.js";
import { freshDir } from "./initializers.js";
import { DIMS, fakeEmbeddings, failure } from "./store_fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

// ---- RocksDB only --------------------------------------------------------------

describe("RockpointStore on RocksDB: the directory", () => {
  let dir;

  beforeEach(() => {
    dir = freshDir("rockpoint-store-dir-");
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps items, times and vectors across a reopen", async () => {
    const options = { index: { dims: DIMS, embeddings: fakeEmbeddings(), fields: ["text"] } };
    const first = await RockpointStore.open(dir, options);
    await first.put(["users", "u1"], "pref", { text: "likes green tea" });
    await first.put(["users", "u1"], "pet", { text: "has a cat" });
    const before = await first.get(["users", "u1"], "pref");
    await first.close();

    const second = await RockpointStore.open(dir, options);
    try {
      const after = await second.get(["users", "u1"], "pref");
      expect(after).toEqual(before);
      const [best] = await second.search(["users"], { query: "what drink?" });
      expect(best.key).toBe("pref");
      expect(await second.listNamespaces()).toEqual([["users", "u1"]]);
    } finally {
      await second.close();
    }
  });

  it("opens lazily through the constructor", async () => {
    const store = new RockpointStore(dir);
    expect(store.kind).toBe("rocksdb");
    expect(store.path).toBe(dir);
    await store.put(["lazy"], "k", { v: 1 });
    expect((await store.get(["lazy"], "k")).value).toEqual({ v: 1 });
    await store.close();
  });

  it("is held by one store at a time (Busy), released by close", async () => {
    const first = await RockpointStore.open(dir);
    const error = await failure(RockpointStore.open(dir));
    expect(error.code).toBe("Busy");
    expect(error.message).toMatch(/^rockpoint: cannot open store .*: Busy: item store is already open/);
    await first.close();
    const second = await RockpointStore.open(dir);
    await second.close();
  });

  it("fixes the index's dims when first opened with one", async () => {
    const first = await RockpointStore.open(dir, {
      index: { dims: DIMS, embeddings: fakeEmbeddings(), fields: ["text"] },
    });
    await first.put(["d"], "k", { text: "tea" });
    await first.close();
    const error = await failure(
      RockpointStore.open(dir, { index: { dims: 8, embeddings: fakeEmbeddings() } }),
    );
    expect(error.code).toBe("InvalidArgument");
    expect(error.message).toMatch(/store's vectors have 4 dimensions, index asks for 8/);
    // Without an index it opens, reads, and refuses a query.
    const plain = await RockpointStore.open(dir);
    try {
      expect((await plain.get(["d"], "k")).value).toEqual({ text: "tea" });
      await expect(plain.search(["d"], { query: "tea" })).rejects.toThrow(/has no index/);
    } finally {
      await plain.close();
    }
  });

  it("opens read-only: reads work, writes and sweeps are refused", async () => {
    const writer = await RockpointStore.open(dir, { ttl: { defaultTtl: 60 } });
    await writer.put(["ro"], "k", { v: 1 });
    await writer.close();
    const reader = await RockpointStore.open(dir, { readOnly: true, ttl: { defaultTtl: 60 } });
    try {
      expect((await reader.get(["ro"], "k")).value).toEqual({ v: 1 });
      expect(await reader.search(["ro"])).toHaveLength(1);
      const put = await failure(reader.put(["ro"], "k2", { v: 2 }));
      expect(put.code).toBe("InvalidArgument");
      expect(put.message).toMatch(/store opened read-only/);
      const sweep = await failure(reader.sweepTtl());
      expect(sweep.message).toMatch(/store opened read-only/);
    } finally {
      await reader.close();
    }
    expect(() => new RockpointStore({ path: dir, readOnly: true, ttl: { sweepIntervalMinutes: 1 } })).toThrow(
      /ttl\.sweepIntervalMinutes needs a writable store/,
    );
    const missing = await failure(
      RockpointStore.open(`${dir}/none`, { createIfMissing: false }),
    );
    expect(missing.code).toBe("NotFound");
    expect(missing.message).toMatch(/no store at/);
  });

  it("shares a saver's directory: one open, each closes on its own", async () => {
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const putCheckpoint = (saver, x) =>
      saver.put(
        config,
        { ...emptyCheckpoint(), id: `checkpoint-${x}`, channel_values: { x }, channel_versions: { x } },
        { source: "loop", step: x, parents: {} },
        { x },
      );
    const latest = async (saver) => (await saver.getTuple(config)).checkpoint.channel_values.x;

    let saver = await RockpointSaver.open(dir);
    let store = await RockpointStore.open(dir);
    await putCheckpoint(saver, 1);
    await store.put(["users", "ada"], "prefs", { theme: "dark" });
    // A second open of either is Busy and changes nothing.
    expect((await failure(RockpointStore.open(dir))).code).toBe("Busy");
    expect((await failure(RockpointSaver.open(dir))).code).toBe("Busy");
    await saver.close();
    await store.put(["users", "ada"], "more", { n: 1 });
    saver = await RockpointSaver.open(dir);
    expect(await latest(saver)).toBe(1);
    await store.close();
    await putCheckpoint(saver, 2);
    await saver.close();

    // The store first this time: the last close released the directory.
    store = await RockpointStore.open(dir);
    saver = await RockpointSaver.open(dir);
    try {
      expect(await latest(saver)).toBe(2);
      expect((await store.get(["users", "ada"], "prefs")).value).toEqual({ theme: "dark" });
      expect(await store.listNamespaces()).toEqual([["users", "ada"]]);
    } finally {
      await saver.close();
      await store.close();
    }
  });

  it("keeps a store out of an encrypted saver's directory", async () => {
    const saver = await RockpointSaver.open(dir, { encryptionKey: Buffer.alloc(32, 7) });
    try {
      const error = await failure(RockpointStore.open(dir));
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toMatch(/encrypted checkpoint store/);
    } finally {
      await saver.close();
    }
  });

  it("does not keep a process that never closes a sweeping store from exiting", async () => {
    const script = `
      import { RockpointStore } from "./src/index.js";
      const ttl = { defaultTtl: 0.0001, sweepIntervalMinutes: 0.0001 };
      const stores = [
        await RockpointStore.open(process.argv[1], { ttl }),
        RockpointStore.memory({ ttl }),
      ];
      for (const store of stores) {
        for (let i = 0; i < 20; i++) await store.put(["exit"], "k" + i, { i });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log("done");
    `;
    const { stdout } = await run(
      process.execPath,
      ["--input-type=module", "-e", script, dir],
      { cwd: path.join(here, ".."), timeout: 60000 },
    );
    expect(stdout.trim()).toBe("done");
    // The directory was released (and holds a store that opens).
    const store = await RockpointStore.open(dir);
    await store.close();
  });

  it("takes syncWrites: false", async () => {
    const store = await RockpointStore.open(dir, { syncWrites: false });
    await store.put(["nosync"], "k", { v: 1 });
    expect((await store.get(["nosync"], "k")).value).toEqual({ v: 1 });
    await store.close();
  });
});

describe("RockpointStore.memory", () => {
  it("refuses the RocksDB options", () => {
    for (const key of ["syncWrites", "readOnly", "createIfMissing"]) {
      expect(() => RockpointStore.memory({ [key]: true })).toThrow(
        `rockpoint: ${key} is for a RocksDB store, not the in-memory one`,
      );
    }
    expect(RockpointStore.memory().kind).toBe("memory");
    expect(new RockpointStore().path).toBe(":memory:");
  });

  it("keeps stores apart", async () => {
    const a = RockpointStore.memory();
    const b = RockpointStore.memory();
    await a.put(["x"], "k", { v: 1 });
    expect(await b.get(["x"], "k")).toBeNull();
    await a.close();
    await b.close();
  });
});
