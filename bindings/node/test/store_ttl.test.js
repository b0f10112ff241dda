// RockpointStore's TTLs, on RocksDB and in memory (PostgresStore's
// store.int.test.ts TTL cases, and Python's TTLConfig): a put's ttl, the
// store's defaultTtl, refreshOnRead, sweeps by sweepTtl() and in the
// background.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { BACKENDS, sleep } from "./store_fixture.js";

describe.each(BACKENDS)("RockpointStore on $name", (backend) => {
  let stores;
  let store;

  beforeEach(async () => {
    stores = backend.make();
    store = await stores.open();
  });

  afterEach(async () => {
    await stores.cleanup();
  });

  // ---- TTL (PostgresStore's TTL cases, and Python's TTLConfig) --------------

  describe("ttl", () => {
    it("keeps an item with a TTL until it expires", async () => {
      await store.put(["ttl", "custom"], "temp", { data: "temporary data" }, undefined, { ttl: 5 });
      expect((await store.get(["ttl", "custom"], "temp")).value).toEqual({ data: "temporary data" });
      expect(await store.sweepTtl()).toBe(0);
    });

    it("never returns an expired item; a sweep removes it", async () => {
      await store.put(["ttl"], "short", { v: 1 }, undefined, { ttl: 0.002 }); // 120 ms
      await store.put(["ttl"], "long", { v: 2 }, undefined, { ttl: 60 });
      await sleep(400);
      expect(await store.get(["ttl"], "short")).toBeNull();
      expect((await store.search(["ttl"])).map((item) => item.key)).toEqual(["long"]);
      // The namespace is listed until a sweep removes its expired items
      // (docs/STORE.md); here it still has "long".
      expect(await store.sweepTtl()).toBe(1);
      expect(await store.sweepTtl()).toBe(0);
      expect((await store.get(["ttl"], "long")).value).toEqual({ v: 2 });
    });

    it("lists a namespace of expired items until a sweep", async () => {
      await store.put(["expiring"], "k", { v: 1 }, undefined, { ttl: 0.002 });
      await sleep(400);
      expect(await store.search(["expiring"])).toEqual([]);
      expect(await store.listNamespaces({ prefix: ["expiring"] })).toEqual([["expiring"]]);
      expect(await store.sweepTtl()).toBe(1);
      expect(await store.listNamespaces({ prefix: ["expiring"] })).toEqual([]);
    });

    it("puts over an expired item as a new one", async () => {
      await store.put(["ttl"], "k", { v: 1 }, undefined, { ttl: 0.002 });
      const first = await store.get(["ttl"], "k");
      await sleep(400);
      await store.put(["ttl"], "k", { v: 2 });
      const second = await store.get(["ttl"], "k");
      expect(second.value).toEqual({ v: 2 });
      expect(second.createdAt.getTime()).toBeGreaterThan(first.createdAt.getTime());
    });

    it("applies the store's defaultTtl; ttl: null never expires", async () => {
      const short = await stores.open({ ttl: { defaultTtl: 0.002 } });
      expect(short.ttlConfig).toEqual({ defaultTtl: 0.002, refreshOnRead: true });
      await short.put(["d"], "default", { v: 1 });
      await short.put(["d"], "never", { v: 2 }, undefined, { ttl: null });
      await short.batch([{ namespace: ["d"], key: "own", value: { v: 3 }, ttl: 60 }]);
      await sleep(400);
      expect(await short.get(["d"], "default")).toBeNull();
      expect((await short.get(["d"], "never")).value).toEqual({ v: 2 });
      expect((await short.get(["d"], "own")).value).toEqual({ v: 3 });
      expect(await short.sweepTtl()).toBe(1);
    });

    it("takes PostgresStore's op form {options: {ttl}} and the snake_case TTLConfig", async () => {
      const short = await stores.open({ ttl: { default_ttl: 60, refresh_on_read: false } });
      expect(short.ttlConfig).toEqual({ defaultTtl: 60, refreshOnRead: false });
      await short.batch([{ namespace: ["p"], key: "k", value: { v: 1 }, options: { ttl: 0.002 } }]);
      await sleep(400);
      expect(await short.get(["p"], "k")).toBeNull();
    });

    it("restarts the TTL on reads with refreshOnRead (the default)", async () => {
      // ttl 0.02 minutes = 1.2 s; reads every 0.4 s keep it alive for 1.6 s.
      await store.put(["refresh"], "k", { v: 1 }, undefined, { ttl: 0.02 });
      for (let i = 0; i < 2; i++) {
        await sleep(400);
        expect(await store.get(["refresh"], "k")).not.toBeNull();
        await sleep(400);
        expect(await store.search(["refresh"])).toHaveLength(1);
      }
      // Reads with refreshTtl: false leave it to expire.
      await sleep(400);
      expect(await store.get(["refresh"], "k", { refreshTtl: false })).not.toBeNull();
      await sleep(500);
      expect(await store.search(["refresh"], { refreshTtl: false })).toHaveLength(1);
      await sleep(600);
      expect(await store.get(["refresh"], "k")).toBeNull();
    });

    it("does not restart the TTL without refreshOnRead", async () => {
      const plain = await stores.open({ ttl: { refreshOnRead: false } });
      await plain.put(["norefresh"], "k", { v: 1 }, undefined, { ttl: 0.02 });
      await sleep(700);
      expect(await plain.get(["norefresh"], "k")).not.toBeNull();
      await sleep(800);
      expect(await plain.get(["norefresh"], "k")).toBeNull();
    });

    it("sweeps in the background every sweepIntervalMinutes", async () => {
      const swept = await stores.open({
        ttl: { defaultTtl: 0.002, sweepIntervalMinutes: 0.005 }, // 120 ms, 300 ms
      });
      await swept.put(["bg"], "k1", { v: 1 });
      await swept.put(["bg"], "k2", { v: 2 });
      expect(await swept.listNamespaces()).toEqual([["bg"]]);
      let namespaces;
      for (let i = 0; i < 40; i++) {
        await sleep(100);
        namespaces = await swept.listNamespaces();
        if (namespaces.length === 0) break;
      }
      expect(namespaces).toEqual([]);
      expect(await swept.sweepTtl()).toBe(0);
    });
  });
});
