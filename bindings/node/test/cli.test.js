// The rockpoint CLI on a store a LangGraph.js graph wrote: messages read as
// {"type": "HumanMessage", "content": ...} (tools/cli/readable_values.h)
// instead of LangChain's lc constructor JSON, and the interrupt is readable.
//
// The CLI is $ROCKPOINT_CLI (tools/setup.sh test sets it), else the build's
// build/tools/rockpoint; the tests are skipped when neither exists.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import {
  END,
  MessagesAnnotation,
  START,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";
import { AIMessage, HumanMessage } from "@langchain/core/messages";

import { RockpointSaver } from "../src/index.js";
import { freshDir } from "./initializers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli =
  process.env.ROCKPOINT_CLI ||
  path.resolve(here, "../../../build/tools/rockpoint");
const run = promisify(execFile);
const thread = "chat";

function buildChat(checkpointer) {
  return new StateGraph(MessagesAnnotation)
    .addNode("chat", (state) => ({
      messages: [
        new AIMessage({
          content: `echo: ${state.messages.at(-1).content}`,
          id: "a1",
        }),
      ],
    }))
    .addNode("ask", () => {
      const answer = interrupt({ question: "approve?" });
      return { messages: [new HumanMessage({ content: answer, id: "h2" })] };
    })
    .addEdge(START, "chat")
    .addEdge("chat", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer });
}

async function rockpoint(store, ...args) {
  const { stdout } = await run(cli, [...args, "--store", store], {
    maxBuffer: 1 << 24,
  });
  return stdout;
}

const brief = (messages) => messages.map((m) => [m.type, m.content, m.id]);

describe.skipIf(!fs.existsSync(cli))("the rockpoint CLI on a LangGraph.js store", () => {
  const dir = freshDir("rockpoint-cli-");

  beforeAll(async () => {
    const saver = await RockpointSaver.open(dir);
    const result = await buildChat(saver).invoke(
      { messages: [new HumanMessage({ content: "hello", id: "h1" })] },
      { configurable: { thread_id: thread } },
    );
    expect(result.__interrupt__.map((i) => i.value)).toEqual([
      { question: "approve?" },
    ]);
    await saver.close();
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("show reads the messages", async () => {
    const show = JSON.parse(await rockpoint(dir, "show", thread, "--json"));
    const row = show.channels.find((c) => c.channel === "messages");
    expect(brief(row.value.value)).toEqual([
      ["HumanMessage", "hello", "h1"],
      ["AIMessage", "echo: hello", "a1"],
    ]);
    const table = await rockpoint(dir, "show", thread, "--full");
    expect(table).toContain('{"type":"HumanMessage","content":"hello",');
    expect(table).toContain('{"type":"AIMessage","content":"echo: hello",');
  });

  it("writes reads the interrupt", async () => {
    const [latest] = JSON.parse(await rockpoint(dir, "history", thread, "--json"));
    const writes = JSON.parse(
      await rockpoint(dir, "writes", thread, latest.checkpoint_id, "--json"),
    );
    const interrupts = writes.filter((w) => w.channel === "__interrupt__");
    expect(interrupts).toHaveLength(1);
    const [item] = interrupts[0].value.value;
    expect(item.value).toEqual({ question: "approve?" });
  });

  it("diff shows the messages readably", async () => {
    const history = JSON.parse(await rockpoint(dir, "history", thread, "--json"));
    const rows = JSON.parse(
      await rockpoint(
        dir,
        "diff",
        thread,
        history.at(-1).checkpoint_id,
        history[0].checkpoint_id,
        "--json",
      ),
    );
    const messages = rows.find((r) => r.channel === "messages");
    expect(brief(messages.value_b.value)).toEqual([
      ["HumanMessage", "hello", "h1"],
      ["AIMessage", "echo: hello", "a1"],
    ]);
  });

  it("export keeps the stored bytes", async () => {
    const exported = await rockpoint(dir, "export");
    expect(exported).not.toContain('"type":"HumanMessage"');
    expect(exported).toContain('"kind":"value"');
  });
});
