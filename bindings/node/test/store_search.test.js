// RockpointStore's search without a query, on RocksDB and in memory
// (PostgresStore's store.int.test.ts search cases): prefixes, filters and
// their operators ($eq $ne $gt $gte $lt $lte, compared as JSON; $in and
// $nin refused, docs/STORE.md), pages, and the newest updated first.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

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
});
