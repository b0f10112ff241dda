// RockpointStore's namespaces, on RocksDB and in memory: the rules a put's
// namespace must follow (LangGraph's, as PostgresStore's store.int.test.ts
// checks them; rockpoint refuses the "langgraph" root in every put) and
// listNamespaces (BaseStore's cases in LangGraph.js's store.test.ts, on
// real items: prefix, suffix, "*", maxDepth, pages), with the operations
// both hand batch().
import { InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { BACKENDS, failure } from "./store_fixture.js";

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
});
