// Child process of e2e.test.js: reopens the store written by the test
// process, reports what LangGraph reads back, and resumes an interrupted
// thread. Prints one JSON object on stdout.
//   node test/e2e_child.mjs <store dir>
import { Command } from "@langchain/langgraph";

import { RockpointSaver } from "../src/index.js";
import { buildGraph, history, summarize } from "./graph_fixture.js";

const [dir] = process.argv.slice(2);
const saver = await RockpointSaver.open(dir);
try {
  const graph = buildGraph(saver);
  const t1 = { configurable: { thread_id: "t1" } };
  const t2 = { configurable: { thread_id: "t2" } };
  const out = {
    t1State: summarize(await graph.getState(t1)),
    t1History: await history(graph, t1),
    t2Before: summarize(await graph.getState(t2)),
  };
  await graph.invoke(new Command({ resume: "from-child" }), t2);
  out.t2After = summarize(await graph.getState(t2));
  process.stdout.write(JSON.stringify(out));
} finally {
  await saver.close();
}
