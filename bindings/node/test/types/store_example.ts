// Type-checked by test/types.test.js (tsc --noEmit, never run): what a
// TypeScript user writes with RockpointStore must compile: a graph
// compiled with a checkpointer and a store, a node reading the store from
// its config and through getStore(), the options and the extra arguments.
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { Annotation, END, START, StateGraph, getStore } from "@langchain/langgraph";
import { BaseStore, InMemoryStore, type Item, type SearchItem } from "@langchain/langgraph-checkpoint";

import {
  RockpointSaver,
  RockpointStore,
  type EmbedFunction,
  type RockpointStoreOptions,
  type StoreIndexConfig,
  type StoreIndexStats,
  type StoreTtlConfig,
} from "@rockpoint/langgraph-checkpoint-rockpoint";

const State = Annotation.Root({
  userId: Annotation<string>(),
  recalled: Annotation<string[]>(),
});

const embed: EmbedFunction = async (texts) => texts.map((text) => [text.length, 1]);

function build(store: BaseStore, checkpointer: RockpointSaver) {
  return new StateGraph(State)
    .addNode("remember", async (state, config: LangGraphRunnableConfig) => {
      await config.store?.put(["memories", state.userId], "fact", { text: "likes tea" });
      return {};
    })
    .addNode("recall", async (state) => {
      const found: SearchItem[] = await getStore()!.search(["memories", state.userId], {
        query: "drinks",
        limit: 3,
      });
      return { recalled: found.map((item) => String(item.value.text)) };
    })
    .addEdge(START, "remember")
    .addEdge("remember", "recall")
    .addEdge("recall", END)
    .compile({ checkpointer, store });
}

export async function main(dir: string): Promise<void> {
  const index: StoreIndexConfig = { dims: 2, embeddings: embed, fields: ["text"] };
  const ttl: StoreTtlConfig = { defaultTtl: 60, refreshOnRead: true, sweepIntervalMinutes: 10 };
  const options: RockpointStoreOptions = { index, ttl, syncWrites: false };
  const store = await RockpointStore.open(`${dir}-store`, options);
  const checkpointer = await RockpointSaver.open(`${dir}-checkpoints`);
  const graph = build(store, checkpointer);
  const state = await graph.invoke({ userId: "u1" }, { configurable: { thread_id: "t1" } });
  const recalled: string[] = state.recalled;
  void recalled;
  void build(RockpointStore.memory({ index: { dims: 2, embed } }), RockpointSaver.memory());
  void build(new InMemoryStore(), RockpointSaver.memory());

  await store.put(["docs"], "a", { text: "hello" }, ["text"], { ttl: 5 });
  await store.put(["docs"], "b", { text: "forever" }, false, { ttl: null });
  const item: Item | null = await store.get(["docs"], "a", { refreshTtl: false });
  const created: Date | undefined = item?.createdAt;
  void created;
  const results = await store.batch([
    { namespace: ["docs"], key: "a" },
    { namespacePrefix: ["docs"], filter: { text: { $ne: "x" } }, limit: 5, offset: 0 },
    { namespace: ["docs"], key: "c", value: { text: "new" } },
    { matchConditions: [{ matchType: "prefix", path: ["docs"] }], limit: 10, offset: 0 },
  ] as const);
  const first: Item | null = results[0];
  const hits: SearchItem[] = results[1];
  const namespaces: string[][] = results[3];
  void first;
  void hits;
  void namespaces;
  // rockpoint's extras on LangGraph's operations: a put's ttl, a read's refreshTtl.
  await store.batch([
    { namespace: ["docs"], key: "e", value: { text: "t" }, ttl: 5 },
    { namespace: ["docs"], key: "e", refreshTtl: false },
  ]);
  const swept: number = await store.sweepTtl();
  void swept;
  const stats: StoreIndexStats | null = await store.indexStats();
  const ready: boolean | undefined = stats?.approximateReady;
  void ready;
  void RockpointStore.memory({
    index: { dims: 2, embed, exactSearchMaxVectors: 1000, hnsw: { m: 32, ef: 128 } },
  });
  const kind: "memory" | "rocksdb" | "closed" = store.kind;
  const dims: number | undefined = store.indexConfig?.dims;
  void kind;
  void dims;
  // @ts-expect-error a TTL is minutes (a number) or null
  void store.put(["docs"], "d", { text: "x" }, undefined, { ttl: "5" });
  // @ts-expect-error memory() takes no readOnly
  void RockpointStore.memory({ readOnly: true });
  await store.close();
  await checkpointer.close();
}
