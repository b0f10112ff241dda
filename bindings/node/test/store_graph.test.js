// A real LangGraph.js graph with long-term memory on rockpoint: a memory
// agent (test/store_fixture.js) compiled with a RockpointSaver and a
// RockpointStore stores facts on thread 1 through its node's config.store;
// then a new Node process (store_graph_child.mjs) reopens both and, on
// thread 2, the agent recalls the right fact through getStore() and a
// semantic search with the deterministic fake embedding. The same agent
// runs on the in-memory store, and next to LangGraph's InMemoryStore.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { RockpointSaver, RockpointStore } from "../src/index.js";
import { freshDir } from "./initializers.js";
import {
  DIMS,
  agentStoreOptions,
  buildMemoryAgent,
  fakeEmbeddings,
} from "./store_fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const thread = (id) => ({ configurable: { thread_id: id } });

describe("a memory agent on RockpointSaver and RockpointStore", () => {
  const checkpointDir = freshDir("rockpoint-agent-checkpoints-");
  const storeDir = freshDir("rockpoint-agent-store-");
  let checkpointer;
  let store;
  let agent;

  beforeAll(async () => {
    checkpointer = await RockpointSaver.open(checkpointDir);
    store = await RockpointStore.open(storeDir, agentStoreOptions());
    agent = buildMemoryAgent({ checkpointer, store });
  });

  afterAll(async () => {
    await store?.close();
    await checkpointer?.close();
    fs.rmSync(checkpointDir, { recursive: true, force: true });
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  it("stores facts on thread 1 through the node's config.store", async () => {
    for (const message of [
      "remember I drink green tea every morning",
      "remember my cat is called Tom",
      "remember I write TypeScript code at work",
    ]) {
      const result = await agent.invoke({ userId: "alice", message }, thread("thread-1"));
      expect(result.reply).toBe("noted");
    }
    const memories = await store.search(["memories", "alice"], { limit: 10 });
    expect(memories.map((item) => item.value.text).sort()).toEqual([
      "I drink green tea every morning",
      "I write TypeScript code at work",
      "my cat is called Tom",
    ]);
    expect(memories.every((item) => item.value.thread === "thread-1")).toBe(true);
    expect(await store.listNamespaces()).toEqual([["memories", "alice"]]);
    // The checkpointer kept thread 1's state.
    expect((await agent.getState(thread("thread-1"))).values.reply).toBe("noted");
  });

  it("recalls on thread 2 in the same process", async () => {
    const result = await agent.invoke(
      { userId: "alice", message: "Which pets do I have?" },
      thread("thread-2"),
    );
    expect(result.reply).toBe("You told me: my cat is called Tom");
    expect(result.recalled.thread).toBe("thread-1");
    expect(result.recalled.score).toBeGreaterThan(0.5);
  });

  it("recalls on a new thread in a new process, by semantic search", async () => {
    await store.close();  // releases both directories for the child.
    await checkpointer.close();

    const { stdout } = await run(
      process.execPath,
      [
        path.join(here, "store_graph_child.mjs"),
        checkpointDir,
        storeDir,
        "What do I like to drink?",
      ],
      { cwd: path.join(here, ".."), timeout: 60000 },
    );
    const child = JSON.parse(stdout);
    expect(child.pid).not.toBe(process.pid);
    expect(child.thread1Reply).toBe("noted");
    expect(child.reply).toBe("You told me: I drink green tea every morning");
    expect(child.recalled).toEqual({
      text: "I drink green tea every morning",
      thread: "thread-1",
      score: expect.any(Number),
    });
    expect(child.recalled.score).toBeGreaterThan(0.5);
    expect(child.memories).toHaveLength(3);

    // Back here: the child's thread 2 checkpoint is visible, and recalling
    // wrote no memory.
    checkpointer = await RockpointSaver.open(checkpointDir);
    store = await RockpointStore.open(storeDir, agentStoreOptions());
    agent = buildMemoryAgent({ checkpointer, store });
    const state = await agent.getState(thread("thread-2"));
    expect(state.values.reply).toBe("You told me: I drink green tea every morning");
    expect(await store.search(["memories", "alice"], { limit: 10 })).toHaveLength(3);
  });

  it("keeps each user's memories apart", async () => {
    const result = await agent.invoke(
      { userId: "bob", message: "What do I like to drink?" },
      thread("thread-3"),
    );
    expect(result.reply).toBe("I know nothing about you yet");
  });
});

describe("the memory agent on other stores", () => {
  it.each([
    ["RockpointStore.memory", () => RockpointStore.memory(agentStoreOptions())],
    ["LangGraph's InMemoryStore", () => new InMemoryStore(agentStoreOptions())],
  ])("recalls the same on %s", async (_name, makeStore) => {
    const store = makeStore();
    const checkpointer = RockpointSaver.memory();
    const agent = buildMemoryAgent({ checkpointer, store });
    await agent.invoke({ userId: "u", message: "remember I drink coffee" }, thread("a"));
    await agent.invoke({ userId: "u", message: "remember my dog is Rex" }, thread("a"));
    const result = await agent.invoke({ userId: "u", message: "any pets?" }, thread("b"));
    expect(result.reply).toBe("You told me: my dog is Rex");
    await store.close?.();
    await checkpointer.close();
  });
});

describe("the memory agent with bad input", () => {
  it("fails the run on an embedding of the wrong length, writing no memory", async () => {
    const store = RockpointStore.memory({
      index: { dims: DIMS, embeddings: fakeEmbeddings(() => [1, 0]), fields: ["text"] },
    });
    const checkpointer = RockpointSaver.memory();
    const agent = buildMemoryAgent({ checkpointer, store });
    const error = await agent
      .invoke({ userId: "u", message: "remember I drink tea" }, thread("a"))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(
      /index\.embeddings returned a vector of 2 numbers for the text "I drink tea"; index\.dims is 4/,
    );
    expect(await store.search([], { limit: 10 })).toEqual([]);
    await store.close();
    await checkpointer.close();
  });

  it("fails the run on a query against a store without an index", async () => {
    const store = RockpointStore.memory();
    const checkpointer = RockpointSaver.memory();
    const agent = buildMemoryAgent({ checkpointer, store });
    const error = await agent
      .invoke({ userId: "u", message: "what do I drink?" }, thread("a"))
      .catch((e) => e);
    expect(error.code).toBe("InvalidArgument");
    expect(error.message).toMatch(/searches with a query, but the store has no index/);
    await store.close();
    await checkpointer.close();
  });
});
