// Compares RockpointSaver with LangGraph's MemorySaver and SqliteSaver in
// one Node process: put, putWrites, getTuple (latest and by id) and
// list(limit 10), each call awaited one after another (latency, not
// throughput). Prints a markdown table: median and p99 per call, and the
// median's ratio to MemorySaver and to SqliteSaver. Not part of the tests.
//
//   node bench/compare.mjs [--n=2000] [--value-bytes=1024]
//
// Savers: MemorySaver; SqliteSaver on a file (WAL; better-sqlite3 builds
// SQLite with WAL synchronous=NORMAL, so a commit does not fsync: compare it
// with the "no fsync" rockpoint row); RockpointSaver in memory;
// RockpointSaver on RocksDB with and without an fsync per write. SqliteSaver
// runs SQLite on the JS thread; rockpoint runs every call on the libuv
// thread pool, so its figures include that hand-off. Every saver sees the same calls on a
// fresh store: one thread, a chain of N checkpoints whose state is a
// message list of about --value-bytes bytes plus a counter.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { MemorySaver, uuid6 } from "@langchain/langgraph-checkpoint";

import { RockpointSaver } from "../src/index.js";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const N = Number(args.n ?? 2000);
const VALUE_BYTES = Number(args["value-bytes"] ?? 1024);
const WARMUP = Math.min(100, Math.floor(N / 10));

function messages(step) {
  const out = [];
  let size = 0;
  for (let i = 0; size < VALUE_BYTES; i++) {
    const content = `step ${step} message ${i} `.padEnd(100, "x");
    out.push({ role: i % 2 ? "ai" : "human", content, id: `m${step}-${i}` });
    size += content.length + 30;
  }
  return out;
}

function checkpointAt(step, id, versions) {
  return {
    v: 4,
    id,
    ts: new Date().toISOString(),
    channel_values: { messages: messages(step), counter: step },
    channel_versions: versions,
    versions_seen: { agent: { messages: versions.messages } },
  };
}

function percentile(sorted, p) {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

async function time(count, fn) {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    samples[i] = Number(process.hrtime.bigint() - start) / 1000;  // µs
  }
  samples.sort();
  return { median: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function drain(iterable) {
  let n = 0;
  for await (const _ of iterable) n++;
  return n;
}

/** Runs every operation on `saver`; returns {operation: {median, p99}}. */
async function measure(saver) {
  const thread = `bench-${uuid6(0)}`;
  const configs = [];
  let parent = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  let version = undefined;
  const put = async (i) => {
    version = saver.getNextVersion(version);
    const versions = { messages: version, counter: version };
    parent = await saver.put(
      parent,
      checkpointAt(i, uuid6(0), versions),
      { source: "loop", step: i, parents: {} },
      versions,
    );
    configs.push(parent);
  };
  for (let i = 0; i < WARMUP; i++) await put(i);
  const results = {};
  results.put = await time(N, (i) => put(WARMUP + i));
  results.putWrites = await time(N, (i) =>
    saver.putWrites(
      configs[i],
      [["messages", messages(i).slice(0, 1)]],
      `task-${i}`,
    ),
  );
  const latest = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  results["getTuple latest"] = await time(N, () => saver.getTuple(latest));
  results["getTuple by id"] = await time(N, (i) =>
    saver.getTuple(configs[(i * 7919) % configs.length]),
  );
  const listCount = Math.max(10, Math.floor(N / 4));
  results["list limit 10"] = await time(listCount, async () => {
    const n = await drain(saver.list(latest, { limit: 10 }));
    if (n !== 10) throw new Error(`list returned ${n} tuples`);
  });
  return results;
}

// An optional dependency: absent when better-sqlite3 could not be built.
const SqliteSaver = await import("@langchain/langgraph-checkpoint-sqlite").then(
  (module) => module.SqliteSaver,
  () => null,
);
const SQLITE = "SqliteSaver (file, WAL)";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-compare-"));
const savers = [
  ["MemorySaver", () => new MemorySaver()],
  [SQLITE, () => SqliteSaver.fromConnString(path.join(tmp, "sqlite.db"))],
  ["rockpoint memory", () => RockpointSaver.memory()],
  ["rockpoint RocksDB, fsync", () => RockpointSaver.open(path.join(tmp, "sync"))],
  [
    "rockpoint RocksDB, no fsync",
    () => RockpointSaver.open(path.join(tmp, "nosync"), { syncWrites: false }),
  ],
];

const table = new Map();
try {
  for (const [name, make] of savers) {
    if (name === SQLITE && !SqliteSaver) {
      process.stderr.write("compare: @langchain/langgraph-checkpoint-sqlite is not installed\n");
      continue;
    }
    const saver = await make();
    process.stderr.write(`compare: ${name}...\n`);
    table.set(name, await measure(saver));
    if (typeof saver.close === "function") await saver.close();
    else saver.db?.close?.();
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
console.log(
  `\nLatency per awaited call, Node ${process.version}, N=${N}, state ≈ ${VALUE_BYTES} B ` +
    `(ratio = median / that saver's median; < 1 is faster). SqliteSaver does ` +
    `not fsync per commit (WAL, synchronous=NORMAL).\n`,
);
console.log("| operation | saver | median | p99 | vs MemorySaver | vs SqliteSaver |");
console.log("|---|---|---:|---:|---:|---:|");
const operations = Object.keys(table.get("MemorySaver"));
for (const op of operations) {
  const memory = table.get("MemorySaver")[op].median;
  const sqlite = table.get(SQLITE)?.[op].median ?? NaN;
  for (const [name, results] of table) {
    const { median, p99 } = results[op];
    console.log(
      `| ${op} | ${name} | ${fmt(median)} | ${fmt(p99)} | ${ratio(median, memory)} | ${ratio(median, sqlite)} |`,
    );
  }
}
