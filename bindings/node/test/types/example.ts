// Type-checked by test/types.test.js (tsc --noEmit, never run): what a
// TypeScript user writes with RockpointSaver must compile.
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  START,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";

import {
  ERROR_CODES,
  RockpointSaver,
  isRockpointError,
  type CheckpointerTtlConfig,
  type RetentionPolicy,
  type RetentionReport,
  type RockpointErrorCode,
  type RockpointOptions,
  type StoreStats,
  type SweeperStats,
  type ThreadPage,
} from "@rockpoint/langgraph-checkpoint-rockpoint";

const State = Annotation.Root({
  topic: Annotation<string>(),
  approved: Annotation<boolean>(),
});

function build(checkpointer: RockpointSaver | MemorySaver) {
  return new StateGraph(State)
    .addNode("review", () => ({ approved: interrupt("approve?") === "yes" }))
    .addEdge(START, "review")
    .addEdge("review", END)
    .compile({ checkpointer });
}

export async function main(dir: string): Promise<void> {
  const options: RockpointOptions = { syncWrites: false, blockCacheBytes: 8 << 20 };
  const checkpointer = await RockpointSaver.open(dir, options);
  // The line of the issue: compile({ checkpointer }) with a RockpointSaver.
  const graph = new StateGraph(State)
    .addNode("review", () => ({ approved: interrupt("approve?") === "yes" }))
    .addEdge(START, "review")
    .addEdge("review", END)
    .compile({ checkpointer });
  const config = { configurable: { thread_id: "t1" } };
  await graph.invoke({ topic: "types" }, config);
  const state = await graph.invoke(new Command({ resume: "yes" }), config);
  const approved: boolean = state.approved;
  void approved;
  void build(RockpointSaver.memory());
  void build(new MemorySaver());

  const stats: StoreStats = await checkpointer.stats();
  const bytes: number = stats.totalDiskBytes + stats.columnFamilies[0].liveSstBytes;
  void bytes;
  const page: ThreadPage = await checkpointer.listThreads({ limit: 10 });
  for (const thread of page.threads) {
    const count: number = thread.namespaces[0].checkpointCount;
    void count;
  }
  await checkpointer.prune(["t1"], { strategy: "keep_latest", keepLast: 2 });
  const version: string = checkpointer.getNextVersion(undefined);
  void version;

  // Retention: a policy, LangGraph platform's TTL settings (both
  // spellings), sweep() and the sweeper's stats.
  const policy: RetentionPolicy = { maxIdleMs: 30 * 86_400_000, keepLast: 1, sweepIntervalMs: 60_000 };
  const ttl: CheckpointerTtlConfig = {
    ttl: { strategy: "keep_latest", defaultTtl: 43_200, sweepIntervalMinutes: 60 },
  };
  const fromJson: CheckpointerTtlConfig = {
    ttl: { strategy: "delete", default_ttl: 43_200, sweep_interval_minutes: 60 },
  };
  const retained = await RockpointSaver.open(`${dir}-retained`, { retention: policy });
  void RockpointSaver.memory({ retention: ttl });
  void RockpointSaver.memory({ retention: fromJson });
  const keepLast: number | undefined = retained.retention?.keepLast;
  const interval: number | undefined = retained.retention?.sweepIntervalMs;
  void keepLast;
  void interval;
  const dry: RetentionReport = await retained.sweep({ dryRun: true });
  const report: RetentionReport = await checkpointer.sweep({
    retention: { maxAgeMs: 7 * 86_400_000 },
    now: new Date(),
  });
  const expired: number = dry.checkpointsExpired + report.checkpointsHidden + report.bytes;
  void expired;
  const sweeper: SweeperStats | null = await retained.sweeperStats();
  if (sweeper?.lastError) {
    const failed: RockpointErrorCode = sweeper.lastError.code;
    void failed;
  }
  await retained.close();

  // Encryption at rest: a 32-byte key as bytes (a Buffer is a Uint8Array)
  // or as 64 hex digits.
  const keyBytes: Uint8Array = new Uint8Array(32);
  const encrypted = await RockpointSaver.open(`${dir}-encrypted`, {
    encryptionKey: keyBytes,
    retention: policy,
  });
  await encrypted.close();
  const keyText: RockpointOptions["encryptionKey"] = "00".repeat(32);
  await (await RockpointSaver.open(`${dir}-encrypted`, { encryptionKey: keyText })).close();
  // @ts-expect-error a key is bytes or hex text, never a number
  void RockpointSaver.open(`${dir}-encrypted`, { encryptionKey: 42 });

  try {
    await RockpointSaver.open(dir);
  } catch (error) {
    if (isRockpointError(error)) {
      const code: RockpointErrorCode = error.code;
      if (code === "Busy" && ERROR_CODES.includes(code)) console.log("locked");
    }
  }
  await checkpointer.close();
}
