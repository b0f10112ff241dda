// RockpointStore on bad input, on RocksDB and in memory: every bad key,
// value, namespace, search or list argument, embedding and open option
// fails with a clear error (a TypeError, RangeError or InvalidNamespaceError
// with code "InvalidArgument", or the engine's InvalidArgument for what
// only the engine checks), and nothing is written.
import fs from "node:fs";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { RockpointStore, isRockpointError } from "../src/index.js";
import { freshDir } from "./initializers.js";
import { BACKENDS, DIMS, fakeEmbeddings, failure } from "./store_fixture.js";

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

  // ---- bad input: clear errors, nothing written ------------------------------

  describe("bad input", () => {
    const expectNothingWritten = async (s) => {
      expect(await s.search([], { limit: 100 })).toEqual([]);
    };

    it("refuses keys, values and namespaces of the wrong type", async () => {
      const cases = [
        [() => store.put(["ok"], 42, { v: 1 }), TypeError, /operations\[0\]\.key must be a string, got number 42/],
        [() => store.put(["ok"], "k", "text"), TypeError, /value must be an object \(or null to delete\), got the string "text"/],
        [() => store.put(["ok"], "k", [1, 2]), TypeError, /value must be an object/],
        [() => store.put(["ok"], "k", new Date()), TypeError, /value must be an object/],
        [() => store.put(["ok"], "k", { n: 10n }), TypeError, /value\.n: cannot store a bigint/],
        [() => store.put(["ok"], "k", { f() {} }), TypeError, /value\.f: cannot store a function/],
        [() => store.put(["ok"], "k", { x: NaN }), TypeError, /value\.x: cannot store NaN/],
        [() => store.put(["ok"], "k", { m: new Map() }), TypeError, /value\.m: cannot store a Map/],
        [() => store.put(["ok"], "k", { a: [new Float64Array(2)] }), TypeError, /value\.a\[0\]: cannot store a Float64Array/],
        [() => store.put(["ok"], "k", { __rockpoint_serde__: 1 }), TypeError, /key "__rockpoint_serde__" is reserved/],
        [() => store.batch([{ namespace: "ok", key: "k", value: {} }]), TypeError, /namespace must be an array of strings/],
        [() => store.batch([{ namespace: ["ok", 1], key: "k", value: {} }]), TypeError, /namespace\[1\] must be a string/],
        [() => store.batch([{ nonsense: true }]), TypeError, /is not a get, put, search or listNamespaces operation/],
        [() => store.batch("ops"), TypeError, /batch takes an array of operations/],
        [() => store.batch([{ namespace: ["ok"], key: "k", value: {}, ttl: "5" }]), TypeError, /ttl must be a number of minutes or null/],
        [() => store.put(["ok"], "k", {}, undefined, { ttl: 0 }), RangeError, /ttl must be a positive number of minutes, got 0/],
        [() => store.put(["ok"], "k", {}, undefined, { ttl: -1 }), RangeError, /got -1/],
        [() => store.put(["ok"], "k", {}, undefined, { ttl: Infinity }), RangeError, /got Infinity/],
        [() => store.put(["ok"], "k", {}, "title"), TypeError, /index must be an array of field paths/],
        [() => store.put(undefined, "k", {}), TypeError, /rockpoint: namespace must be an array of strings, got undefined/],
        [() => store.get("docs", "k"), TypeError, /namespace must be an array of strings, got the string "docs"/],
      ];
      for (const [call, type, message] of cases) {
        const error = await failure(call());
        expect(error).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
        expect(error.code).toBe("InvalidArgument");
        expect(isRockpointError(error)).toBe(true);
      }
      await expectNothingWritten(store);
    });

    it("refuses cyclic and too deep values", async () => {
      const cyclic = { a: 1 };
      cyclic.self = cyclic;
      await expect(store.put(["ok"], "k", cyclic)).rejects.toThrow(/nests deeper than 255/);
      let deep = {};
      for (let i = 0; i < 300; i++) deep = { d: deep };
      await expect(store.put(["ok"], "k", deep)).rejects.toThrow(/nests deeper than 255/);
      await expectNothingWritten(store);
    });

    it("refuses bad search and list arguments", async () => {
      const cases = [
        [() => store.search(["ok"], { limit: -1 }), RangeError, /limit must be an integer >= 0, got -1/],
        [() => store.search(["ok"], { limit: 1.5 }), RangeError, /limit must be an integer >= 0/],
        [() => store.search(["ok"], { offset: "2" }), TypeError, /offset must be an integer, got the string "2"/],
        [() => store.search(["ok"], { filter: "x" }), TypeError, /filter must be an object/],
        [() => store.search(["ok"], { filter: { a: { $foo: 1 } } }), Error, /unsupported operator "\$foo"/],
        [() => store.search(["ok"], { query: 42 }), TypeError, /query must be a string/],
        [() => store.listNamespaces({ maxDepth: 0 }), RangeError, /maxDepth must be an integer >= 1, got 0/],
        [() => store.search(null), TypeError, /namespacePrefix must be an array of strings, got null/],
        [() => store.listNamespaces({ prefix: "a" }), TypeError, /prefix must be an array of strings/],
        [() => store.listNamespaces({ limit: -5 }), RangeError, /limit must be an integer >= 0/],
        [
          () => store.batch([{ matchConditions: [{ matchType: "middle", path: ["a"] }], limit: 1, offset: 0 }]),
          RangeError,
          /matchType must be "prefix" or "suffix", got the string "middle"/,
        ],
      ];
      for (const [call, type, message] of cases) {
        const error = await failure(call());
        expect(error).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
        expect(error.code).toBe("InvalidArgument");
      }
    });

    it("refuses a query on a store without an index, writing nothing", async () => {
      // InMemoryStore ignores the query and PostgresStore falls back to
      // text search; rockpoint says the store has no index.
      const error = await failure(
        store.batch([
          { namespace: ["ok"], key: "k", value: { text: "tea" } },
          { namespacePrefix: ["ok"], query: "tea" },
        ]),
      );
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toMatch(/searches with a query, but the store has no index/);
      await expectNothingWritten(store);
      // A put's index paths on a store without an index are ignored, as in
      // InMemoryStore.
      await store.put(["ok"], "k", { text: "tea" }, ["text"]);
      expect((await store.get(["ok"], "k")).value).toEqual({ text: "tea" });
    });

    it("refuses vectors of the wrong length from the embeddings, writing nothing", async () => {
      const s = await stores.open({
        index: { dims: DIMS, embeddings: fakeEmbeddings(() => [1, 2, 3]), fields: ["text"] },
      });
      const error = await failure(
        s.batch([
          { namespace: ["v"], key: "plain", value: { other: 1 } },
          { namespace: ["v"], key: "k", value: { text: "tea" } },
        ]),
      );
      expect(error).toBeInstanceOf(RangeError);
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toBe(
        `rockpoint: index.embeddings returned a vector of 3 numbers for the text "tea"; index.dims is ${DIMS}`,
      );
      await expectNothingWritten(s);
      const query = await failure(s.search(["v"], { query: "tea" }));
      expect(query.message).toMatch(/returned a vector of 3 numbers for the query "tea"/);
    });

    it("refuses other bad embeddings, writing nothing", async () => {
      const bad = [
        [() => [1, NaN, 0, 0], TypeError, /holding number NaN at \[1\]/],
        [() => [1, "2", 0, 0], TypeError, /holding the string "2" at \[1\]/],
        [() => [1, 1e39, 0, 0], RangeError, /beyond a 32-bit float/],
        [() => "tea", TypeError, /returned the string "tea" for the text "tea"; expected an array of 4 numbers/],
      ];
      for (const [vectorOf, type, message] of bad) {
        const s = await stores.open({
          index: { dims: DIMS, embeddings: fakeEmbeddings(vectorOf), fields: ["text"] },
        });
        const error = await failure(s.put(["v"], "k", { text: "tea" }));
        expect(error).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
        await expectNothingWritten(s);
      }
      const short = await stores.open({
        index: { dims: DIMS, embed: async () => [], fields: ["text"] },
      });
      await expect(short.put(["v"], "k", { text: "tea" })).rejects.toThrow(
        "rockpoint: index.embeddings returned 0 vectors for 1 texts",
      );
      await expectNothingWritten(short);
    });

    it("passes an error of the embeddings on as it is, writing nothing", async () => {
      const boom = new Error("embedding service down");
      const s = await stores.open({
        index: {
          dims: DIMS,
          embed: async () => {
            throw boom;
          },
          fields: ["text"],
        },
      });
      expect(await failure(s.put(["v"], "k", { text: "tea" }))).toBe(boom);
      expect(boom.code).toBeUndefined();
      await expectNothingWritten(s);
    });

    it("refuses bad options before opening anything", async () => {
      const dir = freshDir("rockpoint-store-bad-");
      // The engine's error, wrapped as the open's.
      const hnswRange = (m) =>
        new RegExp(
          "^rockpoint: cannot open (the in-memory store|store .*): InvalidArgument: " +
            `index hnsw_links \\(M\\) must be from 2 to 10000, got ${m}$`,
        );
      const cases = [
        [{ index: { dims: 0, embed: fakeEmbeddings() } }, RangeError, /index\.dims must be an integer >= 1, got 0/],
        [{ index: { dims: "4", embed: fakeEmbeddings() } }, TypeError, /index\.dims must be an integer >= 1/],
        [{ index: { dims: 4 } }, TypeError, /index\.embeddings must be an Embeddings/],
        [{ index: { dims: 4, embeddings: {} } }, TypeError, /index\.embeddings must be an Embeddings/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), fields: "text" } }, TypeError, /index\.fields must be an array/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), distanceMetric: "l2" } }, TypeError, /index has no option "distanceMetric"/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), exactSearchMaxVectors: -1 } }, RangeError, /index\.exactSearchMaxVectors must be an integer >= 0/],
        // m's range is the engine's (OpenStore), refused before it opens.
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 1 } } }, Error, hnswRange(1)],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 0 } } }, Error, hnswRange(0)],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 10001 } } }, Error, hnswRange(10001)],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: "16" } } }, TypeError, /index\.hnsw\.m must be an integer, got the string "16"/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 2.5 } } }, RangeError, /index\.hnsw\.m must be an integer >= 0, got 2\.5/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: -1 } } }, RangeError, /index\.hnsw\.m must be an integer >= 0, got -1/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { ef: 0 } } }, RangeError, /index\.hnsw\.ef must be an integer >= 1/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { M: 16 } } }, TypeError, /index\.hnsw has no option "M"/],
        [{ ttl: { defaultTtl: -1 } }, RangeError, /ttl\.defaultTtl must be a positive number of minutes, got -1/],
        [{ ttl: { sweepIntervalMinutes: 0 } }, RangeError, /ttl\.sweepIntervalMinutes must be a positive number/],
        [{ ttl: { refreshOnRead: "yes" } }, TypeError, /ttl\.refreshOnRead must be a boolean/],
        [{ ttl: { defaultTtl: 1, default_ttl: 2 } }, TypeError, /ttl sets both defaultTtl and default_ttl/],
        [{ ttl: { strategy: "delete" } }, TypeError, /ttl has no option "strategy"/],
        [{ ttl: 5 }, TypeError, /ttl must be an object/],
        [{ unknown: 1 }, TypeError, /options has no option "unknown"/],
      ];
      for (const [options, type, message] of cases) {
        let error;
        try {
          if (backend.name === "memory") RockpointStore.memory(options);
          else await RockpointStore.open(dir, options);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(type);
        expect(error.message).toMatch(message);
        expect(error.code).toBe("InvalidArgument");
      }
      expect(fs.readdirSync(dir)).toEqual([]);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
});
