// One LangGraph.js graph step at a time: the latency of one awaited
// graph.invoke (no concurrency), with LangGraph's default durability
// ("async": the saver's writes overlap the next node, and the invoke waits
// for them before it returns), on each saver of the no-fsync class. Two
// workloads:
// - "3-node invoke": the graph of agents.mjs (common.mjs), one invoke per
//   sample, on threads that grow (a new thread every 50 invokes);
// - "10-turn chat": a one-node MessagesAnnotation graph that echoes the
//   human message, one sample being a whole conversation of 10 invokes on a
//   fresh thread (reported per conversation and per turn).
// After a warm-up, --rounds rounds in which every saver, in a shuffled
// order, runs its samples of each workload. Prints per (workload, saver)
// the median and p99 in ms and rockpoint's median over that saver's (< 1:
// rockpoint is faster), then the targets met or missed. One sample per
// round and saver is checked (the graph's state after it), so a broken path
// is not measured. Not part of the tests.
//
//   node bench/steps.mjs [--rounds=10] [--samples=240] [--quick]
//                        [--workloads=step,chat] [--pg=postgresql://...]
//                        [--savers=rockpoint,sqlite,postgres] [--out=FILE.md]
//
// --samples is the 3-node samples per saver and round; chat runs a tenth as
// many conversations (as many invokes), at least one. The defaults take 2 to
// 3 minutes on 2 cores; --quick: 2 rounds of 10, for a try in seconds.
//
// Savers (no fsync per write): RockpointSaver (syncWrites: false);
// SqliteSaver (better-sqlite3, WAL, synchronous=NORMAL); PostgresSaver (a
// pg.Pool) when a server is given: bench/steps.sh starts one with fsync off.
// MemorySaver is the reference. --pg defaults to $ROCKPOINT_TEST_POSTGRES_URL;
// without either, the PostgresSaver rows are left out.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";

import {
  STEP_INPUT,
  benchCommand,
  buildStepGraph,
  commit,
  openers,
  parseArgs,
  shuffled,
} from "./common.mjs";

const args = parseArgs();
const QUICK = "quick" in args;
const ROUNDS = Number(args.rounds ?? (QUICK ? 2 : 10));
const SAMPLES = Number(args.samples ?? (QUICK ? 10 : 240));
const WORKLOADS = (args.workloads ?? "step,chat").split(",");
const PG_URL = args.pg ?? process.env.ROCKPOINT_TEST_POSTGRES_URL ?? "";
const SAVERS = args.savers?.split(","); // default: all (memory always runs)
const INVOKES_PER_THREAD = 50;
const TURNS = 10;
const TEXT = "lorem ipsum dolor sit amet, ".repeat(8).slice(0, 200);

function buildChatGraph(checkpointer) {
  const chat = (state) => {
    const last = state.messages.at(-1);
    return { messages: [new AIMessage(`echo: ${last.content} ${TEXT}`)] };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode("chat", chat)
    .addEdge(START, "chat")
    .addEdge("chat", END)
    .compile({ checkpointer });
}

// One invoke per sample; a new thread every INVOKES_PER_THREAD invokes.
function stepSampler(graph) {
  let invokes = 0;
  let config;
  return async () => {
    if (invokes++ % INVOKES_PER_THREAD === 0) {
      config = { configurable: { thread_id: crypto.randomUUID() } };
    }
    await graph.invoke(STEP_INPUT, config);
    return config;
  };
}

// A conversation of TURNS invokes per sample, on a fresh thread.
function chatSampler(graph) {
  return async () => {
    const config = { configurable: { thread_id: crypto.randomUUID() } };
    for (let turn = 0; turn < TURNS; turn++) {
      const message = new HumanMessage(`turn ${turn}: ${TEXT}`);
      await graph.invoke({ messages: [message] }, config);
    }
    return config;
  };
}

async function checkStep(graph, config) {
  const { values } = await graph.getState(config);
  if (values.x !== 3 || values.log !== "c".repeat(300)) {
    throw new Error(`3-node invoke left ${JSON.stringify(values)}`);
  }
}

async function checkChat(graph, config) {
  const { messages } = (await graph.getState(config)).values;
  const human = messages.filter((m) => m.getType() === "human").length;
  if (messages.length !== 2 * TURNS || human !== TURNS) {
    throw new Error(
      `10-turn chat left ${messages.length} messages, ${human} human`,
    );
  }
}

const WORKLOAD_SPECS = {
  step: {
    label: "3-node invoke",
    build: buildStepGraph,
    sampler: stepSampler,
    check: checkStep,
    samples: SAMPLES,
    warmup: QUICK ? 2 : 20,
  },
  chat: {
    label: "10-turn chat",
    build: buildChatGraph,
    sampler: chatSampler,
    check: checkChat,
    samples: Math.max(1, Math.round(SAMPLES / TURNS)),
    warmup: QUICK ? 1 : 2,
  },
};

function median(sorted) {
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function p99(sorted) {
  return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
}

// The runs of one workload on one saver: {graph, sample, check, times}.
function subject(spec, saver) {
  const graph = spec.build(saver);
  return { graph, sample: spec.sampler(graph), check: spec.check, times: [] };
}

// Runs `count` samples, timing each; checks the first one's result.
async function runSamples(run, count) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const config = await run.sample();
    run.times.push(performance.now() - start);
    if (i === 0) await run.check(run.graph, config);
  }
}

// {workload: {saver: times}} over the warm-up and ROUNDS rounds.
async function measure(savers) {
  const runs = {};
  for (const workload of WORKLOADS) {
    const spec = WORKLOAD_SPECS[workload];
    runs[workload] = {};
    for (const [name, saver] of Object.entries(savers)) {
      const run = subject(spec, saver);
      await runSamples(run, spec.warmup);
      run.times = [];
      runs[workload][name] = run;
    }
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const workload of WORKLOADS) {
      const { samples } = WORKLOAD_SPECS[workload];
      for (const name of shuffled(Object.keys(savers))) {
        await runSamples(runs[workload][name], samples);
      }
    }
    console.error(`round ${round}/${ROUNDS} done`);
  }
  const out = {};
  for (const workload of WORKLOADS) {
    out[workload] = {};
    for (const [name, run] of Object.entries(runs[workload])) {
      out[workload][name] = run.times.sort((a, b) => a - b);
    }
  }
  return out;
}

// Table rows: per workload and saver, and chat again per turn.
function rows(times) {
  const out = [];
  for (const [workload, bySaver] of Object.entries(times)) {
    const label = WORKLOAD_SPECS[workload].label;
    const scales = [[label, 1]];
    if (workload === "chat") scales.push([`${label}, per turn`, TURNS]);
    for (const [name, scale] of scales) {
      for (const saver of Object.keys(bySaver).sort()) {
        const sorted = bySaver[saver];
        const ratio =
          bySaver.rockpoint && saver !== "rockpoint"
            ? median(bySaver.rockpoint) / median(sorted)
            : null;
        out.push({
          workload: name,
          saver,
          median: median(sorted) / scale,
          p99: p99(sorted) / scale,
          ratio,
        });
      }
    }
  }
  return out;
}

function targets(times) {
  const lines = [];
  for (const [workload, bySaver] of Object.entries(times)) {
    if (!bySaver.rockpoint) continue;
    const label = WORKLOAD_SPECS[workload].label;
    const ratio = (saver) => median(bySaver.rockpoint) / median(bySaver[saver]);
    const verdict = (met, r) => `${met ? "met" : "MISSED"} (${r.toFixed(2)})`;
    const memory = ratio("memory");
    lines.push(
      `- ${label}: rockpoint within 1.15x of memory: ` +
        verdict(memory <= 1.15, memory),
    );
    for (const other of ["sqlite", "postgres"]) {
      if (!bySaver[other]) continue;
      const r = ratio(other);
      lines.push(`- ${label}: faster than ${other}: ${verdict(r < 1, r)}`);
    }
  }
  return lines;
}

function report(times, loadBefore, seconds) {
  const command = benchCommand("steps.mjs");
  const perRound = WORKLOADS.map(
    (w) => `${WORKLOAD_SPECS[w].samples} × ${WORKLOAD_SPECS[w].label}`,
  ).join(", ");
  const postgres = PG_URL
    ? ", PostgreSQL server with fsync off (bench/steps.sh's: " +
      "synchronous_commit and full_page_writes off too)"
    : "";
  const lines = [
    `Run: ${new Date().toISOString().slice(0, 16).replace("T", " ")} at ` +
      `${commit()}, ${os.cpus().length} cores, load before ` +
      `${loadBefore.toFixed(2)}, Node ${process.version}; command (in ` +
      `bindings/node): \`${command}\`; ${Math.round(seconds)} s. ` +
      `${ROUNDS} rounds; in each, per saver in a shuffled order: ` +
      `${perRound}. One awaited invoke at a time, LangGraph's default ` +
      `durability ("async"); per turn: a conversation's times / ${TURNS}. ` +
      `Ratio: rockpoint's median / the saver's (< 1: rockpoint is faster).`,
    "",
    "Class: no fsync per write: rockpoint syncWrites false, SQLite WAL " +
      `synchronous=NORMAL${postgres}.`,
    "",
    "| workload | saver | median ms | p99 ms | rockpoint ratio |",
    "|---|---|---:|---:|---:|",
  ];
  for (const row of rows(times)) {
    const ratio = row.ratio === null ? "" : row.ratio.toFixed(2);
    lines.push(
      `| ${row.workload} | ${row.saver} | ${row.median.toFixed(2)} | ` +
        `${row.p99.toFixed(2)} | ${ratio} |`,
    );
  }
  lines.push("", "Targets:", "", ...targets(times));
  return lines.join("\n") + "\n";
}

// Calls every close, then throws the first failure.
async function closeAll(closers) {
  const results = await Promise.allSettled(closers.map((close) => close()));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-steps-"));
  const opened = [];
  try {
    const savers = {};
    const open = openers(work, {
      durable: false,
      pgUrl: PG_URL,
      schemaPrefix: "steps",
      savers: SAVERS,
    });
    for (const [name, opener] of Object.entries(open)) {
      const { saver, close } = await opener();
      opened.push(close);
      savers[name] = saver;
    }
    const times = await measure(savers);
    const seconds = (performance.now() - started) / 1000;
    const text = report(times, loadBefore, seconds);
    process.stdout.write(text);
    if (args.out) fs.writeFileSync(args.out, text);
  } finally {
    try {
      await closeAll(opened);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
