// Child process of store_graph.test.js: a new Node process reopens the
// checkpoints and the long-term memory the test process wrote, and asks the
// memory agent on another thread; the agent recalls the fact by semantic
// search. Prints one JSON object on stdout.
//   node test/store_graph_child.mjs <checkpoint dir> <store dir> <question>
import { RockpointSaver, RockpointStore } from "../src/index.js";
import { agentStoreOptions, buildMemoryAgent } from "./store_fixture.js";

const [checkpointDir, storeDir, question] = process.argv.slice(2);
const checkpointer = await RockpointSaver.open(checkpointDir);
const store = await RockpointStore.open(storeDir, agentStoreOptions());
try {
  const agent = buildMemoryAgent({ checkpointer, store });
  const thread1 = await agent.getState({ configurable: { thread_id: "thread-1" } });
  const result = await agent.invoke(
    { userId: "alice", message: question },
    { configurable: { thread_id: "thread-2" } },
  );
  const memories = await store.search(["memories", "alice"], { limit: 10 });
  process.stdout.write(
    JSON.stringify({
      pid: process.pid,
      thread1Reply: thread1.values.reply,
      reply: result.reply,
      recalled: result.recalled,
      memories: memories.map((item) => item.value.text).sort(),
    }),
  );
} finally {
  await store.close();
  await checkpointer.close();
}
