// What the LangGraph.js benchmarks (agents.mjs, steps.mjs, stores.mjs)
// share: their command-line arguments, the savers they compare, the 3-node
// graph, the fdatasync floor, and the report's commit and command. Not part
// of the package.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import pg from "pg";

import { RockpointSaver } from "../src/index.js";

/** --key=value arguments as {key: value}; a bare --key maps to "". */
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.map((arg) => {
      const [key, ...value] = arg.replace(/^--/, "").split("=");
      return [key, value.join("=")];
    }),
  );
}

export const STEP_INPUT = { x: 0, log: "" };

const StepState = Annotation.Root({
  x: Annotation(),
  log: Annotation(),
});

/** The 3-node graph (a -> b -> c) both benchmarks run. */
export function buildStepGraph(checkpointer) {
  const step = (name) => (state) => ({ x: state.x + 1, log: name.repeat(300) });
  return new StateGraph(StepState)
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("c", step("c"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer });
}

/**
 * Openers of the compared savers, by name; each returns {saver, close}.
 * `durable` picks the class: RockpointSaver syncWrites and SQLite's
 * synchronous (FULL or NORMAL). PostgresSaver (a pg.Pool of `poolMax`, in a
 * schema of its own named after `schemaPrefix`) only when `pgUrl` is set;
 * its durability is the server's. `savers` (names) keeps only those, and
 * memory, the reference, always.
 */
export function openers(work, { durable, pgUrl, poolMax, schemaPrefix, savers }) {
  const out = {
    memory: async () => ({ saver: new MemorySaver(), close: async () => {} }),
    rockpoint: async () => {
      const dir = fs.mkdtempSync(path.join(work, "rockpoint-"));
      const saver = await RockpointSaver.open(path.join(dir, "store"), {
        syncWrites: durable,
      });
      return { saver, close: () => saver.close() };
    },
    sqlite: async () => {
      const dir = fs.mkdtempSync(path.join(work, "sqlite-"));
      const saver = SqliteSaver.fromConnString(path.join(dir, "db.sqlite"));
      saver.db.pragma("journal_mode = WAL");
      saver.db.pragma(`synchronous = ${durable ? "FULL" : "NORMAL"}`);
      return { saver, close: async () => saver.db.close() };
    },
  };
  if (pgUrl) {
    out.postgres = async () => {
      // As libpq does, a URL without a user name means the OS user's.
      process.env.PGUSER ??= os.userInfo().username;
      const pool = new pg.Pool({ connectionString: pgUrl, max: poolMax });
      const schema = `${schemaPrefix}_${process.pid}_${Date.now()}`;
      await pool.query(`CREATE SCHEMA ${schema}`);
      const saver = new PostgresSaver(pool, undefined, { schema });
      await saver.setup();
      return {
        saver,
        close: async () => {
          await pool.query(`DROP SCHEMA ${schema} CASCADE`);
          await pool.end();
        },
      };
    };
  }
  if (savers) {
    for (const name of Object.keys(out)) {
      if (name !== "memory" && !savers.includes(name)) delete out[name];
    }
  }
  return out;
}

/** Median µs of `n` 1 KB appends each followed by fdatasync, in `work`. */
export function fdatasyncFloor(work, n = 200) {
  const fd = fs.openSync(path.join(work, "fdatasync-probe"), "a");
  const block = Buffer.alloc(1024, "x");
  const times = [];
  try {
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      fs.writeSync(fd, block);
      fs.fdatasyncSync(fd);
      times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  } finally {
    fs.closeSync(fd);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

export function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The checkout's short commit, or "unknown". */
export function commit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: path.dirname(new URL(import.meta.url).pathname),
      encoding: "utf8",
    }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * The command to print beside a report: the wrapper's (with_pg.sh sets
 * ROCKPOINT_BENCH_COMMAND, since its --pg names a temporary server), else
 * this node command line.
 */
export function benchCommand(script) {
  return (
    process.env.ROCKPOINT_BENCH_COMMAND ??
    [`node bench/${script}`, ...process.argv.slice(2)].join(" ")
  );
}
