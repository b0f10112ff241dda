// End to end with the real @langchain/langgraph: a StateGraph with an
// interrupt, persisted in a RocksDB store through RockpointSaver; resume,
// getState / getStateHistory, updateState and a replay from an older
// checkpoint; then the store is reopened in a child process, which must read
// the same state and can resume another interrupted thread.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { Command, MemorySaver } from "@langchain/langgraph";
import { isDeltaSnapshot } from "@langchain/langgraph-checkpoint";

import { RockpointSaver } from "../src/index.js";
import { freshDir } from "./initializers.js";
import {
  buildGraph,
  history,
  runScenario,
  summarize,
  userMessage,
} from "./graph_fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

describe("LangGraph.js end to end on rockpoint", () => {
  const dir = freshDir("rockpoint-e2e-");
  const t1 = { configurable: { thread_id: "t1" } };
  const t2 = { configurable: { thread_id: "t2" } };
  let saver;
  let graph;
  let reviewCheckpointId;  // t1 checkpoint waiting at the interrupt.
  let draftCheckpointId;  // t1 checkpoint before the draft node ran.

  beforeAll(async () => {
    saver = await RockpointSaver.open(dir);
    graph = buildGraph(saver);
  });

  afterAll(async () => {
    await saver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stops at the interrupt and persists it", async () => {
    const result = await graph.invoke({ messages: [userMessage("hello")] }, t1);
    expect(result.__interrupt__.map((i) => i.value)).toEqual([
      { question: "approve?", draft: "draft of hello" },
    ]);
    const state = summarize(await graph.getState(t1));
    expect(state.next).toEqual(["review"]);
    expect(state.interrupts).toEqual([
      { question: "approve?", draft: "draft of hello" },
    ]);
    expect(state.messages).toEqual([
      ["HumanMessage", "hello", "user-hello"],
      ["AIMessage", "draft of hello", "draft-1"],
    ]);
    reviewCheckpointId = state.checkpointId;
  });

  it("resumes with Command({resume})", async () => {
    const result = await graph.invoke(new Command({ resume: "yes" }), t1);
    expect(result.log).toEqual(["draft", "review", "publish"]);
    expect(result.approved).toBe(true);
    const state = summarize(await graph.getState(t1));
    expect(state.next).toEqual([]);
    expect(state.messages.map(([, content]) => content)).toEqual([
      "hello",
      "draft of hello",
      "yes",
      "published",
    ]);
  });

  it("lists the history newest first, linked by parent ids", async () => {
    const states = await history(graph, t1);
    expect(states.map((s) => s.next)).toEqual([
      [],
      ["publish"],
      ["review"],
      ["draft"],
      ["__start__"],
    ]);
    expect(states.map((s) => s.step)).toEqual([3, 2, 1, 0, -1]);
    for (let i = 0; i + 1 < states.length; i++) {
      expect(states[i].parentId).toBe(states[i + 1].checkpointId);
    }
    expect(states.at(-1).parentId).toBeNull();
    expect(states[2].checkpointId).toBe(reviewCheckpointId);
    draftCheckpointId = states[3].checkpointId;
  });

  it("stores messages as deltas with periodic snapshots", async () => {
    let deltas = 0;
    let snapshots = 0;
    for await (const tuple of saver.list(t1)) {
      const stored = tuple.checkpoint.channel_values.messages;
      if (stored === undefined) deltas++;
      else if (isDeltaSnapshot(stored)) snapshots++;
    }
    expect(deltas).toBeGreaterThan(0);
    expect(snapshots).toBeGreaterThan(0);
  });

  it("applies updateState as a new checkpoint with source 'update'", async () => {
    const before = summarize(await graph.getState(t1));
    await graph.updateState(t1, { log: ["manual"] }, "publish");
    const after = summarize(await graph.getState(t1));
    expect(after.source).toBe("update");
    expect(after.parentId).toBe(before.checkpointId);
    expect(after.log).toEqual(["draft", "review", "publish", "manual"]);
    expect(after.messages).toEqual(before.messages);
  });

  it("replays from an older checkpoint, appending a fork", async () => {
    const lengthBefore = (await history(graph, t1)).length;
    const fork = { configurable: { thread_id: "t1", checkpoint_id: draftCheckpointId } };
    const replayed = await graph.invoke(null, fork);
    expect(replayed.__interrupt__.map((i) => i.value.question)).toEqual([
      "approve?",
    ]);
    const result = await graph.invoke(new Command({ resume: "no" }), t1);
    expect(result.approved).toBe(false);
    expect(result.log).toEqual(["draft", "review", "publish"]);
    expect(result.messages.map((m) => m.content)).toEqual([
      "hello",
      "draft of hello",
      "no",
      "published",
    ]);
    const states = await history(graph, t1);
    expect(states.length).toBeGreaterThan(lengthBefore);
    // The new branch leads back to the replayed checkpoint.
    const byId = new Map(states.map((s) => [s.checkpointId, s]));
    let cursor = states[0];
    const path = [];
    while (cursor) {
      path.push(cursor.checkpointId);
      cursor = byId.get(cursor.parentId);
    }
    expect(path).toContain(draftCheckpointId);
    expect(path).not.toContain(reviewCheckpointId);
    // The original branch is still readable as it was.
    const original = summarize(
      await graph.getState({
        configurable: { thread_id: "t1", checkpoint_id: reviewCheckpointId },
      }),
    );
    expect(original.next).toEqual(["review"]);
    expect(original.messages.map(([, content]) => content)).toEqual([
      "hello",
      "draft of hello",
    ]);
  });

  it("reads the same state in a new process, which resumes another thread", async () => {
    await graph.invoke({ messages: [userMessage("second")] }, t2);
    const t1State = summarize(await graph.getState(t1));
    const t1History = await history(graph, t1);
    await saver.close();  // releases the store for the child.

    const { stdout } = await run(
      process.execPath,
      [path.join(here, "e2e_child.mjs"), dir],
      { cwd: path.join(here, ".."), timeout: 60000 },
    );
    const child = JSON.parse(stdout);
    expect(child.t1State).toEqual(t1State);
    expect(child.t1History).toEqual(t1History);
    expect(child.t2Before.next).toEqual(["review"]);
    expect(child.t2Before.interrupts).toEqual([
      { question: "approve?", draft: "draft of second" },
    ]);
    expect(child.t2After.approved).toBe(false);
    expect(child.t2After.messages.map(([, content]) => content)).toEqual([
      "second",
      "draft of second",
      "from-child",
      "published",
    ]);

    // And the child's writes are visible here after reopening.
    saver = await RockpointSaver.open(dir);
    graph = buildGraph(saver);
    expect(summarize(await graph.getState(t2))).toEqual(child.t2After);
  });
});

describe("the same run on MemorySaver and on rockpoint", () => {
  it.each(["memory", "rocksdb"])(
    "reads back exactly what MemorySaver does (%s)",
    async (kind) => {
      const expected = await runScenario(buildGraph(new MemorySaver()), Command);
      const dir = kind === "rocksdb" ? freshDir("rockpoint-diff-") : undefined;
      const saver =
        kind === "rocksdb"
          ? await RockpointSaver.open(dir)
          : RockpointSaver.memory();
      try {
        expect(await runScenario(buildGraph(saver), Command)).toEqual(expected);
      } finally {
        await saver.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
