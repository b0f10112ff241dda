// The application test/install.test.js runs in a fresh directory where the
// packed tarball is installed: it imports the package by name, as a user
// would. Prints one JSON object on stdout.
//   node app.mjs start <store dir>    runs a graph until its interrupt
//   node app.mjs resume <store dir>   reopens the store, resumes, finishes
import {
  Annotation,
  Command,
  END,
  START,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";
import { RockpointSaver } from "@rockpoint/langgraph-checkpoint-rockpoint";

const [phase, dir] = process.argv.slice(2);

const State = Annotation.Root({
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  answer: Annotation(),
});

const saver = await RockpointSaver.open(dir);
try {
  const graph = new StateGraph(State)
    .addNode("ask", () => ({ log: ["ask"] }))
    .addNode("wait", () => ({ answer: interrupt({ question: "go?" }), log: ["wait"] }))
    .addNode("done", (state) => ({ log: [`done:${state.answer}`] }))
    .addEdge(START, "ask")
    .addEdge("ask", "wait")
    .addEdge("wait", "done")
    .addEdge("done", END)
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "install" } };
  let out;
  if (phase === "start") {
    const result = await graph.invoke({ log: ["start"] }, config);
    const state = await graph.getState(config);
    out = {
      interrupts: result.__interrupt__?.map((i) => i.value) ?? [],
      next: state.next,
      log: state.values.log,
    };
  } else {
    const before = await graph.getState(config);
    const result = await graph.invoke(new Command({ resume: "yes" }), config);
    const after = await graph.getState(config);
    let history = 0;
    for await (const _ of graph.getStateHistory(config)) history++;
    out = { nextBefore: before.next, log: result.log, next: after.next, history };
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await saver.close();
}
