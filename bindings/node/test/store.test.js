// RockpointStore against LangGraph's store contract, on RocksDB (a fresh
// temporary directory per test) and in memory. The behaviours are those of
// LangGraph.js's own store tests (libs/checkpoint/src/tests/store.test.ts:
// BaseStore's methods, InMemoryStore) and PostgresStore's
// (libs/checkpoint-postgres/src/tests/store.int.test.ts: batches, CRUD,
// namespace rules, filters, pagination, TTL, vector search), rewritten for
// rockpoint. Where rockpoint differs on purpose (docs/STORE.md), the test
// says so and checks rockpoint's behaviour.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { RockpointSaver, RockpointStore, isRockpointError } from "../src/index.js";
import { textsAtPath, tokenizeFieldPath } from "../src/store/embed.js";
import { freshDir } from "./initializers.js";
import { BACKENDS, DIMS, fakeEmbeddings, fakeVector, sleep } from "./store_fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

/** The error `promise` rejects with (fails the test when it resolves). */
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const anyItem = (namespace, key, value) => ({
  value,
  key,
  namespace,
  createdAt: expect.any(Date),
  updatedAt: expect.any(Date),
});

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

  // ---- InMemoryStore's cases (store.test.ts) --------------------------------

  describe("items", () => {
    it("gets what was put", async () => {
      await store.put(["test"], "123", { value: 1 });
      expect(await store.get(["test"], "123")).toEqual(anyItem(["test"], "123", { value: 1 }));
    });

    it("searches a namespace, newest updated first", async () => {
      await store.put(["test"], "123", { value: 1 });
      await store.put(["test"], "456", { value: 2 });
      const found = await store.search(["test"]);
      // InMemoryStore returns insertion order; rockpoint (docs/STORE.md,
      // like PostgresStore's updated_at DESC) the newest updated first.
      expect(found.map((item) => item.key)).toEqual(["456", "123"]);
      expect(found[0]).toMatchObject({ value: { value: 2 }, namespace: ["test"] });
      expect(found[1]).toMatchObject({ value: { value: 1 }, namespace: ["test"] });
      expect(found[0].score).toBeUndefined();
    });

    it("deletes", async () => {
      await store.put(["test"], "123", { value: 1 });
      await store.delete(["test"], "123");
      expect(await store.get(["test"], "123")).toBeNull();
      // Deleting a missing item is no error.
      await store.delete(["test"], "123");
      await store.delete(["never"], "there");
    });

    it("returns null for a missing item", async () => {
      expect(await store.get(["crud", "missing"], "nope")).toBeNull();
      expect(await store.get([], "nope")).toBeNull();
    });

    it("updates an item, keeping createdAt and moving updatedAt", async () => {
      await store.put(["crud", "update"], "item", { foo: "bar" });
      const before = await store.get(["crud", "update"], "item");
      await sleep(5);
      await store.put(["crud", "update"], "item", { foo: "baz", extra: 123 });
      const after = await store.get(["crud", "update"], "item");
      expect(after.value).toEqual({ foo: "baz", extra: 123 });
      expect(after.createdAt.getTime()).toBe(before.createdAt.getTime());
      expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    });

    it("keeps JSON values as they were put", async () => {
      const value = {
        string: "test",
        number: 42,
        float: 1.5,
        negative: -7,
        big: Number.MAX_SAFE_INTEGER,
        boolean: true,
        null: null,
        array: [1, 2, 3, "four", null, { five: 5 }],
        nested: { deep: { value: "nested data" } },
        unicode: "h\u00e9llo \u{1F600}",
        "key with spaces": "ok",
        "": "empty key",
      };
      await store.put(["crud", "complex"], "item", value);
      expect((await store.get(["crud", "complex"], "item")).value).toEqual(value);
    });

    it("stores values as JSON.stringify sees them", async () => {
      const when = new Date("2024-05-06T07:08:09.000Z");
      await store.put(["json"], "k", {
        when,
        gone: undefined,
        list: [undefined, 1],
        bytes: new Uint8Array([0, 1, 255]),
        custom: { toJSON: () => ({ as: "json" }) },
        self: { toJSON() { return this; }, kept: 1 },
      });
      const { value } = await store.get(["json"], "k");
      // A Date is kept as its ISO string, as PostgresStore's JSON column
      // keeps it; undefined members are dropped, undefined items null.
      expect(value).toEqual({
        when: "2024-05-06T07:08:09.000Z",
        list: [null, 1],
        bytes: new Uint8Array([0, 1, 255]),
        custom: { as: "json" },
        self: { kept: 1 },
      });
      expect(Object.hasOwn(value, "gone")).toBe(false);
    });

    it("keeps a __proto__ key as an own property", async () => {
      const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
      await store.put(["json"], "proto", value);
      const { value: read } = await store.get(["json"], "proto");
      expect(Object.hasOwn(read, "__proto__")).toBe(true);
      expect(read.__proto__).toEqual({ polluted: true });
      expect({}.polluted).toBeUndefined();
    });

    it("keeps keys and labels of any characters but the namespace rules", async () => {
      const keys = ["", "a/b", "with:colon", "\u00fcml\u00e4ut", "x".repeat(500)];
      for (const key of keys) await store.put(["keys"], key, { key });
      for (const key of keys) {
        expect((await store.get(["keys"], key)).value).toEqual({ key });
      }
      // LangGraph.js's put() refuses ':' in labels (InMemoryStore joins
      // labels with ':'); rockpoint's engine keeps labels as bytes, so a
      // batch put may use one and get() cannot read it back, only batch().
      await expect(store.put(["a:b"], "k", { v: 1 })).rejects.toThrow(InvalidNamespaceError);
      await store.batch([{ namespace: ["a:b"], key: "k", value: { v: 1 } }]);
      const [item] = await store.batch([{ namespace: ["a:b"], key: "k" }]);
      expect(item.value).toEqual({ v: 1 });
    });
  });

  describe("namespace rules", () => {
    const doc = { foo: "bar" };

    it("refuses invalid namespaces in put", async () => {
      for (const namespace of [[], ["the", "thing.about"], ["some", "fun", ""], ["langgraph", "foo"]]) {
        const error = await failure(store.put(namespace, "foo", doc));
        expect(error).toBeInstanceOf(InvalidNamespaceError);
        expect(error.code).toBe("InvalidArgument");
      }
      await expect(store.put([], "k", doc)).rejects.toThrow("Namespace cannot be empty");
      await expect(store.put(["invalid.namespace"], "k", doc)).rejects.toThrow(
        "Namespace labels cannot contain periods",
      );
      await expect(store.put(["valid", ""], "k", doc)).rejects.toThrow(
        "Namespace labels cannot be empty strings",
      );
      await expect(store.put(["valid", 123], "k", doc)).rejects.toThrow(
        "Namespace labels must be strings",
      );
      await expect(store.put(["langgraph"], "k", doc)).rejects.toThrow(
        'Root label for namespace cannot be "langgraph"',
      );
      expect(await store.listNamespaces()).toEqual([]);
    });

    it("allows 'langgraph' below the root", async () => {
      await store.put(["foo", "langgraph", "foo"], "bar", doc);
      expect((await store.get(["foo", "langgraph", "foo"], "bar")).value).toEqual(doc);
      expect((await store.search(["foo", "langgraph", "foo"]))[0].value).toEqual(doc);
      await store.delete(["foo", "langgraph", "foo"], "bar");
      expect(await store.get(["foo", "langgraph", "foo"], "bar")).toBeNull();
    });

    it("refuses the 'langgraph' root in batch() puts too", async () => {
      // InMemoryStore lets batch() write under ("langgraph", ...), which its
      // put() refuses; rockpoint's engine refuses it in every put (the root
      // is LangGraph's own), so reading it finds nothing and deleting it is
      // refused like the put.
      const error = await failure(
        store.batch([{ namespace: ["langgraph", "foo"], key: "bar", value: doc }]),
      );
      expect(error).toBeInstanceOf(InvalidNamespaceError);
      expect(await store.get(["langgraph", "foo"], "bar")).toBeNull();
      expect(await store.search(["langgraph", "foo"])).toEqual([]);
      await expect(store.delete(["langgraph", "foo"], "bar")).rejects.toThrow(
        'Root label for namespace cannot be "langgraph"',
      );
    });
  });

  // ---- BaseStore's listNamespaces cases (store.test.ts), on real items ------

  describe("listNamespaces", () => {
    beforeEach(async () => {
      await store.batch([
        { namespace: ["a", "b", "c"], key: "1", value: { v: 1 } },
        { namespace: ["a", "b", "d"], key: "2", value: { v: 2 } },
        { namespace: ["a", "c", "e"], key: "3", value: { v: 3 } },
        { namespace: ["x", "y", "z"], key: "4", value: { v: 4 } },
      ]);
    });

    it("lists every namespace holding items, sorted", async () => {
      const all = [["a", "b", "c"], ["a", "b", "d"], ["a", "c", "e"], ["x", "y", "z"]];
      expect(await store.listNamespaces({})).toEqual(all);
      expect(await store.listNamespaces()).toEqual(all);
    });

    it("filters by prefix and by suffix", async () => {
      expect(await store.listNamespaces({ prefix: ["a"] })).toEqual([
        ["a", "b", "c"],
        ["a", "b", "d"],
        ["a", "c", "e"],
      ]);
      expect(await store.listNamespaces({ suffix: ["d"] })).toEqual([["a", "b", "d"]]);
    });

    it("truncates to maxDepth and removes duplicates", async () => {
      // BaseStore's mock keeps duplicates; a real store (InMemoryStore,
      // rockpoint) lists each truncated namespace once.
      expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
        ["a", "b"],
        ["a", "c"],
        ["x", "y"],
      ]);
      expect(await store.listNamespaces({ maxDepth: 5 })).toHaveLength(4);
    });

    it("pages with limit and offset", async () => {
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
        ["a", "b", "d"],
        ["a", "c", "e"],
      ]);
      expect(await store.listNamespaces({ limit: 0 })).toEqual([]);
      expect(await store.listNamespaces({ offset: 10 })).toEqual([]);
    });

    it("combines prefix, suffix and maxDepth", async () => {
      expect(
        await store.listNamespaces({ prefix: ["a"], suffix: ["c"], maxDepth: 2 }),
      ).toEqual([["a", "b"]]);
    });

    it("matches '*' as any one label", async () => {
      expect(await store.listNamespaces({ prefix: ["a", "*", "c"] })).toEqual([["a", "b", "c"]]);
      expect(await store.listNamespaces({ suffix: ["*", "z"] })).toEqual([["x", "y", "z"]]);
      expect(await store.listNamespaces({ prefix: ["*", "*", "*", "*"] })).toEqual([]);
    });

    it("returns [] when nothing matches", async () => {
      expect(await store.listNamespaces({ prefix: ["non", "existent"] })).toEqual([]);
    });

    it("drops a namespace once its last item is deleted", async () => {
      await store.delete(["x", "y", "z"], "4");
      expect(await store.listNamespaces({ prefix: ["x"] })).toEqual([]);
    });

    it("hands batch() LangGraph's ListNamespacesOperation", async () => {
      const batch = vi.spyOn(store, "batch");
      await store.listNamespaces({ prefix: ["a"], suffix: ["c"], maxDepth: 2, limit: 5, offset: 1 });
      expect(batch).toHaveBeenCalledWith([
        {
          matchConditions: [
            { matchType: "prefix", path: ["a"] },
            { matchType: "suffix", path: ["c"] },
          ],
          maxDepth: 2,
          limit: 5,
          offset: 1,
        },
      ]);
    });

    it("hands batch() LangGraph's SearchOperation, with its defaults", async () => {
      const batch = vi.spyOn(store, "batch");
      await store.search(["test"]);
      expect(batch).toHaveBeenLastCalledWith([{ namespacePrefix: ["test"], limit: 10, offset: 0 }]);
      await store.search(["test"], { limit: 20, offset: 5, filter: { key: "value" } });
      expect(batch).toHaveBeenLastCalledWith([
        { namespacePrefix: ["test"], limit: 20, offset: 5, filter: { key: "value" } },
      ]);
    });
  });

  // ---- batches (PostgresStore's batch cases) ---------------------------------

  describe("batch", () => {
    it("runs puts and gets; reads see the store as it was before the batch", async () => {
      const results = await store.batch([
        { namespace: ["batch"], key: "item1", value: { data: "first" } },
        { namespace: ["batch"], key: "item2", value: { data: "second" } },
        { namespace: ["batch"], key: "item1" },
      ]);
      expect(results).toHaveLength(3);
      expect(results[0]).toBeUndefined();
      expect(results[1]).toBeUndefined();
      // PostgresStore runs the ops one by one, so its get sees item1;
      // rockpoint (like InMemoryStore and LangGraph's Python stores) reads
      // first and writes the batch's puts after, atomically.
      expect(results[2]).toBeNull();
      const [item1, item2] = await store.batch([
        { namespace: ["batch"], key: "item1" },
        { namespace: ["batch"], key: "item2" },
      ]);
      expect(item1.value).toEqual({ data: "first" });
      expect(item2.value).toEqual({ data: "second" });
    });

    it("fails whole when one op is invalid, writing nothing", async () => {
      await expect(
        store.batch([
          { namespace: ["batch"], key: "item1", value: { data: "first" } },
          { namespace: [], key: "item2", value: { data: "invalid" } },
          { namespace: ["batch"], key: "item1" },
        ]),
      ).rejects.toThrow("Namespace cannot be empty");
      expect(await store.get(["batch"], "item1")).toBeNull();
    });

    it("fails whole when the engine refuses an op, writing nothing", async () => {
      const error = await failure(
        store.batch([
          { namespace: ["batch"], key: "ok", value: { data: 1 } },
          { namespacePrefix: ["batch"], filter: { data: { $regex: "x" } } },
        ]),
      );
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toMatch(/unsupported operator "\$regex"/);
      expect(await store.get(["batch"], "ok")).toBeNull();
    });

    it("lets the last put to a key win", async () => {
      await store.batch([
        { namespace: ["batch"], key: "k", value: { n: 1 } },
        { namespace: ["batch"], key: "k", value: { n: 2 } },
        { namespace: ["batch"], key: "gone", value: { n: 3 } },
        { namespace: ["batch"], key: "gone", value: null },
      ]);
      expect((await store.get(["batch"], "k")).value).toEqual({ n: 2 });
      expect(await store.get(["batch"], "gone")).toBeNull();
    });

    it("answers every kind of op in one batch, in order", async () => {
      await store.put(["mixed", "a"], "1", { v: 1 });
      const [got, found, namespaces, put] = await store.batch([
        { namespace: ["mixed", "a"], key: "1" },
        { namespacePrefix: ["mixed"], limit: 5, offset: 0 },
        { matchConditions: [{ matchType: "prefix", path: ["mixed"] }], limit: 10, offset: 0 },
        { namespace: ["mixed", "b"], key: "2", value: { v: 2 } },
      ]);
      expect(got.value).toEqual({ v: 1 });
      expect(found.map((item) => item.key)).toEqual(["1"]);
      expect(namespaces).toEqual([["mixed", "a"]]);
      expect(put).toBeUndefined();
      expect(await store.listNamespaces({ prefix: ["mixed"] })).toEqual([
        ["mixed", "a"],
        ["mixed", "b"],
      ]);
    });

    it("resolves an empty batch to []", async () => {
      expect(await store.batch([])).toEqual([]);
    });

    it("applies calls in the order they were made", async () => {
      // Neither awaited before the next: the later put wins, and a get made
      // after them sees it; a get made before sees the store before.
      const before = store.get(["order"], "k");
      const writes = [1, 2, 3, 4, 5].map((n) => store.put(["order"], "k", { n }));
      const after = store.get(["order"], "k");
      await Promise.all(writes);
      expect(await before).toBeNull();
      expect((await after).value).toEqual({ n: 5 });
    });

    it("runs many concurrent batches", async () => {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.put(["many", String(i % 5)], `k${i}`, { i })),
      );
      const found = await store.search(["many"], { limit: 100 });
      expect(found).toHaveLength(50);
      expect(await store.listNamespaces({ prefix: ["many"] })).toHaveLength(5);
    });
  });

  // ---- search: filters and pages (PostgresStore's search cases) --------------

  describe("search", () => {
    beforeEach(async () => {
      await store.put(["docs"], "doc1", {
        title: "JavaScript Guide",
        category: "programming",
        difficulty: "beginner",
        rating: 4,
        tags: ["javascript", "web", "tutorial"],
        meta: { lang: "en", pages: 120 },
      });
      await store.put(["docs"], "doc2", {
        title: "TypeScript Handbook",
        category: "programming",
        difficulty: "intermediate",
        rating: 4.5,
        tags: ["typescript", "javascript", "types"],
        meta: { lang: "en", pages: 300 },
      });
      await store.put(["docs"], "doc3", {
        title: "Python Basics",
        category: "programming",
        difficulty: "beginner",
        rating: 3,
        tags: ["python", "basics"],
        meta: { lang: "de", pages: 80 },
        draft: true,
      });
      await store.put(["recipes"], "recipe1", {
        title: "Chocolate Cake",
        category: "dessert",
        difficulty: "easy",
        rating: 5,
      });
    });

    const keys = (items) => items.map((item) => item.key).sort();

    it("searches a prefix, label by label", async () => {
      const found = await store.search(["docs"]);
      expect(keys(found)).toEqual(["doc1", "doc2", "doc3"]);
      expect(found.every((item) => item.namespace[0] === "docs")).toBe(true);
      expect(await store.search(["doc"])).toEqual([]);
      expect(await store.search(["nonexistent"])).toEqual([]);
      expect(await store.search([], { limit: 100 })).toHaveLength(4);
    });

    it("filters by equality", async () => {
      const found = await store.search(["docs"], { filter: { category: "programming" } });
      expect(found).toHaveLength(3);
      expect(keys(await store.search(["docs"], { filter: { difficulty: "beginner", rating: 3 } }))).toEqual(
        ["doc3"],
      );
      expect(await store.search(["docs"], { filter: { category: "dessert" } })).toEqual([]);
    });

    it("filters with $eq, $ne, $gt, $gte, $lt, $lte", async () => {
      expect(keys(await store.search(["docs"], { filter: { difficulty: { $eq: "beginner" } } }))).toEqual(
        ["doc1", "doc3"],
      );
      expect(
        keys(
          await store.search(["docs"], {
            filter: { category: "programming", difficulty: { $ne: "beginner" } },
          }),
        ),
      ).toEqual(["doc2"]);
      expect(keys(await store.search(["docs"], { filter: { rating: { $gt: 4 } } }))).toEqual(["doc2"]);
      expect(keys(await store.search(["docs"], { filter: { rating: { $gte: 4 } } }))).toEqual([
        "doc1",
        "doc2",
      ]);
      expect(keys(await store.search(["docs"], { filter: { rating: { $lt: 4 } } }))).toEqual(["doc3"]);
      expect(keys(await store.search(["docs"], { filter: { rating: { $gte: 3, $lte: 4 } } }))).toEqual([
        "doc1",
        "doc3",
      ]);
    });

    it("compares as JSON (docs/STORE.md)", async () => {
      // Strings order by bytes: InMemoryStore's $gt converts both sides
      // with Number() and never matches strings; rockpoint, like the SQL
      // stores, compares them.
      expect(keys(await store.search(["docs"], { filter: { title: { $gt: "P" } } }))).toEqual([
        "doc2",
        "doc3",
      ]);
      // A number never orders against a string, and a missing field never
      // orders (InMemoryStore: Number(undefined) is NaN, also no match).
      expect(await store.search(["docs"], { filter: { title: { $gt: 1 } } })).toEqual([]);
      expect(await store.search(["docs"], { filter: { missing: { $lt: 10 } } })).toEqual([]);
      // A missing field is not equal to a value ($ne holds) and equals null.
      expect(keys(await store.search(["docs"], { filter: { draft: { $ne: true } } }))).toEqual([
        "doc1",
        "doc2",
      ]);
      expect(keys(await store.search(["docs"], { filter: { draft: null } }))).toEqual([
        "doc1",
        "doc2",
      ]);
      // A bool is never a number (true != 1).
      expect(await store.search(["docs"], { filter: { draft: 1 } })).toEqual([]);
      // Arrays compare deeply, and an object without operators matches
      // nested fields; InMemoryStore compares both with ===, so neither
      // ever matches there.
      expect(
        keys(await store.search(["docs"], { filter: { tags: ["python", "basics"] } })),
      ).toEqual(["doc3"]);
      expect(keys(await store.search(["docs"], { filter: { meta: { lang: "en" } } }))).toEqual([
        "doc1",
        "doc2",
      ]);
      expect(
        keys(await store.search(["docs"], { filter: { meta: { pages: { $gt: 100 } } } })),
      ).toEqual(["doc1", "doc2"]);
      // 4 == 4.0: the stored double 4.5 and integer 4 compare as numbers.
      expect(keys(await store.search(["docs"], { filter: { rating: 4.0 } }))).toEqual(["doc1"]);
    });

    it("refuses $in and $nin, which the engine does not have", async () => {
      // InMemoryStore and PostgresStore (JS) take $in / $nin; rockpoint has
      // the six operators of LangGraph's Python stores and refuses others,
      // writing nothing, rather than ignoring them.
      for (const filter of [{ difficulty: { $in: ["beginner"] } }, { rating: { $nin: [3] } }]) {
        const error = await failure(store.search(["docs"], { filter }));
        expect(error.code).toBe("InvalidArgument");
        expect(error.message).toMatch(/unsupported operator "\$n?in" \(supported: \$eq \$ne \$gt \$gte \$lt \$lte\)/);
      }
    });

    it("pages with limit and offset, without overlap", async () => {
      const page1 = await store.search(["docs"], { limit: 2, offset: 0 });
      const page2 = await store.search(["docs"], { limit: 2, offset: 2 });
      expect(page1).toHaveLength(2);
      expect(page2).toHaveLength(1);
      const seen = [...page1, ...page2].map((item) => item.key);
      expect(new Set(seen).size).toBe(3);
      // Newest updated first: doc3 was put last.
      expect(page1.map((item) => item.key)).toEqual(["doc3", "doc2"]);
      expect(await store.search(["docs"], { limit: 0 })).toEqual([]);
      expect(await store.search(["docs"], { offset: 3 })).toEqual([]);
    });

    it("reorders by the last update", async () => {
      await store.put(["docs"], "doc1", { title: "JavaScript Guide, 2nd edition" });
      expect((await store.search(["docs"], { limit: 1 }))[0].key).toBe("doc1");
    });
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

  // ---- vector search (PostgresStore's vector cases, InMemoryStore's fields) --

  describe("vector search", () => {
    let embeddings;
    let vstore;

    beforeEach(async () => {
      embeddings = fakeEmbeddings();
      vstore = await stores.open({
        index: { dims: DIMS, embeddings, fields: ["content", "title"] },
      });
    });

    it("ranks by cosine similarity, best first, with scores", async () => {
      await vstore.put(["docs"], "tea", { title: "Morning", content: "tea and coffee" });
      await vstore.put(["docs"], "code", { title: "Work", content: "rust compiler code" });
      await vstore.put(["docs"], "pets", { title: "Home", content: "my cat and dog" });
      const found = await vstore.search(["docs"], { query: "which drink: tea?" });
      // "pets" and "code" tie (their titles score the same); docs/STORE.md
      // leaves the order of equal scores open.
      expect(found[0].key).toBe("tea");
      expect(found.slice(1).map((item) => item.key).sort()).toEqual(["code", "pets"]);
      expect(found[1].score).toBeCloseTo(found[2].score, 6);
      for (const item of found) expect(typeof item.score).toBe("number");
      for (let i = 1; i < found.length; i++) {
        expect(found[i - 1].score).toBeGreaterThanOrEqual(found[i].score);
      }
      expect(embeddings.calls.queries).toEqual(["which drink: tea?"]);
      // The best score of the item's vectors: "content" matches exactly.
      const cosine = (a, b) => {
        const dot = a.reduce((s, x, i) => s + x * b[i], 0);
        const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
        return dot / (norm(a) * norm(b));
      };
      const expected = Math.max(
        cosine(fakeVector("which drink: tea?"), fakeVector("tea and coffee")),
        cosine(fakeVector("which drink: tea?"), fakeVector("Morning")),
      );
      expect(found[0].score).toBeCloseTo(expected, 5);
    });

    it("pages and filters a similarity search", async () => {
      // k<i> has i words on tea and 6 - i on pets: the higher i, the
      // closer to "tea".
      for (let i = 0; i < 6; i++) {
        await vstore.put(["many"], `k${i}`, {
          content: `${"tea ".repeat(i)}${"cat ".repeat(6 - i)}`,
          even: i % 2 === 0,
        });
      }
      const all = await vstore.search(["many"], { query: "tea", limit: 10 });
      expect(all.map((item) => item.key)).toEqual(["k5", "k4", "k3", "k2", "k1", "k0"]);
      const page = await vstore.search(["many"], { query: "tea", limit: 2, offset: 2 });
      expect(page.map((item) => item.key)).toEqual(["k3", "k2"]);
      const even = await vstore.search(["many"], { query: "tea", filter: { even: true } });
      expect(even.map((item) => item.key)).toEqual(["k4", "k2", "k0"]);
    });

    it("embeds the index's fields only, each text once per batch", async () => {
      await vstore.batch([
        { namespace: ["f"], key: "a", value: { title: "tea", content: "cat", other: "code" } },
        { namespace: ["f"], key: "b", value: { title: "tea", content: "dog" } },
      ]);
      expect(embeddings.calls.documents).toEqual([["cat", "tea", "dog"]]);
    });

    it("embeds a put's own index paths instead", async () => {
      await vstore.put(
        ["vectors", "selective"],
        "doc1",
        {
          title: "Indexed Title",
          content: "Not indexed content",
          summary: "Indexed summary",
          metadata: { author: "Test Author" },
        },
        ["title", "summary"],
      );
      expect(embeddings.calls.documents).toHaveLength(1);
      const texts = embeddings.calls.documents[0];
      expect(texts).toContain("Indexed Title");
      expect(texts).toContain("Indexed summary");
      expect(texts).not.toContain("Not indexed content");
      const found = await vstore.search(["vectors", "selective"], { query: "indexed summary" });
      expect(found.map((item) => item.key)).toEqual(["doc1"]);
      expect(typeof found[0].score).toBe("number");
    });

    it("takes both a TTL and index paths", async () => {
      await vstore.put(
        ["vectors", "combined"],
        "doc1",
        { title: "Combined Options Test", content: "Testing both TTL and indexing options" },
        ["title"],
        { ttl: 10 },
      );
      expect(embeddings.calls.documents).toEqual([["Combined Options Test"]]);
      expect((await vstore.get(["vectors", "combined"], "doc1")).value.title).toBe(
        "Combined Options Test",
      );
    });

    it("with index: false embeds nothing; the item follows the scored ones", async () => {
      await vstore.put(["mix"], "scored", { content: "tea" });
      await vstore.put(["mix"], "plain", { title: "Not indexed", content: "tea" }, false);
      expect(embeddings.calls.documents).toEqual([["tea"]]);
      const found = await vstore.search(["mix"], { query: "tea" });
      // PostgresStore's vector search leaves unembedded items out;
      // rockpoint, like InMemoryStore, lists them after the scored ones,
      // newest first, without a score (docs/STORE.md).
      expect(found.map((item) => [item.key, item.score === undefined])).toEqual([
        ["scored", false],
        ["plain", true],
      ]);
    });

    it("replaces an item's vectors on every put", async () => {
      await vstore.put(["re"], "k", { content: "tea" });
      await vstore.put(["re"], "other", { content: "coffee tea" });
      await vstore.put(["re"], "k", { content: "tea" }, false);
      const found = await vstore.search(["re"], { query: "tea" });
      expect(found.map((item) => [item.key, item.score === undefined])).toEqual([
        ["other", false],
        ["k", true],
      ]);
    });

    it("embeds the whole value with the default fields ['$']", async () => {
      const whole = fakeEmbeddings();
      const s = await stores.open({ index: { dims: DIMS, embed: whole } });
      expect(s.indexConfig).toMatchObject({ dims: DIMS, fields: ["$"] });
      const value = { text: "tea", n: 1 };
      await s.put(["w"], "k", value);
      expect(whole.calls.documents).toEqual([[JSON.stringify(value, null, 2)]]);
      expect((await s.search(["w"], { query: "tea" }))[0].score).toBeGreaterThan(0.9);
    });

    it("takes an embed function (texts) => vectors", async () => {
      const seen = [];
      const s = await stores.open({
        index: {
          dims: DIMS,
          embed: async (texts) => {
            seen.push(texts);
            return texts.map(fakeVector);
          },
          fields: ["text"],
        },
      });
      await s.put(["fn"], "k", { text: "dog" });
      const [hit] = await s.search(["fn"], { query: "pets" });
      expect(hit.key).toBe("k");
      expect(seen).toEqual([["dog"], ["pets"]]);
    });

    it("names a vector per text of a path with several", async () => {
      const s = await stores.open({
        index: { dims: DIMS, embeddings: fakeEmbeddings(), fields: ["tags[*]", "meta.title"] },
      });
      await s.put(["paths"], "k", { tags: ["tea", "code"], meta: { title: "dog" } });
      await s.put(["paths"], "other", { tags: ["coffee tea"], meta: { title: "x" } });
      // "k" has vectors tags[*].0 (tea), tags[*].1 (code) and meta.title; a
      // query on code finds it by its best vector.
      expect((await s.search(["paths"], { query: "rust code" }))[0].key).toBe("k");
      expect((await s.search(["paths"], { query: "dogs" }))[0].key).toBe("k");
    });

    it("answers from the HNSW graph above exactSearchMaxVectors, as exact search does", async () => {
      const index = (extra) => ({
        index: { dims: DIMS, embeddings: fakeEmbeddings(), fields: ["content"], ...extra },
      });
      const approx = await stores.open(
        index({ exactSearchMaxVectors: 10, hnsw: { m: 8, efConstruction: 64, ef: 64 } }),
      );
      const exact = await stores.open(index({}));
      expect(approx.indexConfig).toMatchObject({
        exactSearchMaxVectors: 10,
        hnsw: { m: 8, efConstruction: 64, ef: 64 },
      });
      const ops = Array.from({ length: 60 }, (_, i) => ({
        namespace: ["h", String(i % 3)],
        key: `k${i}`,
        value: {
          content: `${"tea ".repeat(i % 7)}${"code ".repeat(i % 5)}${"cat ".repeat(i % 4)}`,
        },
      }));
      await approx.batch(ops);
      await exact.batch(ops);
      let stats;
      for (let i = 0; i < 100; i++) {
        stats = await approx.indexStats();
        if (stats.approximateReady) break;
        await sleep(50);
      }
      expect(stats).toEqual({ vectors: 60, approximateReady: true });
      expect(await exact.indexStats()).toEqual({ vectors: 60, approximateReady: false });
      const scores = (items) => items.map((item) => item.score);
      for (const [prefix, query] of [
        [["h"], "tea"],
        [["h"], "code and cats"],
        [["h", "1"], "tea tea code"],
      ]) {
        const fromGraph = await approx.search(prefix, { query, limit: 5, offset: 1 });
        const exhaustive = await exact.search(prefix, { query, limit: 5, offset: 1 });
        // Many items tie, so the keys may differ among equal scores; the
        // scores are the exact ones.
        expect(fromGraph).toHaveLength(5);
        scores(fromGraph).forEach((score, i) => expect(score).toBeCloseTo(scores(exhaustive)[i], 5));
        expect(fromGraph.every((item) => item.namespace.join("/").startsWith(prefix.join("/")))).toBe(
          true,
        );
      }
      expect(await store.indexStats()).toBeNull();
    });

    it("treats an empty query as none", async () => {
      await vstore.put(["q"], "k", { content: "tea" });
      const [item] = await vstore.search(["q"], { query: "" });
      expect(item.score).toBeUndefined();
      expect(embeddings.calls.queries).toEqual([]);
    });
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
      const cases = [
        [{ index: { dims: 0, embed: fakeEmbeddings() } }, RangeError, /index\.dims must be an integer >= 1, got 0/],
        [{ index: { dims: "4", embed: fakeEmbeddings() } }, TypeError, /index\.dims must be an integer >= 1/],
        [{ index: { dims: 4 } }, TypeError, /index\.embeddings must be an Embeddings/],
        [{ index: { dims: 4, embeddings: {} } }, TypeError, /index\.embeddings must be an Embeddings/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), fields: "text" } }, TypeError, /index\.fields must be an array/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), distanceMetric: "l2" } }, TypeError, /index has no option "distanceMetric"/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), exactSearchMaxVectors: -1 } }, RangeError, /index\.exactSearchMaxVectors must be an integer >= 0/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 1 } } }, RangeError, /index\.hnsw\.m must be an integer >= 2, got 1/],
        [{ index: { dims: 4, embed: fakeEmbeddings(), hnsw: { m: 20000 } } }, RangeError, /index\.hnsw\.m must be at most 10000/],
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

  describe("lifecycle", () => {
    it("rejects calls after close, with code Aborted; close is idempotent", async () => {
      await store.put(["life"], "k", { v: 1 });
      await store.close();
      await store.close();
      expect(store.kind).toBe("closed");
      for (const call of [
        () => store.get(["life"], "k"),
        () => store.put(["life"], "k", { v: 2 }),
        () => store.search(["life"]),
        () => store.listNamespaces(),
        () => store.sweepTtl(),
        () => store.indexStats(),
        () => store.start(),
      ]) {
        const error = await failure(call());
        expect(error.code).toBe("Aborted");
        expect(error.message).toBe("rockpoint: the store is closed");
      }
    });

    it("waits for the calls in flight before closing", async () => {
      const writes = Array.from({ length: 20 }, (_, i) => store.put(["fly"], `k${i}`, { i }));
      const closing = store.close();
      await Promise.all(writes);
      await closing;
    });

    it("start() resolves once open; stop() closes", async () => {
      await store.start();
      expect(store.kind).toBe(backend.name);
      await store.stop();
      expect(store.kind).toBe("closed");
    });
  });
});

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
    expect(error.message).toMatch(/^rockpoint: cannot open store .*: Busy: store is locked/);
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

  it("refuses a checkpoint store's directory: a store keeps its own", async () => {
    const saver = await RockpointSaver.open(dir);
    await saver.close();
    const error = await failure(RockpointStore.open(dir));
    expect(error.code).toBe("InvalidArgument");
    expect(error.message).toMatch(/checkpoint store keeps its own directory/);
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

describe("field paths (InMemoryStore's getTextAtPath)", () => {
  const value = {
    title: "T",
    n: 3,
    ok: true,
    none: null,
    tags: ["a", "b", 7],
    chapters: [{ body: "one" }, { body: "two" }],
    meta: { title: "M", nested: { deep: "D" } },
  };

  it("tokenizes names, [index] and {fields} steps", () => {
    expect(tokenizeFieldPath("chapters[*].body")).toEqual(["chapters", "[*]", "body"]);
    expect(tokenizeFieldPath("meta.{title,nested.deep}")).toEqual(["meta", "{title,nested.deep}"]);
    expect(tokenizeFieldPath("a..b")).toEqual(["a", "b"]);
  });

  it("finds the texts at a path", () => {
    expect(textsAtPath(value, "title")).toEqual(["T"]);
    expect(textsAtPath(value, "n")).toEqual(["3"]);
    expect(textsAtPath(value, "ok")).toEqual(["true"]);
    expect(textsAtPath(value, "none")).toEqual([]);
    expect(textsAtPath(value, "missing.x")).toEqual([]);
    expect(textsAtPath(value, "tags[*]")).toEqual(["a", "b", "7"]);
    expect(textsAtPath(value, "tags[1]")).toEqual(["b"]);
    expect(textsAtPath(value, "tags[-1]")).toEqual(["7"]);
    expect(textsAtPath(value, "tags[9]")).toEqual([]);
    expect(textsAtPath(value, "chapters[*].body")).toEqual(["one", "two"]);
    expect(textsAtPath(value, "meta.{title,nested.deep}")).toEqual(["M", "D"]);
    expect(textsAtPath(value, "meta.*")).toEqual(["M", JSON.stringify({ deep: "D" }, null, 2)]);
    expect(textsAtPath(value, "meta.nested")).toEqual([JSON.stringify({ deep: "D" }, null, 2)]);
    expect(textsAtPath(value, "$")).toEqual([JSON.stringify(value, null, 2)]);
    expect(textsAtPath(value, "toString")).toEqual([]);
  });
});
