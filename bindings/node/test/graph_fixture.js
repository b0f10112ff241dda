// The LangGraph.js graph the end-to-end tests run (in the test process and
// in a child process): draft -> review (interrupts for approval) -> publish.
// `messages` is a DeltaChannel (snapshot every 2 updates), so reading a
// checkpoint exercises getDeltaChannelHistory with real LangChain messages.
import {
  Annotation,
  DeltaChannel,
  END,
  START,
  StateGraph,
  interrupt,
  messagesDeltaReducer,
} from "@langchain/langgraph";
import { AIMessage, HumanMessage } from "@langchain/core/messages";

export const State = Annotation.Root({
  messages: new DeltaChannel(messagesDeltaReducer, { snapshotFrequency: 2 }),
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  approved: Annotation(),
});

export function buildGraph(checkpointer) {
  return new StateGraph(State)
    .addNode("draft", (state) => ({
      messages: [
        new AIMessage({
          content: `draft of ${state.messages.at(-1).content}`,
          id: `draft-${state.messages.length}`,
        }),
      ],
      log: ["draft"],
    }))
    .addNode("review", (state) => {
      const answer = interrupt({
        question: "approve?",
        draft: state.messages.at(-1).content,
      });
      return {
        approved: answer === "yes",
        messages: [
          new HumanMessage({ content: answer, id: `answer-${state.messages.length}` }),
        ],
        log: ["review"],
      };
    })
    .addNode("publish", (state) => ({
      messages: [
        new AIMessage({ content: "published", id: `publish-${state.messages.length}` }),
      ],
      log: ["publish"],
    }))
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", "publish")
    .addEdge("publish", END)
    .compile({ checkpointer });
}

export function userMessage(content) {
  return new HumanMessage({ content, id: `user-${content}` });
}

/** A JSON-comparable view of a StateSnapshot. */
export function summarize(snapshot) {
  return {
    checkpointId: snapshot.config.configurable.checkpoint_id,
    parentId: snapshot.parentConfig?.configurable?.checkpoint_id ?? null,
    next: [...snapshot.next],
    source: snapshot.metadata?.source,
    step: snapshot.metadata?.step,
    messages: (snapshot.values.messages ?? []).map((m) => [
      m.constructor.name,
      m.content,
      m.id,
    ]),
    log: snapshot.values.log ?? [],
    approved: snapshot.values.approved ?? null,
    interrupts: snapshot.tasks.flatMap((task) =>
      (task.interrupts ?? []).map((i) => i.value),
    ),
  };
}

/** Every snapshot of a thread, newest first, summarized. */
export async function history(graph, config) {
  const out = [];
  for await (const snapshot of graph.getStateHistory(config)) {
    out.push(summarize(snapshot));
  }
  return out;
}

/**
 * Runs the whole scenario (interrupt, resume, updateState, replay from the
 * checkpoint before "draft", resume) on thread "s" and returns the history
 * with checkpoint ids replaced by their position, so that runs on different
 * savers compare equal.
 */
export async function runScenario(graph, Command) {
  const config = { configurable: { thread_id: "s" } };
  await graph.invoke({ messages: [userMessage("hello")] }, config);
  await graph.invoke(new Command({ resume: "yes" }), config);
  await graph.updateState(config, { log: ["manual"] }, "publish");
  const beforeDraft = (await history(graph, config)).find(
    (s) => s.next.length === 1 && s.next[0] === "draft",
  );
  await graph.invoke(null, {
    configurable: { thread_id: "s", checkpoint_id: beforeDraft.checkpointId },
  });
  await graph.invoke(new Command({ resume: "no" }), config);
  const states = await history(graph, config);
  const position = new Map(states.map((s, i) => [s.checkpointId, i]));
  return states.map(({ checkpointId, parentId, ...rest }) => ({
    ...rest,
    position: position.get(checkpointId),
    parent: parentId === null ? null : position.get(parentId),
  }));
}
