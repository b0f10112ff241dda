// RockpointStore's vector search, on RocksDB and in memory (PostgresStore's
// store.int.test.ts vector cases, InMemoryStore's index fields): ranking
// by cosine similarity with the fake embedding of store_fixture.js, what
// is embedded (the index's fields, a put's own paths, index: false), the
// HNSW graph against exact search; and the field paths themselves
// (InMemoryStore's getTextAtPath).
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { textsAtPath, tokenizeFieldPath } from "../src/store/embed.js";
import { BACKENDS, DIMS, fakeEmbeddings, fakeVector, sleep } from "./store_fixture.js";

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
