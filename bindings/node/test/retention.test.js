// Retention in RockpointSaver: the `retention` option (both shapes, and
// every way it can be wrong), sweep() with an explicit `now` over
// checkpoints a real @langchain/langgraph StateGraph wrote (dry run, the
// applied pass, survivors reading as before, idle threads deleted whole),
// the saver's own policy, and the background sweeper (it converges, close()
// stops it, a process that never closes still exits).
//
// Checkpoint ages come from the ts LangGraph writes (the wall clock); a
// test makes two groups of checkpoints distinguishable by waiting until the
// clock has moved past the first group, then picks `now` so that the
// cutoff falls between them. Nothing here measures speed.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { Command } from "@langchain/langgraph";

import { RockpointSaver } from "../src/index.js";
import { loadNative } from "../src/native.js";
import { freshDir } from "./initializers.js";
import { buildGraph, history, summarize, userMessage } from "./graph_fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const KINDS = ["rocksdb", "memory"];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const threadConfig = (threadId) => ({ configurable: { thread_id: threadId } });
const at = (threadId, checkpointId) => ({
  configurable: { thread_id: threadId, checkpoint_id: checkpointId },
});
const ids = (checkpoints) => checkpoints.map((c) => c.id);
const tsOf = (checkpoint) => Date.parse(checkpoint.ts);

async function openSaver(kind, options = {}) {
  if (kind === "memory") return { saver: RockpointSaver.memory(options), dir: null };
  const dir = freshDir("rockpoint-retention-");
  return { saver: await RockpointSaver.open(dir, options), dir };
}

async function closeSaver({ saver, dir }) {
  await saver.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** The visible checkpoints of a thread, newest first: [{id, ts}]. */
async function checkpointsOf(saver, threadId) {
  const out = [];
  for await (const tuple of saver.list(threadConfig(threadId))) {
    out.push({ id: tuple.config.configurable.checkpoint_id, ts: tuple.checkpoint.ts });
  }
  return out;
}

/** Waits until the clock is past every ts of `checkpoints`. */
async function clockPast(checkpoints) {
  const latest = Math.max(...checkpoints.map(tsOf));
  while (Date.now() <= latest) await sleep(2);
}

/** checkpoint id -> summarize(graph.getState()) of that checkpoint. */
async function statesOf(graph, threadId, checkpoints) {
  const out = new Map();
  for (const { id } of checkpoints) {
    out.set(id, summarize(await graph.getState(at(threadId, id))));
  }
  return out;
}

/** What a store holds, for "nothing changed" checks. */
async function contents(saver, graph, threadIds) {
  const out = { threads: await saver.listThreads() };
  for (const threadId of threadIds) {
    out[threadId] = await history(graph, threadConfig(threadId));
  }
  return out;
}

/** Expects `fn` to throw (or reject with) `type`, code InvalidArgument. */
async function expectInvalid(fn, type, message) {
  let caught;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  expect(caught.code).toBe("InvalidArgument");
  if (message) expect(caught.message).toMatch(message);
}

describe("the retention option", () => {
  const bad = [
    ["nothing to expire", {}, TypeError, /retention sets none of maxIdleMs, maxAgeMs and keepLast/],
    ["only a sweep interval", { sweepIntervalMs: 1000 }, TypeError, /sets none of/],
    ["a string", "30d", TypeError, /retention must be an object, got string 30d/],
    ["an unknown key", { maxAge: 1000 }, TypeError, /retention has no option "maxAge"/],
    ["a negative maxAgeMs", { maxAgeMs: -1 }, RangeError,
      /retention.maxAgeMs must not be negative/],
    ["an infinite maxIdleMs", { maxIdleMs: Infinity }, RangeError,
      /retention.maxIdleMs must be a finite number/],
    ["a NaN maxIdleMs", { maxIdleMs: NaN }, RangeError,
      /retention.maxIdleMs must be a finite number/],
    ["a string maxAgeMs", { maxAgeMs: "1d" }, TypeError,
      /retention.maxAgeMs must be a number, got string 1d/],
    ["keepLast 0", { keepLast: 0 }, RangeError,
      /retention.keepLast must be >= 1, got 0/],
    ["a fractional keepLast", { keepLast: 2.5 }, RangeError,
      /retention.keepLast must be an integer >= 1/],
    ["sweepIntervalMs 0", { keepLast: 1, sweepIntervalMs: 0 }, RangeError,
      /retention.sweepIntervalMs must be above 0/],
    ["a sweep interval over a year", { keepLast: 1, sweepIntervalMs: 400 * 24 * HOUR }, RangeError,
      /sweepIntervalMs must be at most/],
    ["sweepBatchThreads 0", { keepLast: 1, sweepBatchThreads: 0 }, RangeError,
      /retention.sweepBatchThreads must be >= 1/],
    ["an unknown strategy", { ttl: { strategy: "archive", defaultTtl: 60 } }, RangeError,
      /retention.ttl.strategy must be "delete" or "keep_latest", got string archive/],
    ["a ttl without defaultTtl", { ttl: { strategy: "delete" } }, TypeError,
      /retention.ttl.defaultTtl \(minutes\) is required/],
    ["a negative defaultTtl", { ttl: { defaultTtl: -5 } }, RangeError,
      /retention.ttl.defaultTtl must not be negative/],
    ["sweepIntervalMinutes 0", { ttl: { defaultTtl: 60, sweepIntervalMinutes: 0 } }, RangeError,
      /retention.ttl.sweepIntervalMinutes must be above 0/],
    ["ttl with other rules", { ttl: { defaultTtl: 60 }, keepLast: 2 }, TypeError,
      /retention.ttl cannot be combined with keepLast/],
    ["both spellings of defaultTtl", { ttl: { defaultTtl: 60, default_ttl: 60 } }, TypeError,
      /sets both defaultTtl and default_ttl/],
    ["an unknown ttl key", { ttl: { defaultTtl: 60, refreshOnRead: true } }, TypeError,
      /retention.ttl has no option "refreshOnRead"/],
  ];

  it.each(bad)("refuses %s, in memory", async (_, retention, type, message) => {
    await expectInvalid(() => RockpointSaver.memory({ retention }), type, message);
  });

  it.each(bad)("refuses %s before opening a RocksDB store", async (_, retention, type, message) => {
    const parent = freshDir("rockpoint-retention-bad-");
    try {
      const dir = path.join(parent, "store");
      await expectInvalid(() => RockpointSaver.open(dir, { retention }), type, message);
      expect(fs.existsSync(dir)).toBe(false);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it("refuses retention on a read-only store", async () => {
    await expectInvalid(
      () => RockpointSaver.open("/nonexistent", { readOnly: true, retention: { keepLast: 1 } }),
      TypeError,
      /retention needs a writable store/,
    );
  });

  it("is checked by the addon too, in the engine's words", () => {
    const { NativeStore } = loadNative();
    expect(() => NativeStore.openMemory({ retention: {} })).toThrow(
      /options.retention: retention policy sets none of max_idle, max_age and keep_last/,
    );
    expect(() => NativeStore.openMemory({ retention: { maxAgeMs: -1 } })).toThrow(TypeError);
  });

  it("fills in the defaults and rounds durations up to whole seconds", async () => {
    const saver = RockpointSaver.memory({ retention: { maxAgeMs: 1500, keepLast: 3 } });
    try {
      expect(saver.retention).toEqual({
        maxAgeMs: 2000,
        keepLast: 3,
        sweepIntervalMs: 600000,
        sweepBatchThreads: 64,
      });
      expect(Object.isFrozen(saver.retention)).toBe(true);
    } finally {
      await saver.close();
    }
    const none = RockpointSaver.memory();
    expect(none.retention).toBeNull();
    expect(await none.sweeperStats()).toBeNull();
    await none.close();
  });

  it.each([
    ["delete", { ttl: { strategy: "delete", defaultTtl: 60, sweepIntervalMinutes: 5 } }, {}],
    ["keep_latest", { ttl: { strategy: "keep_latest", defaultTtl: 60, sweepIntervalMinutes: 5 } },
      { keepLast: 1 }],
    ["the default strategy", { ttl: { defaultTtl: 60, sweepIntervalMinutes: 5 } }, {}],
    ["langgraph.json's spelling",
      { ttl: { strategy: "delete", default_ttl: 60, sweep_interval_minutes: 5 } }, {}],
  ])("maps LangGraph's ttl settings (%s)", async (_, retention, extra) => {
    const saver = RockpointSaver.memory({ retention });
    try {
      expect(saver.retention).toEqual({
        maxIdleMs: HOUR,
        sweepIntervalMs: 5 * MINUTE,
        sweepBatchThreads: 64,
        ...extra,
      });
    } finally {
      await saver.close();
    }
  });
});

describe("sweep() arguments", () => {
  let saver;
  beforeEach(() => {
    saver = RockpointSaver.memory();
  });
  afterEach(async () => {
    await saver.close();
  });

  it("needs a policy when the saver has none", async () => {
    await expectInvalid(() => saver.sweep(), TypeError, /sweep needs a retention policy/);
    await expectInvalid(() => saver.sweep({ dryRun: true }), TypeError, /needs a retention policy/);
  });

  it.each([
    ["a string now", { retention: { keepLast: 1 }, now: "2026-01-01" }, TypeError,
      /sweep: now must be a Date, got string/],
    ["an invalid Date", { retention: { keepLast: 1 }, now: new Date(NaN) }, RangeError,
      /sweep: now must be a valid Date/],
    ["a Date the engine's clock cannot hold",
      { retention: { keepLast: 1 }, now: new Date("+100000-01-01") }, RangeError,
      /within the years 1678-2261/],
    ["a non-boolean dryRun", { retention: { keepLast: 1 }, dryRun: 1 }, TypeError,
      /sweep: dryRun must be a boolean/],
    ["a bad policy", { retention: { keepLast: 0 } }, RangeError,
      /sweep: retention.keepLast must be/],
    ["options that are no object", "dry", TypeError, /sweep: options must be an object/],
  ])("refuses %s", async (_, options, type, message) => {
    await expectInvalid(() => saver.sweep(options), type, message);
  });

  it("rejects once the saver is closed", async () => {
    await saver.close();
    await expect(saver.sweep({ retention: { keepLast: 1 } })).rejects.toMatchObject({
      code: "Aborted",
    });
  });
});

describe("sweep() over a StateGraph's checkpoints", () => {
  let handle;
  let saver;
  let graph;
  afterEach(async () => {
    if (handle) await closeSaver(handle);
    handle = null;
  });

  async function open(kind, options) {
    handle = await openSaver(kind, options);
    saver = handle.saver;
    graph = buildGraph(saver);
  }

  it("maxAgeMs on RocksDB: a dry run, the applied pass, survivors unchanged", async () => {
    await open("rocksdb");
    const config = threadConfig("s");
    // Old: the input, draft and the review interrupt.
    await graph.invoke({ messages: [userMessage("hello")] }, config);
    const old = await checkpointsOf(saver, "s");
    expect(old.length).toBe(3);
    await clockPast(old);
    // New: resume, publish, updateState.
    await graph.invoke(new Command({ resume: "yes" }), config);
    await graph.updateState(config, { log: ["manual"] }, "publish");
    const all = await checkpointsOf(saver, "s");
    const survivors = all.slice(0, all.length - old.length);
    expect(ids(all.slice(survivors.length))).toEqual(ids(old));
    const cutoff = Math.min(...survivors.map(tsOf));
    const now = new Date(cutoff + HOUR);
    const retention = { maxAgeMs: HOUR };

    const states = await statesOf(graph, "s", all);
    const before = await contents(saver, graph, ["s"]);
    const dry = await saver.sweep({ retention, now, dryRun: true });
    expect(dry).toEqual({
      threadsExamined: 1,
      threadsEmptied: 0,
      checkpointsExpired: old.length,
      checkpointsHidden: expect.any(Number),
      bytes: expect.any(Number),
    });
    expect(dry.checkpointsHidden).toBeLessThanOrEqual(dry.checkpointsExpired);
    expect(await contents(saver, graph, ["s"])).toEqual(before);

    const applied = await saver.sweep({ retention, now });
    expect(applied).toEqual(dry);
    if (applied.checkpointsHidden < applied.checkpointsExpired) {
      expect(applied.bytes).toBeGreaterThan(0);
    }
    expect(ids(await checkpointsOf(saver, "s"))).toEqual(ids(survivors));
    for (const { id } of old) {
      expect(await saver.getTuple(at("s", id))).toBeUndefined();
    }
    for (const { id } of survivors) {
      expect(summarize(await graph.getState(at("s", id)))).toEqual(states.get(id));
    }
    // The same pass again finds nothing more; the thread goes on.
    expect(await saver.sweep({ retention, now })).toMatchObject({
      threadsExamined: 1,
      checkpointsExpired: 0,
    });
    await graph.invoke({ messages: [userMessage("again")] }, config);
    expect(summarize(await graph.getState(config)).messages.map(([, c]) => c)).toEqual([
      "hello",
      "draft of hello",
      "yes",
      "published",
      "again",
      "draft of again",
    ]);
  });

  it.each(KINDS)("maxIdleMs deletes an idle thread whole, not an active one (%s)", async (kind) => {
    await open(kind);
    await graph.invoke({ messages: [userMessage("idle")] }, threadConfig("idle"));
    const idle = await checkpointsOf(saver, "idle");
    await clockPast(idle);
    await graph.invoke({ messages: [userMessage("active")] }, threadConfig("active"));
    const active = await checkpointsOf(saver, "active");
    // Idle since before the active thread's oldest checkpoint.
    const now = new Date(Math.min(...active.map(tsOf)) + 30 * MINUTE);
    const retention = { maxIdleMs: 30 * MINUTE };
    const activeStates = await statesOf(graph, "active", active);
    const activeHistory = await history(graph, threadConfig("active"));

    const dry = await saver.sweep({ retention, now, dryRun: true });
    const applied = await saver.sweep({ retention, now });
    expect(applied).toEqual(dry);
    expect(applied).toEqual({
      threadsExamined: 2,
      threadsEmptied: 1,
      checkpointsExpired: idle.length,
      checkpointsHidden: 0,
      bytes: expect.any(Number),
    });
    expect(applied.bytes).toBeGreaterThan(0);
    expect(await saver.getTuple(threadConfig("idle"))).toBeUndefined();
    const page = await saver.listThreads();
    expect(page.threads.map((t) => t.threadId)).toEqual(["active"]);
    expect(await history(graph, threadConfig("active"))).toEqual(activeHistory);
    expect(await statesOf(graph, "active", active)).toEqual(activeStates);
    const resumed = await graph.invoke(new Command({ resume: "yes" }), threadConfig("active"));
    expect(resumed.log).toEqual(["draft", "review", "publish"]);
  });

  it.each(KINDS)("uses the saver's own policy and counts it in sweeperStats (%s)", async (kind) => {
    // An interval no test waits for: only sweep() runs the policy.
    await open(kind, { retention: { keepLast: 1, sweepIntervalMs: HOUR } });
    await graph.invoke({ messages: [userMessage("hello")] }, threadConfig("t"));
    const all = await checkpointsOf(saver, "t");
    const latest = summarize(await graph.getState(threadConfig("t")));

    const dry = await saver.sweep({ dryRun: true });
    expect(dry).toMatchObject({ threadsExamined: 1, checkpointsExpired: all.length - 1 });
    expect((await saver.sweeperStats()).sweeps).toBe(0);  // dry runs are not counted.
    expect(await saver.sweep({ retention: { keepLast: 5 }, dryRun: true })).toMatchObject({
      checkpointsExpired: 0,
    });

    const applied = await saver.sweep();
    expect(applied).toEqual(dry);
    expect(await saver.sweeperStats()).toEqual({
      sweeps: 1,
      failedSweeps: 0,
      expired: applied,
      lastError: null,
    });
    expect(ids(await checkpointsOf(saver, "t"))).toEqual([all[0].id]);
    expect(summarize(await graph.getState(threadConfig("t")))).toEqual(latest);
  });
});

describe("the background sweeper", () => {
  it("keeps the newest 2 of a 6-checkpoint thread, and close() stops it", async () => {
    const dir = freshDir("rockpoint-sweeper-");
    const config = threadConfig("t");
    let saver = await RockpointSaver.open(dir, {
      retention: { keepLast: 2, sweepIntervalMs: 20 },
    });
    try {
      let graph = buildGraph(saver);
      // 6 checkpoints: input, draft, review (interrupt), publish, end, update.
      await graph.invoke({ messages: [userMessage("hello")] }, config);
      await graph.invoke(new Command({ resume: "yes" }), config);
      await graph.updateState(config, { log: ["manual"] }, "publish");
      const latest = summarize(await graph.getState(config));

      // Bounded wait: every sweep keeps 2, so the 4 others expire once each.
      const deadline = Date.now() + 20000;
      let remaining;
      let stats;
      for (;;) {
        remaining = await checkpointsOf(saver, "t");
        stats = await saver.sweeperStats();
        const done = remaining.length === 2 && stats.expired.checkpointsExpired === 4;
        if (done || Date.now() > deadline) break;
        await sleep(20);
      }
      expect(remaining.length).toBe(2);
      expect(stats).toMatchObject({
        failedSweeps: 0,
        lastError: null,
        expired: { checkpointsExpired: 4 },
      });
      expect(stats.sweeps).toBeGreaterThan(0);
      expect(remaining[0].id).toBe(latest.checkpointId);
      expect(summarize(await graph.getState(config))).toEqual(latest);

      // close() stops the sweeper and releases the store: it reopens at
      // once, with the 2 checkpoints as they were.
      await saver.close();
      await expect(saver.sweeperStats()).rejects.toMatchObject({ code: "Aborted" });
      saver = await RockpointSaver.open(dir);
      graph = buildGraph(saver);
      expect(ids(await checkpointsOf(saver, "t"))).toEqual(ids(remaining));
      expect(summarize(await graph.getState(config))).toEqual(latest);
    } finally {
      await saver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does not keep a process that never closes the saver from exiting", async () => {
    const dir = freshDir("rockpoint-sweeper-exit-");
    const script = `
      import { RockpointSaver } from "./src/index.js";
      const retention = { keepLast: 1, sweepIntervalMs: 5 };
      const kinds = [
        await RockpointSaver.open(process.argv[1], { retention }),
        RockpointSaver.memory({ retention }),
      ];
      for (const saver of kinds) {
        let parent = { configurable: { thread_id: "t", checkpoint_ns: "" } };
        for (let i = 0; i < 5; i++) {
          const id = "0000000" + i;
          parent = await saver.put(parent, { v: 1, id, ts: new Date().toISOString(),
            channel_values: {}, channel_versions: {}, versions_seen: {} }, { step: i }, {});
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log("done");
    `;
    try {
      const { stdout } = await run(
        process.execPath,
        ["--input-type=module", "-e", script, dir],
        { cwd: path.join(here, ".."), timeout: 60000 },
      );
      expect(stdout.trim()).toBe("done");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
