// Compares RockpointSaver with LangGraph's MemorySaver and SqliteSaver in
// one Node process, as LangGraph's peerbench does: put, putWrites, getTuple
// (latest and by id) and list(limit 10), each call awaited one after
// another (latency, not throughput). Prints markdown tables:
// 1. per operation and saver, the median over --runs runs of the run's
//    median (and p99), and its ratio to MemorySaver's and SqliteSaver's;
// 2. where a rockpoint read's time goes: the hop to a pool thread and back
//    (an empty call, async minus sync), the engine read with its C++ -> JS
//    conversion (getTupleSync), and the JS conversion (saver.getTuple minus
//    getTupleSync: serde loads, tuple building);
// 3. synced put throughput of 1 and 8 concurrent writers (fsync sharing);
// 4. the longest event-loop stall (perf_hooks.monitorEventLoopDelay) during
//    a 10,000-put run, with and without fsync.
// Not part of the tests. The machine's noise shows in p99 and in run-to-run
// spread; compare ratios within a run.
//
//   node bench/compare.mjs [--n=5000] [--value-bytes=1024] [--runs=3]
//                          [--sections=latency,breakdown,throughput,delay]
//
// Savers: MemorySaver; SqliteSaver on a file (WAL; better-sqlite3 builds
// SQLite with WAL synchronous=NORMAL, so a commit does not fsync: compare it
// with the "no fsync" rockpoint row); RockpointSaver in memory;
// RockpointSaver on RocksDB with and without an fsync per write. SqliteSaver
// runs SQLite on the JS thread; so does rockpoint, leaving its writer
// threads only for writes that fsync. Every saver sees the same calls on a
// fresh store: one thread, a chain of N checkpoints whose state is a
// message list of about --value-bytes bytes plus a counter.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

import { MemorySaver, uuid6 } from "@langchain/langgraph-checkpoint";

import { toTuple } from "../src/codec.js";
import { RockpointSaver } from "../src/index.js";
import { loadNative } from "../src/native.js";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value];
  }),
);
const N = Number(args.n ?? 5000);
const RUNS = Number(args.runs ?? 3);
const SECTIONS = new Set(
  (args.sections ?? "latency,breakdown,throughput,delay").split(","),
);
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

/** A put(i) appending to a chain on `thread`; `configs` collects them. */
function chain(saver, thread, configs = []) {
  let parent = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  let version = undefined;
  return async (i) => {
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
}

/** Runs every operation on `saver`; returns {operation: {median, p99}}. */
async function measure(saver) {
  const thread = `bench-${uuid6(0)}`;
  const configs = [];
  const put = chain(saver, thread, configs);
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

async function closeSaver(saver) {
  if (typeof saver.close === "function") await saver.close();
  else saver.db?.close?.();
}

/** The median of an array of numbers. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Microseconds per call of fn over `count` calls (awaited when async). */
async function perCall(count, fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const out = fn(i);
    if (out && typeof out.then === "function") await out;
  }
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

/** Section 2: hop, engine read + C++ -> JS, JS conversion (µs per call). */
async function readBreakdown(dir) {
  let saver = await RockpointSaver.open(dir, { syncWrites: false });
  const configs = [];
  const put = chain(saver, "breakdown", configs);
  for (let i = 0; i < 1000; i++) await put(i);
  const byId = (i) => configs[(i * 7919) % configs.length];
  const count = Math.min(N, 5000);
  const out = { hop: [], engine: [], engineAsync: [], js: [], saver: [] };
  const serde = saver.serde;
  const legacy = { readRaw: () => null, nextVersion: () => "1" };
  for (let run = 0; run < RUNS; run++) {
    if (run > 0) saver = await RockpointSaver.open(dir, { syncWrites: false });
    const saverUs = await perCall(count, (i) => saver.getTuple(byId(i)));
    await saver.close();
    // The saver held the store; reopen it natively for the raw calls.
    const native = await loadNative().NativeStore.openRocksDb({ path: dir, syncWrites: false });
    const pingSync = await perCall(count * 4, () => native.pingSync());
    const ping = await perCall(count, () => native.ping());
    const sync = await perCall(count, (i) => native.getTupleSync(byId(i).configurable));
    const viaPool = await perCall(count, (i) => native.getTuple(byId(i).configurable));
    const raws = configs.slice(0, 500).map((c) => native.getTupleSync(c.configurable));
    const js = await perCall(count, (i) => toTuple(serde, raws[i % raws.length], legacy));
    await native.close();
    out.hop.push(ping - pingSync);
    out.engine.push(sync);
    out.engineAsync.push(viaPool);
    out.saver.push(saverUs);
    out.js.push(js);
  }
  return out;
}

/**
 * Section 3: puts per second with `writers` concurrent threads (synced
 * unless options say otherwise).
 */
async function putThroughput(dir, writers, putsPerWriter, options = {}) {
  const saver = await RockpointSaver.open(dir, options);
  const puts = Array.from({ length: writers }, (_, w) => chain(saver, `w${w}-${uuid6(0)}`));
  await Promise.all(puts.map((put) => put(0)));
  const start = process.hrtime.bigint();
  await Promise.all(
    puts.map(async (put) => {
      for (let i = 1; i <= putsPerWriter; i++) await put(i);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await saver.close();
  return (writers * putsPerWriter) / seconds;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Section 4: event-loop delay (ms) during `count` awaited puts, each
 * followed by a turn of the loop (as an application serving other I/O
 * between steps; a loop of puts that resolve at once would otherwise never
 * let the histogram's timer run). `options` null: the same turns without
 * puts, for as long, as the machine's baseline.
 */
async function loopDelay(dir, options, count, millis = 0) {
  const saver = options ? await RockpointSaver.open(dir, options) : null;
  const put = saver ? chain(saver, "loop") : null;
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const start = Date.now();
  histogram.enable();
  if (put) {
    for (let i = 0; i < count; i++) {
      await put(i);
      await nextTurn();
    }
  } else {
    while (Date.now() - start < millis) await nextTurn();
  }
  histogram.disable();
  if (saver) await saver.close();
  return {
    max: histogram.max / 1e6,
    p99: histogram.percentile(99) / 1e6,
    mean: histogram.mean / 1e6,
    millis: Date.now() - start,
  };
}

const table = new Map();
const breakdown = {};
const throughput = {};
const delays = {};
try {
  const perRun = new Map();
  for (let run = 0; run < (SECTIONS.has("latency") ? RUNS : 0); run++) {
    for (const [name, make] of savers) {
      if (name === SQLITE && !SqliteSaver) {
        if (run === 0) {
          process.stderr.write("compare: @langchain/langgraph-checkpoint-sqlite is not installed\n");
        }
        continue;
      }
      const saver = await make();
      process.stderr.write(`compare: run ${run + 1}/${RUNS}: ${name}...\n`);
      const results = await measure(saver);
      await closeSaver(saver);
      if (!perRun.has(name)) perRun.set(name, []);
      perRun.get(name).push(results);
      for (const sub of fs.readdirSync(tmp)) {
        fs.rmSync(path.join(tmp, sub), { recursive: true, force: true });
      }
    }
  }
  for (const [name, runs] of perRun) {
    const merged = {};
    for (const op of Object.keys(runs[0])) {
      merged[op] = {
        median: median(runs.map((r) => r[op].median)),
        p99: median(runs.map((r) => r[op].p99)),
      };
    }
    table.set(name, merged);
  }
  if (SECTIONS.has("breakdown")) {
    process.stderr.write("compare: read breakdown...\n");
    Object.assign(breakdown, await readBreakdown(path.join(tmp, "breakdown")));
  }
  process.stderr.write("compare: synced put throughput...\n");
  const cases = [
    ["fsync, 1 writer", 1, {}],
    ["fsync, 8 writers", 8, {}],
    ["no fsync, 1 writer (JS-thread ceiling)", 1, { syncWrites: false }],
  ];
  for (const [name, writers, options] of SECTIONS.has("throughput") ? cases : []) {
    const samples = [];
    for (let run = 0; run < RUNS; run++) {
      const dir = path.join(tmp, `tp-${writers}-${run}-${samples.length}`);
      samples.push(await putThroughput(dir, writers, 1600 / writers, options));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    throughput[name] = median(samples);
  }
  process.stderr.write("compare: event-loop delay...\n");
  if (SECTIONS.has("delay")) delays["RocksDB, fsync"] = await loopDelay(path.join(tmp, "delay-sync"), {}, 10000);
  if (SECTIONS.has("delay")) delays["RocksDB, no fsync"] = await loopDelay(
    path.join(tmp, "delay-nosync"),
    { syncWrites: false },
    10000,
  );
  if (SECTIONS.has("delay")) {
    delays["no puts (machine baseline)"] = await loopDelay(
      null,
      null,
      0,
      delays["RocksDB, fsync"].millis,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
if (SECTIONS.has("latency")) {
  console.log(
    `\nLatency per awaited call, Node ${process.version}, N=${N}, state ≈ ${VALUE_BYTES} B, ` +
      `median of ${RUNS} runs' medians ` +
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

}

const us = (values) => `${median(values).toFixed(1)} µs`;
if (SECTIONS.has("breakdown")) {
  console.log(
    `\nWhere a rockpoint getTuple (by id, RocksDB, 1 KB state) goes, µs per call, ` +
      `median of ${RUNS} runs:\n`,
  );
  console.log("| part | µs |");
  console.log("|---|---:|");
  console.log(`| hop to a pool thread and back (empty call: async − sync) | ${us(breakdown.hop)} |`);
  console.log(`| engine read + C++ → JS conversion (getTupleSync) | ${us(breakdown.engine)} |`);
  console.log(`| the same through the libuv pool (getTuple, the old path) | ${us(breakdown.engineAsync)} |`);
  console.log(`| JS conversion of the raw tuple (serde loads, tuple building) | ${us(breakdown.js)} |`);
  console.log(`| saver.getTuple | ${us(breakdown.saver)} |`);

}

if (SECTIONS.has("throughput")) {
  console.log(`\nSynced puts (fsync per write), puts/s, median of ${RUNS} runs:\n`);
  console.log("| writers | puts/s | vs fsync, 1 writer |");
  console.log("|---|---:|---:|");
  const single = throughput["fsync, 1 writer"];
  for (const [name, value] of Object.entries(throughput)) {
    console.log(`| ${name} | ${value.toFixed(0)} | ${(value / single).toFixed(2)}× |`);
  }

}

if (SECTIONS.has("delay")) {
  console.log(
    "\nEvent-loop delay during 10,000 awaited puts, a loop turn after each " +
      "(monitorEventLoopDelay, resolution 1 ms):\n",
  );
  console.log("| run | max | p99 | mean |");
  console.log("|---|---:|---:|---:|");
  for (const [name, d] of Object.entries(delays)) {
    console.log(
      `| ${name} | ${d.max.toFixed(2)} ms | ${d.p99.toFixed(2)} ms | ${d.mean.toFixed(2)} ms |`,
    );
  }
}
