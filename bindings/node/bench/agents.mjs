// Many agents at once: N concurrent LangGraph.js graphs (promises on one
// event loop), each invoking a 3-node StateGraph on a thread_id of its own
// with durability "sync" (every checkpoint and write is durable before the
// graph goes on), again and again for a fixed window. Every saver is
// measured at each N, in a shuffled order. For each (N, saver) it prints
// invokes per second, the ratio to MemorySaver's at the same N, the invokes
// that threw, and fsyncs per saver write: the fdatasync and fsync calls on
// the whole machine during the window (`perf stat -a`, so PostgreSQL's
// server counts too; "n/a" where perf cannot count them), divided by the
// put and putWrites calls the invokes made.
//
// Durable savers: RockpointSaver (syncWrites: true); SqliteSaver
// (better-sqlite3, WAL, synchronous=FULL); PostgresSaver (a pg.Pool of 32,
// synchronous_commit on) when a server is given. MemorySaver is the
// reference. Not part of the tests.
//
//   node bench/agents.mjs [--agents=1,8,32,128] [--seconds=5]
//                         [--pg=postgresql://...] [--out=FILE.md]
//                         [--savers=rockpoint,sqlite,postgres]
//
// --pg defaults to $ROCKPOINT_TEST_POSTGRES_URL; without either, the
// PostgresSaver rows are left out.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { MemorySaver } from "@langchain/langgraph-checkpoint";

import {
  STEP_INPUT,
  benchCommand,
  buildStepGraph,
  commit,
  fdatasyncFloor,
  openers,
  parseArgs,
  shuffled,
} from "./common.mjs";

const args = parseArgs();
const LEVELS = (args.agents ?? "1,8,32,128").split(",").map(Number);
const SECONDS = Number(args.seconds ?? 5);
const PG_URL = args.pg ?? process.env.ROCKPOINT_TEST_POSTGRES_URL ?? "";
const SAVERS = args.savers?.split(","); // default: all (memory always runs)
const POOL_MAX = 32;

// The saver writes one invoke makes (puts and putWrites), counted on a
// MemorySaver.
async function writesPerInvoke() {
  class Counting extends MemorySaver {
    calls = 0;
    async put(...a) {
      this.calls += 1;
      return super.put(...a);
    }
    async putWrites(...a) {
      this.calls += 1;
      return super.putWrites(...a);
    }
  }
  const saver = new Counting();
  const graph = buildStepGraph(saver);
  const config = { configurable: { thread_id: "count" }, durability: "sync" };
  await graph.invoke(STEP_INPUT, config);
  const before = saver.calls;
  await graph.invoke(STEP_INPUT, config);
  return saver.calls - before;
}

// fdatasync + fsync calls on the machine while it runs; null when perf
// cannot count them.
class FsyncCounter {
  static EVENTS = "syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync";

  async start() {
    this.stderr = "";
    try {
      this.perf = spawn(
        "perf",
        ["stat", "-a", "-x", ",", "-e", FsyncCounter.EVENTS],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      this.perf.stderr.on("data", (chunk) => (this.stderr += chunk));
      this.perf.on("error", () => (this.perf = null));
    } catch {
      this.perf = null;
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // perf attaches
  }

  async stop() {
    if (!this.perf) return null;
    const exited = new Promise((resolve) => this.perf.on("close", resolve));
    this.perf.kill("SIGINT");
    await exited;
    const counts = this.stderr
      .split("\n")
      .filter((line) => line.includes("sys_enter_"))
      .map((line) => line.split(",")[0]);
    if (counts.length !== 2 || !counts.every((c) => /^\d+$/.test(c))) {
      return null;
    }
    return counts.reduce((sum, c) => sum + Number(c), 0);
  }
}

async function runWindow(graph, agents) {
  const window = { invokes: 0, errors: 0, firstError: "" };
  let deadline;
  // The agents check the clock, not a timer: with MemorySaver an invoke may
  // never leave the microtask queue, so a timer would never fire.
  async function agent(n) {
    const config = {
      configurable: { thread_id: `agent-${n}-${crypto.randomUUID()}` },
      durability: "sync",
    };
    while (performance.now() < deadline) {
      try {
        await graph.invoke(STEP_INPUT, config);
        window.invokes += 1;
      } catch (error) {
        window.errors += 1;
        window.firstError ||= String(error);
      }
    }
  }
  const fsyncs = new FsyncCounter();
  await fsyncs.start();
  const started = performance.now();
  deadline = started + SECONDS * 1000;
  await Promise.all(Array.from({ length: agents }, (_, n) => agent(n)));
  window.seconds = (performance.now() - started) / 1000;
  window.fsyncs = await fsyncs.stop();
  return window;
}

function report(rows, perInvoke, floor, loadBefore) {
  const command = benchCommand("agents.mjs");
  const lines = [
    `Run: ${new Date().toISOString().slice(0, 16).replace("T", " ")} at ` +
      `${commit()}, ${os.cpus().length} cores, load before ` +
      `${loadBefore.toFixed(2)}, Node ${process.version}; command (in ` +
      `bindings/node): \`${command}\`. Graph: 3 nodes, durability "sync", ` +
      `${perInvoke} saver writes per invoke. fdatasync floor: ` +
      `${Math.round(floor)} µs median. Ratio: invokes/s over MemorySaver's ` +
      `at the same concurrency.`,
    "",
    "| agents | saver | invokes/s | ratio to memory | errors | fsyncs per write |",
    "|---:|---|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const rate = row.invokes / row.seconds;
    const fsyncs =
      row.fsyncs === null || row.invokes === 0
        ? "n/a"
        : (row.fsyncs / (row.invokes * perInvoke)).toFixed(2);
    lines.push(
      `| ${row.agents} | ${row.saver} | ${rate.toFixed(1)} | ` +
        `${(rate / row.reference).toFixed(2)} | ${row.errors} | ${fsyncs} |`,
    );
  }
  const errors = rows.filter((row) => row.firstError);
  for (const row of errors) {
    lines.push("", `First error of ${row.saver} at ${row.agents}: ${row.firstError}`);
  }
  return lines.join("\n") + "\n";
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-agents-"));
  try {
    const perInvoke = await writesPerInvoke();
    const floor = fdatasyncFloor(work);
    const open = openers(work, {
      durable: true,
      pgUrl: PG_URL,
      poolMax: POOL_MAX,
      schemaPrefix: "agents",
      savers: SAVERS,
    });
    const rows = [];
    for (const agents of LEVELS) {
      const level = [];
      for (const name of shuffled(Object.keys(open))) {
        const { saver, close } = await open[name]();
        try {
          const window = await runWindow(buildStepGraph(saver), agents);
          level.push({ agents, saver: name, ...window });
          console.error(
            `agents ${agents} ${name}: ` +
              `${(window.invokes / window.seconds).toFixed(1)} invokes/s`,
          );
        } finally {
          await close();
        }
      }
      const memory = level.find((row) => row.saver === "memory");
      const reference = memory.invokes / memory.seconds;
      level.sort((a, b) => a.saver.localeCompare(b.saver));
      for (const row of level) rows.push({ ...row, reference });
    }
    const text = report(rows, perInvoke, floor, loadBefore);
    process.stdout.write(text);
    if (args.out) fs.writeFileSync(args.out, text);
    if (rows.some((row) => row.errors > 0)) process.exitCode = 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
