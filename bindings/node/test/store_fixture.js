// What the store tests share (test/store*.test.js and the child process of
// store_graph.test.js): a deterministic fake embedding, the stores under
// test, failure(), and the memory agent graph. Imports nothing of vitest,
// so a plain Node process can load it.
import { randomUUID } from "node:crypto";
import fs from "node:fs";

import {
  Annotation,
  END,
  START,
  StateGraph,
  getStore,
} from "@langchain/langgraph";

import { RockpointStore } from "../src/index.js";
import { freshDir } from "./initializers.js";

/**
 * Topics of the fake embedding: a text's vector counts its words of each
 * topic, plus a constant last component (so no vector is all zeros).
 */
const TOPICS = [
  ["tea", "coffee", "drink", "drinks", "juice", "water"],
  ["code", "program", "typescript", "rust", "compiler"],
  ["cat", "cats", "dog", "dogs", "pet", "pets"],
];

export const DIMS = TOPICS.length + 1;

/** The fake embedding of `text`: DIMS numbers, the same in every process. */
export function fakeVector(text) {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const vector = TOPICS.map((topic) => words.filter((w) => topic.includes(w)).length);
  vector.push(1);
  return vector;
}

/**
 * A LangChain-style Embeddings object over fakeVector that records its
 * calls: documents (one array of texts per embedDocuments call) and
 * queries (one text per embedQuery call).
 */
export function fakeEmbeddings(vectorOf = fakeVector) {
  const calls = { documents: [], queries: [] };
  return {
    calls,
    async embedDocuments(texts) {
      calls.documents.push([...texts]);
      return texts.map((text) => vectorOf(text));
    },
    async embedQuery(text) {
      calls.queries.push(text);
      return vectorOf(text);
    },
  };
}

/**
 * The stores the tests run on: each `open(options)` makes a new store (a
 * fresh RocksDB directory, or memory) that `cleanup()` closes and removes.
 */
export const BACKENDS = [
  {
    name: "rocksdb",
    make() {
      const opened = [];
      return {
        dir: null,
        async open(options = {}) {
          const dir = freshDir("rockpoint-store-");
          const store = await RockpointStore.open(dir, options);
          opened.push([store, dir]);
          this.dir = dir;
          return store;
        },
        async cleanup() {
          for (const [store, dir] of opened.splice(0)) {
            await store.close();
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      };
    },
  },
  {
    name: "memory",
    make() {
      const opened = [];
      return {
        dir: null,
        async open(options = {}) {
          const store = RockpointStore.memory(options);
          opened.push(store);
          return store;
        },
        async cleanup() {
          for (const store of opened.splice(0)) await store.close();
        },
      };
    },
  },
];

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error `promise` rejects with (fails the test when it resolves). */
export async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

// ---- the memory agent ---------------------------------------------------------

export const AgentState = Annotation.Root({
  userId: Annotation(),
  message: Annotation(),
  reply: Annotation(),
  recalled: Annotation(),
});

/**
 * A memory agent: "remember <fact>" stores the fact under ("memories",
 * userId) through the node's config.store; any other message is answered
 * by recalling the most similar fact through getStore() (semantic search).
 */
export function buildMemoryAgent({ checkpointer, store }) {
  return new StateGraph(AgentState)
    .addNode("remember", async (state, config) => {
      const fact = /^remember (.+)$/i.exec(state.message)?.[1];
      if (!fact) return { reply: null };
      await config.store.put(["memories", state.userId], randomUUID(), {
        text: fact,
        thread: config.configurable.thread_id,
      });
      return { reply: "noted", recalled: null };
    })
    .addNode("recall", async (state) => {
      if (state.reply === "noted") return {};
      const [best] = await getStore().search(["memories", state.userId], {
        query: state.message,
        limit: 1,
      });
      if (!best) return { reply: "I know nothing about you yet", recalled: null };
      return {
        reply: `You told me: ${best.value.text}`,
        recalled: { text: best.value.text, thread: best.value.thread, score: best.score },
      };
    })
    .addEdge(START, "remember")
    .addEdge("remember", "recall")
    .addEdge("recall", END)
    .compile({ checkpointer, store });
}

/** The agent's store options: the fake embedding over the facts' text. */
export function agentStoreOptions() {
  return { index: { dims: DIMS, embeddings: fakeEmbeddings(), fields: ["text"] } };
}
