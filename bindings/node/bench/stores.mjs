// RockpointStore (LangGraph.js's BaseStore on rockpoint's item store)
// against LangGraph.js's InMemoryStore, in one run. Subjects:
// RockpointStore on RocksDB with syncWrites true ("fsync": a put resolves
// once the WAL is fsynced) and false ("no fsync"), each in a temporary
// directory, and InMemoryStore (@langchain/langgraph-checkpoint), the
// reference. Operations, each timed per awaited call through the public
// BaseStore API (process.hrtime.bigint()):
//
// - put: one new item per call, in one namespace;
// - get: a random existing item of 10,000 in one namespace (loaded with
//   batch puts of 1,000);
// - search with a filter over those 10,000 items ({kind: "kN"}: 10 kinds,
//   so 10% match), limit 10;
// - listNamespaces over 1,000 namespaces (["bench", "ns", "0001"], ...),
//   prefix ["bench", "ns"], limit 100;
// - vector top-10 over 10,000 and 100,000 items of 384 dimensions, with
//   recall@10 against the exact cosine top-10 computed here. Only the fsync
//   RocksDB store runs it: syncWrites changes writes, and a search (no TTL
//   configured) writes nothing. Above 20,000 vectors (the default
//   exactSearchMaxVectors) RockpointStore answers from an HNSW graph built
//   in the background: the bench waits until indexStats() reports
//   approximateReady (printing how long that took) before timing queries.
//
// Embeddings: a fake, deterministic Embeddings whose text "doc-N" or
// "query-N" maps to a fixed unit vector drawn with a LOW intrinsic
// dimension, as sentence embeddings have: a random linear map (fixed-seed
// PRNG) of a 32-dimensional Gaussian point into 384 dimensions, plus 10%
// Gaussian noise (the same recipe as bench/python/stores.py). Each text's
// vector has a seed of its own, so it does not depend on how many are
// drawn. (Uniform random 384-dimensional vectors, where every neighbour is
// about as far as any other, are the worst case of every graph index: a
// recall measured on them says nothing about real embeddings.)
//
// Every operation runs interleaved in shuffled rounds: 10 rounds
// (2 for vectors), in each every subject in a shuffled order runs its share
// of the calls, after a few untimed warm-up calls per subject. Every result
// is checked (a get finds its item, a search returns 10 items of the
// filtered kind, ...), so a broken path is never timed. Prints a markdown
// table: median and p95 µs per call, the median over InMemoryStore's, and
// recall@10 for vectors; then load times. Not part of the tests.
//
//   node bench/stores.mjs [--quick] [--vectors=10000,100000] [--out=FILE.md]
//   bench/stores.sh ...   (the same, from any directory)
//
// --quick: 2,000 items, 200 namespaces, 200 puts and gets, 50 searches and
// listNamespaces, and vectors of 2,000 items unless --vectors is given
// (a try in seconds). --vectors= (empty) leaves the vector rows out. The
// default run loads 100,000 vectors into each store and waits for the HNSW
// graph: about 3 minutes on 2 cores.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { Embeddings } from "@langchain/core/embeddings";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";

import { RockpointStore } from "../src/index.js";
import {
  benchCommand,
  commit,
  fdatasyncFloor,
  parseArgs,
  shuffled,
} from "./common.mjs";

const args = parseArgs();
const QUICK = "quick" in args;
const ITEMS = QUICK ? 2_000 : 10_000;
const NAMESPACES = QUICK ? 200 : 1_000;
const POINT_CALLS = QUICK ? 200 : 2_000; // put, get
const SCAN_CALLS = QUICK ? 50 : 200; // search with a filter, listNamespaces
const ROUNDS = 10;
const WARMUP = QUICK ? 3 : 10;
const VECTOR_SIZES = (args.vectors ?? (QUICK ? "2000" : "10000,100000"))
  .split(",")
  .filter((x) => x !== "")
  .map(Number);
const DIMS = 384;
const LATENT = 32;
const KINDS = 10;
const CHUNK = 1_000;
const ITEMS_NS = ["bench", "items"];
const PUT_NS = ["bench", "put"];
const EXACT_SEARCH_MAX_VECTORS = 20_000; // RockpointStore's default
const MEMORY = "InMemoryStore";

// ---- deterministic randomness ----------------------------------------------

/** mulberry32: uniform numbers in [0, 1) from a 32-bit seed. */
function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers (Box-Muller) from a 32-bit seed. */
function gaussian(seed) {
  const next = uniform(seed);
  let spare = null;
  return () => {
    if (spare !== null) {
      const out = spare;
      spare = null;
      return out;
    }
    let u = next();
    while (u === 0) u = next();
    const r = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * next();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/**
 * The fake embeddings (see the header): "doc-N" and "query-N" to a unit
 * vector of DIMS numbers, a random linear map of a LATENT-dimensional
 * Gaussian point plus 10% noise. Tables of the first `docs` and `queries`
 * vectors are kept as Float32Array rows, for the exact top-10.
 */
class LowRankEmbeddings extends Embeddings {
  constructor(docs, queries) {
    super({});
    const draw = gaussian(7);
    this.mapping = new Float64Array(LATENT * DIMS).map(() => draw());
    this.docs = this.#table("doc", docs);
    this.queries = this.#table("query", queries);
  }

  #table(kind, n) {
    const out = new Float32Array(n * DIMS);
    for (let i = 0; i < n; i++) out.set(this.vector(kind, i), i * DIMS);
    return out;
  }

  /** The unit vector of text `${kind}-${n}`, from a seed of its own. */
  vector(kind, n) {
    const draw = gaussian(
      Math.imul(n + 1, 0x9e3779b1) ^ (kind === "doc" ? 0x5bd1e995 : 0x1b873593),
    );
    const point = Array.from({ length: LATENT }, draw);
    const noise = 0.1 * Math.sqrt(LATENT);
    const out = new Float64Array(DIMS);
    for (let d = 0; d < DIMS; d++) out[d] = noise * draw();
    for (let k = 0; k < LATENT; k++) {
      const z = point[k];
      const row = k * DIMS;
      for (let d = 0; d < DIMS; d++) out[d] += z * this.mapping[row + d];
    }
    let norm = 0;
    for (let d = 0; d < DIMS; d++) norm += out[d] * out[d];
    norm = Math.sqrt(norm);
    return Float32Array.from(out, (x) => x / norm);
  }

  #row(text) {
    const [kind, n] = text.split("-");
    const index = Number(n);
    const table = kind === "doc" ? this.docs : this.queries;
    if (
      (kind !== "doc" && kind !== "query") ||
      !Number.isInteger(index) ||
      index < 0 ||
      (index + 1) * DIMS > table.length
    ) {
      throw new Error(`LowRankEmbeddings: no vector for ${JSON.stringify(text)}`);
    }
    return Array.from(table.subarray(index * DIMS, (index + 1) * DIMS));
  }

  async embedDocuments(texts) {
    return texts.map((text) => this.#row(text));
  }

  async embedQuery(text) {
    return this.#row(text);
  }
}

/** Keys of the exact top-10 documents by cosine (all vectors are unit). */
function exactTop10(embed, docs, q) {
  const query = embed.queries.subarray(q * DIMS, (q + 1) * DIMS);
  const best = []; // [score, doc], best first, at most 10
  for (let i = 0; i < docs; i++) {
    let score = 0;
    const base = i * DIMS;
    for (let d = 0; d < DIMS; d++) score += query[d] * embed.docs[base + d];
    if (best.length === 10 && score <= best[9][0]) continue;
    let at = best.length;
    while (at > 0 && best[at - 1][0] < score) at--;
    best.splice(at, 0, [score, i]);
    if (best.length > 10) best.pop();
  }
  return best.map(([, i]) => `item-${i}`);
}

// ---- subjects ------------------------------------------------------------

function value(i) {
  return { text: `doc-${i}`, kind: `k${i % KINDS}`, n: i, tags: ["a", "b"] };
}

/** Puts items item-0 .. item-(n-1) in batches of CHUNK. */
async function load(store, namespace, n) {
  for (let start = 0; start < n; start += CHUNK) {
    const ops = [];
    for (let i = start; i < Math.min(n, start + CHUNK); i++) {
      ops.push({ namespace, key: `item-${i}`, value: value(i) });
    }
    await store.batch(ops);
  }
}

/**
 * The stores of one section: [{name, store, close}]. `index` (or null) is
 * every store's index config; `nosync` adds the syncWrites false store.
 */
async function openSubjects(work, tag, { index, nosync }) {
  const out = [];
  const rocksdb = async (name, syncWrites) => {
    const dir = fs.mkdtempSync(path.join(work, `${tag}-`));
    const store = await RockpointStore.open(path.join(dir, "store"), {
      syncWrites,
      ...(index ? { index } : {}),
    });
    out.push({ name, store, close: () => store.close() });
  };
  try {
    await rocksdb("rockpoint (fsync)", true);
    if (nosync) await rocksdb("rockpoint (no fsync)", false);
  } catch (error) {
    await closeAll(out);
    throw error;
  }
  out.push({
    name: MEMORY,
    store: new InMemoryStore(index ? { index } : undefined),
    close: async () => {},
  });
  return out;
}

// Calls every close, then throws the first failure.
async function closeAll(subjects) {
  const results = await Promise.allSettled(subjects.map((s) => s.close()));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

// ---- measuring -----------------------------------------------------------

/**
 * µs per awaited call of `op(subject, i)`, `calls` per subject in `rounds`
 * rounds, every subject in a shuffled order each round, after `warmup`
 * untimed calls each (i from `calls` up). `check(subject, i, result)`
 * throws on a wrong result.
 */
async function interleave(subjects, { calls, rounds, warmup, op, check }) {
  for (const subject of subjects) {
    for (let j = 0; j < warmup; j++) {
      check(subject, calls + j, await op(subject, calls + j));
    }
  }
  const times = Object.fromEntries(subjects.map((s) => [s.name, []]));
  const perRound = Math.max(1, Math.floor(calls / rounds));
  let i = 0;
  for (let round = 0; round < rounds; round++) {
    for (const subject of shuffled(subjects)) {
      for (let j = 0; j < perRound; j++) {
        const start = process.hrtime.bigint();
        const result = await op(subject, i + j);
        times[subject.name].push(Number(process.hrtime.bigint() - start) / 1000);
        check(subject, i + j, result);
      }
    }
    i += perRound;
  }
  return times;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function p95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
}

/** Table rows of one operation: {op, store, median, p95, note}. */
function rows(op, times, notes = {}) {
  return Object.entries(times).map(([store, t]) => ({
    op,
    store,
    median: median(t),
    p95: p95(t),
    note: notes[store] ?? "",
  }));
}

function fail(subject, what) {
  throw new Error(`${subject.name}: ${what}`);
}

async function plainSections(work) {
  const subjects = await openSubjects(work, "plain", { index: null, nosync: true });
  const out = [];
  try {
    for (const { store } of subjects) {
      await load(store, ITEMS_NS, ITEMS);
      for (let start = 0; start < NAMESPACES; start += CHUNK) {
        const ops = [];
        for (let i = start; i < Math.min(NAMESPACES, start + CHUNK); i++) {
          const label = String(i).padStart(4, "0");
          ops.push({ namespace: ["bench", "ns", label], key: "k", value: { i } });
        }
        await store.batch(ops);
      }
    }
    console.error(`loaded ${ITEMS} items and ${NAMESPACES} namespaces`);

    out.push(
      ...rows(
        "put (one new item)",
        await interleave(subjects, {
          calls: POINT_CALLS,
          rounds: ROUNDS,
          warmup: WARMUP,
          op: (s, i) => s.store.put(PUT_NS, `p-${i}`, value(i)),
          check: () => {},
        }),
      ),
    );
    // Every put landed: the last measured one reads back.
    for (const subject of subjects) {
      const item = await subject.store.get(PUT_NS, `p-${POINT_CALLS - 1}`);
      if (item?.value.n !== POINT_CALLS - 1) fail(subject, "a put is missing");
    }

    const pick = uniform(3);
    const wanted = new Map(); // subject name -> the key of its last get
    out.push(
      ...rows(
        `get (of ${thousands(ITEMS)} items)`,
        await interleave(subjects, {
          calls: POINT_CALLS,
          rounds: ROUNDS,
          warmup: WARMUP,
          op: (s) => {
            const n = Math.floor(pick() * ITEMS);
            wanted.set(s.name, n);
            return s.store.get(ITEMS_NS, `item-${n}`);
          },
          check: (s, i, item) => {
            if (item?.value.n !== wanted.get(s.name)) fail(s, "get missed an item");
          },
        }),
      ),
    );

    const kind = (i) => `k${i % KINDS}`;
    out.push(
      ...rows(
        `search, filter, limit 10 (of ${thousands(ITEMS)} items, 10% match)`,
        await interleave(subjects, {
          calls: SCAN_CALLS,
          rounds: ROUNDS,
          warmup: WARMUP,
          op: (s, i) =>
            s.store.search(ITEMS_NS, { filter: { kind: kind(i) }, limit: 10 }),
          check: (s, i, items) => {
            const wrong = items.filter((item) => item.value.kind !== kind(i));
            if (items.length !== 10 || wrong.length > 0) {
              fail(s, `search with filter returned ${items.length} items`);
            }
          },
        }),
      ),
    );

    const expected = Math.min(100, NAMESPACES);
    out.push(
      ...rows(
        `listNamespaces, prefix, limit 100 (of ${thousands(NAMESPACES)})`,
        await interleave(subjects, {
          calls: SCAN_CALLS,
          rounds: ROUNDS,
          warmup: WARMUP,
          op: (s) =>
            s.store.listNamespaces({ prefix: ["bench", "ns"], limit: 100 }),
          check: (s, i, namespaces) => {
            if (namespaces.length !== expected || namespaces[0].length !== 3) {
              fail(s, `listNamespaces returned ${namespaces.length}`);
            }
          },
        }),
      ),
    );
  } finally {
    await closeAll(subjects);
  }
  return out;
}

/**
 * Waits until the HNSW graph (built in the background above
 * exactSearchMaxVectors) answers, so the queries measure it; the seconds
 * it took, or null when search stays exact.
 */
async function waitForGraph(store) {
  const start = performance.now();
  const stats = await store.indexStats();
  if (stats === null || stats.vectors <= EXACT_SEARCH_MAX_VECTORS) return null;
  const deadline = start + 60 * 60 * 1000;
  while (!(await store.indexStats()).approximateReady) {
    if (performance.now() > deadline) {
      throw new Error("the HNSW graph was not ready after an hour");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (performance.now() - start) / 1000;
}

async function vectorSection(work, n, notes) {
  const queries = n <= 10_000 ? 20 : 10;
  let started = performance.now();
  // One more query than timed: the warm-up's.
  const embed = new LowRankEmbeddings(n, queries + 1);
  const exact = Array.from({ length: queries }, (_, q) => exactTop10(embed, n, q));
  const count = thousands(n);
  console.error(
    `drew ${count} vectors and the exact top-10s in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const index = { dims: DIMS, embeddings: embed, fields: ["text"] };
  const subjects = await openSubjects(work, `vec${n}`, { index, nosync: false });
  const recalls = Object.fromEntries(subjects.map((s) => [s.name, []]));
  try {
    for (const subject of subjects) {
      started = performance.now();
      await load(subject.store, ITEMS_NS, n);
      const seconds = (performance.now() - started) / 1000;
      let line =
        `${count} vectors into ${subject.name}: ` +
        `loaded in ${seconds.toFixed(1)} s`;
      if (subject.store instanceof RockpointStore) {
        const graph = await waitForGraph(subject.store);
        if (graph !== null) {
          line += `, then the HNSW graph was ready ${graph.toFixed(1)} s later`;
        }
      }
      console.error(line);
      notes.push(line);
    }
    const times = await interleave(subjects, {
      calls: queries,
      rounds: 2,
      warmup: 1,
      op: (s, i) => {
        const q = i < queries ? i : queries; // the warm-up's query
        return s.store.search(ITEMS_NS, { query: `query-${q}`, limit: 10 });
      },
      check: (s, i, items) => {
        if (items.length !== 10) {
          fail(s, `vector search returned ${items.length} items`);
        }
        if (i >= queries) return;
        const keys = new Set(exact[i]);
        const found = items.filter((item) => keys.has(item.key)).length;
        recalls[s.name].push(found / 10);
      },
    });
    const recallNotes = Object.fromEntries(
      Object.entries(recalls).map(([name, r]) => [
        name,
        `recall@10 ${(r.reduce((a, b) => a + b, 0) / r.length).toFixed(3)}`,
      ]),
    );
    return rows(`vector top-10 of ${count} x ${DIMS}`, times, recallNotes);
  } finally {
    await closeAll(subjects);
  }
}

// ---- report --------------------------------------------------------------

function thousands(n) {
  return n.toLocaleString("en-US");
}

function micros(x) {
  return x.toLocaleString("en-US", { maximumFractionDigits: x < 100 ? 1 : 0 });
}

function report(table, notes, floor, seconds) {
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  const lines = [
    "# Node stores benchmark",
    "",
    `\`${benchCommand("stores.mjs")}\` (in bindings/node) at commit ${commit()}; ` +
      `load average ${load}; Node ${process.version}; ${os.cpus().length} cores; ` +
      `fdatasync floor ${Math.round(floor)} µs (median of 200 1 KB appends); ` +
      `${Math.round(seconds)} s. Per call, awaited; subjects interleaved in ` +
      `shuffled rounds. vs InMemoryStore: the median over InMemoryStore's.`,
    "",
    "| operation | store | median µs | p95 µs | vs InMemoryStore | note |",
    "|---|---|---:|---:|---:|---|",
  ];
  const reference = new Map(
    table.filter((row) => row.store === MEMORY).map((row) => [row.op, row.median]),
  );
  for (const row of table) {
    const mem = reference.get(row.op);
    const ratio = mem ? `${(row.median / mem).toFixed(2)}x` : "";
    lines.push(
      `| ${row.op} | ${row.store} | ${micros(row.median)} | ${micros(row.p95)} | ` +
        `${ratio} | ${row.note} |`,
    );
  }
  if (notes.length) {
    lines.push("", "Loading (batches of 1,000 puts):", "");
    lines.push(...notes.map((note) => `- ${note}`));
  }
  return lines.join("\n") + "\n";
}

async function main() {
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-stores-"));
  const cleanup = () => fs.rmSync(work, { recursive: true, force: true });
  const interrupted = (signal) => {
    cleanup();
    process.exit(128 + os.constants.signals[signal]);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    const floor = fdatasyncFloor(work);
    const table = await plainSections(work);
    const notes = [];
    for (const n of VECTOR_SIZES) {
      table.push(...(await vectorSection(work, n, notes)));
    }
    const text = report(table, notes, floor, (performance.now() - started) / 1000);
    process.stdout.write(text);
    if (args.out) fs.writeFileSync(args.out, text);
  } finally {
    cleanup();
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
