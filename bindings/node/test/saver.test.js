// RockpointSaver beyond LangGraph's conformance suite: metadata conversion
// and filters, errors, the extended methods (deleteForRuns, copyThread,
// prune, listThreads), call ordering, persistence and the store lock.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { HumanMessage } from "@langchain/core/messages";
import {
  DeltaSnapshot,
  emptyCheckpoint,
  isDeltaSnapshot,
  uuid6,
} from "@langchain/langgraph-checkpoint";

import { RockpointSaver, SERDE_MARKER, isRockpointError } from "../src/index.js";
import { loadNative } from "../src/native.js";
import { freshDir } from "./initializers.js";

const KINDS = ["memory", "rocksdb"];

async function openSaver(kind) {
  if (kind === "memory") return { saver: RockpointSaver.memory(), dir: null };
  const dir = freshDir();
  return { saver: await RockpointSaver.open(dir), dir };
}

async function closeSaver({ saver, dir }) {
  await saver.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

function checkpoint(id, values = {}, versions = undefined) {
  return {
    ...emptyCheckpoint(),
    id,
    channel_values: values,
    channel_versions:
      versions ?? Object.fromEntries(Object.keys(values).map((k) => [k, 1])),
  };
}

const meta = (extra = {}) => ({ source: "loop", step: 0, parents: {}, ...extra });

async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** `levels` objects {k: {k: ... leaf}}, built without recursion. */
function nestedObjects(levels, leaf = 1) {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { k: value };
  return value;
}

/** `levels` arrays [[...[]...]], built without recursion. */
function nestedArrays(levels) {
  let value = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const TOO_DEEP = /metadata nests deeper than 255 maps and arrays/;

/** Puts a chain of checkpoints on `thread`; returns their configs. */
async function putChain(saver, thread, metas, ns = "") {
  const configs = [];
  let parent = { configurable: { thread_id: thread, checkpoint_ns: ns } };
  for (const m of metas) {
    parent = await saver.put(parent, checkpoint(uuid6(0)), meta(m), {});
    configs.push(parent);
  }
  return configs;
}

describe.each(KINDS)("RockpointSaver (%s)", (kind) => {
  let handle;
  let saver;

  beforeEach(async () => {
    handle = await openSaver(kind);
    saver = handle.saver;
  });

  afterEach(async () => {
    await closeSaver(handle);
  });

  describe("metadata", () => {
    it("round-trips JSON-like values exactly", async () => {
      const metadata = meta({
        int: 42,
        negative: -7,
        double: 1.5,
        big: 2 ** 60,
        flag: false,
        nothing: null,
        text: "héllo \u0000 ✓",
        list: [1, "two", [3], { four: 4 }, null],
        nested: { a: { b: { c: [true] } } },
        bytes: new Uint8Array([0, 1, 255]),
      });
      const config = await saver.put(
        { configurable: { thread_id: "t" } },
        checkpoint(uuid6(0)),
        metadata,
        {},
      );
      const tuple = await saver.getTuple(config);
      expect(tuple.metadata).toEqual(metadata);
      expect(tuple.metadata.bytes).toBeInstanceOf(Uint8Array);
    });

    it("drops undefined members and serializes other objects with serde", async () => {
      const message = new HumanMessage({ content: "hi", id: "m1" });
      const metadata = meta({
        gone: undefined,
        when: new Map([["k", 1]]),
        message,
        tricky: { [SERDE_MARKER]: "user data", type: 3 },
      });
      const config = await saver.put(
        { configurable: { thread_id: "t" } },
        checkpoint(uuid6(0)),
        metadata,
        {},
      );
      const tuple = await saver.getTuple(config);
      expect(Object.hasOwn(tuple.metadata, "gone")).toBe(false);
      expect(tuple.metadata.when).toEqual(new Map([["k", 1]]));
      expect(tuple.metadata.message).toBeInstanceOf(HumanMessage);
      expect(tuple.metadata.message.content).toBe("hi");
      expect(tuple.metadata.tricky).toEqual({ [SERDE_MARKER]: "user data", type: 3 });
    });

    it("rejects values that cannot be stored, naming the field", async () => {
      const base = { configurable: { thread_id: "t" } };
      await expect(
        saver.put(base, checkpoint(uuid6(0)), meta({ n: { deep: 1n } }), {}),
      ).rejects.toThrow(/n\.deep: cannot store a bigint/);
      await expect(
        saver.put(base, checkpoint(uuid6(0)), meta({ f: () => 1 }), {}),
      ).rejects.toThrow(/f: cannot store a function/);
      expect(await collect(saver.list(base))).toEqual([]);
    });

    it("nests at most 255 levels; deeper is refused and writes nothing", async () => {
      const base = { configurable: { thread_id: "t" } };
      // 255 levels, the metadata object counted: stored and read back.
      const deepest = nestedObjects(255);
      const withArrays = { k: nestedArrays(254) };
      for (const metadata of [deepest, withArrays]) {
        const config = await saver.put(base, checkpoint(uuid6(0)), metadata, {});
        expect((await saver.getTuple(config)).metadata).toEqual(metadata);
      }
      const cyclic = { k: 1 };
      cyclic.self = cyclic;
      for (const tooDeep of [
        nestedObjects(256),
        { k: nestedArrays(255) },
        { k: nestedArrays(20000) },
        cyclic,
      ]) {
        const error = await saver
          .put(base, checkpoint(uuid6(0)), tooDeep, {})
          .catch((e) => e);
        expect(error).toBeInstanceOf(TypeError);
        expect(error.code).toBe("InvalidArgument");
        expect(error.message).toMatch(TOO_DEEP);
      }
      expect(await collect(saver.list(base))).toHaveLength(2);
      // Filters follow the same rule.
      const filtered = await collect(saver.list(base, { filter: { k: deepest.k } }));
      expect(filtered.map((t) => t.metadata)).toEqual([deepest]);
      await expect(
        collect(saver.list(base, { filter: { k: nestedArrays(20000) } })),
      ).rejects.toThrow(/filter nests deeper than 255 maps and arrays/);
    });

    it("filters on top-level equality, nested values included", async () => {
      await putChain(saver, "t", [
        { run_id: "a", score: 1, tags: { x: [1, 2] } },
        { run_id: "b", score: 1.0, tags: { x: [1] } },
        { run_id: "c", score: 2.5, tags: { x: [1, 2] } },
      ]);
      const ids = async (filter) =>
        (await collect(saver.list({ configurable: {} }, { filter }))).map(
          (t) => t.metadata.run_id,
        );
      expect(await ids({ score: 1 })).toEqual(["b", "a"]);
      expect(await ids({ score: 2.5 })).toEqual(["c"]);
      expect(await ids({ tags: { x: [1, 2] } })).toEqual(["c", "a"]);
      expect(await ids({ tags: { x: [1, 2] }, score: 1 })).toEqual(["a"]);
      expect(await ids({ missing: 1 })).toEqual([]);
      expect(await ids({ run_id: undefined })).toEqual(["c", "b", "a"]);
    });
  });

  describe("errors", () => {
    it("rejects engine errors with the status code", async () => {
      const error = await saver
        .put({ configurable: { thread_id: "t" } }, checkpoint(""), meta(), {})
        .catch((e) => e);
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toMatch(/checkpoint/);
    });

    it("rejects versions that are neither integers nor strings", async () => {
      await expect(
        saver.put(
          { configurable: { thread_id: "t" } },
          checkpoint(uuid6(0), { a: 1 }, { a: 1.5 }),
          meta(),
          { a: 1.5 },
        ),
      ).rejects.toThrow(/channel_versions\.a must be an integer or a string/);
    });

    it("requires thread_id for writes and checkpoint_id for putWrites", async () => {
      await expect(
        saver.put({ configurable: {} }, checkpoint(uuid6(0)), meta(), {}),
      ).rejects.toThrow(/thread_id/);
      await expect(
        saver.putWrites({ configurable: { thread_id: "t" } }, [["a", 1]], "task"),
      ).rejects.toThrow(/checkpoint_id/);
    });

    it("getTuple as MemorySaver: no config is a TypeError, no thread_id none", async () => {
      // MemorySaver and SqliteSaver read config.configurable: a null or
      // undefined config is a TypeError there too. Without thread_id,
      // MemorySaver (the reference) finds nothing.
      for (const config of [undefined, null, "t", 1]) {
        await expect(saver.getTuple(config)).rejects.toThrow(TypeError);
      }
      await saver.put(
        { configurable: { thread_id: "t", checkpoint_ns: "" } },
        checkpoint(uuid6(0)),
        meta(),
        {},
      );
      expect(await saver.getTuple({})).toBeUndefined();
      expect(await saver.getTuple({ configurable: {} })).toBeUndefined();
    });

    it("rejects every call after close()", async () => {
      await saver.close();
      const error = await saver
        .getTuple({ configurable: { thread_id: "t" } })
        .catch((e) => e);
      expect(error.code).toBe("Aborted");
      expect(saver.kind).toBe("closed");
    });
  });

  describe("values", () => {
    it("round-trips large, binary and string-versioned values", async () => {
      const big = "x".repeat(2 << 20);
      const bytes = new Uint8Array([9, 0, 8]);
      const version = saver.getNextVersion(undefined);
      const config = await saver.put(
        { configurable: { thread_id: "t" } },
        checkpoint(uuid6(0), { big, bytes }, { big: version, bytes: 7 }),
        meta(),
        { big: version, bytes: 7 },
      );
      const tuple = await saver.getTuple(config);
      expect(tuple.checkpoint.channel_values.big).toBe(big);
      expect(tuple.checkpoint.channel_values.bytes).toEqual(bytes);
      expect(tuple.checkpoint.channel_versions).toEqual({ big: version, bytes: 7 });
    });

    it("generates fixed-width string versions that order like numbers", () => {
      const v1 = saver.getNextVersion(undefined);
      const v2 = saver.getNextVersion(v1);
      const v10 = saver.getNextVersion(
        `${"9".padStart(32, "0")}.0000000000000000`,
      );
      expect(v1).toMatch(/^0{31}1\.\d{16}$/);
      expect(v2.startsWith(`${"2".padStart(32, "0")}.`)).toBe(true);
      expect(v10.startsWith(`${"10".padStart(32, "0")}.`)).toBe(true);
      expect(v1 < v2 && v2 < v10).toBe(true);
      expect(saver.getNextVersion(4).startsWith(`${"5".padStart(32, "0")}.`)).toBe(true);
      // Two branches forked from one version get different versions.
      expect(saver.getNextVersion(v1)).not.toBe(saver.getNextVersion(v1));
    });
  });

  describe("extended methods", () => {
    it("deleteForRuns removes the runs' checkpoints; children keep their parent link", async () => {
      const [c1, c2, c3] = await putChain(saver, "t", [
        { run_id: "r1" },
        { run_id: "r2" },
        { run_id: "r3" },
      ]);
      await saver.putWrites(c2, [["a", 1]], "task");
      await saver.deleteForRuns(["r2", "unknown"]);
      expect(await saver.getTuple(c2)).toBeUndefined();
      const child = await saver.getTuple(c3);
      expect(child.parentConfig.configurable.checkpoint_id).toBe(
        c2.configurable.checkpoint_id,
      );
      const left = await collect(saver.list({ configurable: { thread_id: "t" } }));
      expect(left.map((t) => t.metadata.run_id)).toEqual(["r3", "r1"]);
      expect(await saver.getTuple(c1)).toBeDefined();
      await saver.deleteForRuns([]);
      expect(await collect(saver.list({ configurable: {} }))).toHaveLength(2);
    });

    it("copyThread copies checkpoints, namespaces and writes under the same ids", async () => {
      const root = await putChain(saver, "src", [{ step: 0 }, { step: 1 }]);
      const child = await putChain(saver, "src", [{ step: 0 }], "sub:1");
      await saver.putWrites(root[1], [["a", { v: 1 }]], "task", "~0");
      await saver.copyThread("src", "dst");
      const strip = (t) => ({ ...t, config: undefined, parentConfig: undefined });
      const source = await collect(saver.list({ configurable: { thread_id: "src" } }));
      const target = await collect(saver.list({ configurable: { thread_id: "dst" } }));
      expect(target.map(strip)).toEqual(source.map(strip));
      expect(target.map((t) => t.config.configurable.thread_id)).toEqual(
        ["dst", "dst", "dst"],
      );
      expect(target.map((t) => t.config.configurable.checkpoint_id).sort()).toEqual(
        [...root, ...child].map((c) => c.configurable.checkpoint_id).sort(),
      );
    });

    it("prune keeps the newest and what their delta history needs", async () => {
      const thread = { configurable: { thread_id: "t", checkpoint_ns: "" } };
      const c0 = await saver.put(
        thread,
        checkpoint(uuid6(0), { messages: new DeltaSnapshot(["a"]) }),
        meta(),
        { messages: 1 },
      );
      await saver.putWrites(c0, [["messages", ["b"]]], "task0");
      // Like a DeltaChannel: the version advances, no value is stored.
      const c1 = await saver.put(
        c0,
        checkpoint(uuid6(0), {}, { messages: 2 }),
        meta(),
        { messages: 2 },
      );
      await saver.putWrites(c1, [["messages", ["c"]]], "task1");
      const c2 = await saver.put(
        c1,
        checkpoint(uuid6(0), {}, { messages: 3 }),
        meta(),
        { messages: 3 },
      );
      await putChain(saver, "other", [{}, {}]);
      const before = await saver.getDeltaChannelHistory({
        config: c2,
        channels: ["messages"],
      });
      expect(isDeltaSnapshot(before.messages.seed)).toBe(true);
      expect(before.messages.writes.map((w) => w[2])).toEqual([["b"], ["c"]]);

      await saver.prune(["t"], { strategy: "keep_latest", keepLast: 1 });
      const visible = await collect(saver.list({ configurable: { thread_id: "t" } }));
      expect(visible.map((t) => t.checkpoint.id)).toEqual([c2.configurable.checkpoint_id]);
      expect(
        await saver.getDeltaChannelHistory({ config: c2, channels: ["messages"] }),
      ).toEqual(before);
      expect(await collect(saver.list({ configurable: { thread_id: "other" } }))).toHaveLength(2);

      await saver.prune(["t"], { strategy: "delete" });
      expect(await saver.getTuple(thread)).toBeUndefined();
      await expect(saver.prune(["t"], { strategy: "newest" })).rejects.toThrow(
        /keep_latest/,
      );
    });

    it("listThreads pages threads with their namespaces", async () => {
      await putChain(saver, "a", [{}, {}]);
      await putChain(saver, "a", [{}], "sub:1");
      await putChain(saver, "b", [{}]);
      const page = await saver.listThreads({ limit: 1 });
      expect(page.threads.map((t) => t.threadId)).toEqual(["a"]);
      expect(
        page.threads[0].namespaces.map((n) => [n.checkpointNs, n.checkpointCount]),
      ).toEqual([["", 2], ["sub:1", 1]]);
      expect(page.nextAfter).toBe("a");
      const rest = await saver.listThreads({ after: page.nextAfter });
      expect(rest.threads.map((t) => t.threadId)).toEqual(["b"]);
      expect(rest.nextAfter).toBeUndefined();
    });

    it("deleteThread removes one thread only", async () => {
      await putChain(saver, "a", [{}]);
      await putChain(saver, "b", [{}]);
      await saver.deleteThread("a");
      await saver.deleteThread("never-seen");
      const left = await collect(saver.list({ configurable: {} }));
      expect(left.map((t) => t.config.configurable.thread_id)).toEqual(["b"]);
    });
  });

  describe("call order", () => {
    it("applies calls made without awaiting in call order, per thread", async () => {
      const ids = Array.from({ length: 40 }, () => uuid6(0));
      const pending = [];
      let parent = { configurable: { thread_id: "t", checkpoint_ns: "" } };
      for (const id of ids) {
        pending.push(saver.put(parent, checkpoint(id), meta(), {}));
        parent = { configurable: { ...parent.configurable, checkpoint_id: id } };
        pending.push(saver.putWrites(parent, [["__interrupt__", id]], "task"));
        pending.push(saver.putWrites(parent, [["a", 1]], "task"));
        pending.push(saver.putWrites(parent, [["a", 2]], "task"));
      }
      const last = { configurable: { thread_id: "t", checkpoint_id: ids.at(-1) } };
      pending.push(saver.putWrites(last, [["__interrupt__", "final"]], "task"));
      const latest = saver.getTuple({ configurable: { thread_id: "t" } });
      await Promise.all(pending);
      expect((await latest).checkpoint.id).toBe(ids.at(-1));
      const tuples = await collect(saver.list({ configurable: { thread_id: "t" } }));
      expect(tuples.map((t) => t.checkpoint.id)).toEqual([...ids].reverse());
      for (const tuple of tuples) {
        const expected = tuple.checkpoint.id === ids.at(-1) ? "final" : tuple.checkpoint.id;
        expect(tuple.pendingWrites).toEqual([
          ["task", "__interrupt__", expected],
          ["task", "a", 1],
        ]);
      }
    });

    it("releases a cursor when iteration stops early", async () => {
      await putChain(saver, "t", [{}, {}, {}]);
      for await (const tuple of saver.list({ configurable: {} })) {
        expect(tuple).toBeDefined();
        break;
      }
      await saver.close();
      expect(saver.kind).toBe("closed");
    });
  });
});

describe("the addon's own nesting check (without the JS layer)", () => {
  it("takes 255 levels and refuses deeper metadata and filters", async () => {
    const native = loadNative().NativeStore.openMemory({});
    const raw = (id) => ({
      v: 4,
      id,
      ts: "",
      channel_values: {},
      channel_versions: {},
      versions_seen: {},
    });
    const deepest = nestedObjects(255);
    const config = native.putSync({ thread_id: "t" }, raw("a"), deepest, {});
    expect(native.getTupleSync(config).metadata).toEqual(deepest);
    for (const tooDeep of [nestedObjects(256), { k: nestedArrays(20000) }]) {
      expect(() =>
        native.putSync({ thread_id: "t" }, raw("b"), tooDeep, {}),
      ).toThrow(TOO_DEEP);
    }
    expect(() => native.listSync({ filter: { k: nestedArrays(255) } })).toThrow(
      /filter nests deeper than 255 maps and arrays/,
    );
    const found = native.listSync({ filter: { k: deepest.k } }).tuples;
    expect(found.map((tuple) => tuple.checkpoint_id)).toEqual(["a"]);
    await native.close();
  });
});

describe("RockpointSaver on disk", () => {
  let dir;
  beforeEach(() => {
    dir = freshDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("persists across close and reopen", async () => {
    const first = new RockpointSaver(dir);  // opens on first use.
    const [config] = await putChain(first, "t", [{ run_id: "x" }]);
    await first.putWrites(config, [["a", { deep: [1] }]], "task");
    expect(first.kind).toBe("rocksdb");
    await first.close();

    const second = await RockpointSaver.open(dir);
    const tuple = await second.getTuple({ configurable: { thread_id: "t" } });
    expect(tuple.metadata.run_id).toBe("x");
    expect(tuple.pendingWrites).toEqual([["task", "a", { deep: [1] }]]);
    await second.close();
  });

  it("holds the store lock until closed", async () => {
    const first = await RockpointSaver.open(dir);
    const error = await RockpointSaver.open(dir).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/cannot open store/);
    expect(error.cause.code).toBe("Busy");
    await first.close();
    const again = await RockpointSaver.open(dir);
    await again.close();
  });

  it("reports open errors on first use and lets a later call retry", async () => {
    const file = path.join(dir, "not-a-directory");
    fs.writeFileSync(file, "x");
    const saver = new RockpointSaver(file);
    await expect(saver.getTuple({ configurable: { thread_id: "t" } })).rejects.toThrow(
      /cannot open store/,
    );
    await saver.close();
  });

  it("compacts and reports stats; the memory store has neither", async () => {
    const saver = await RockpointSaver.open(dir);
    await putChain(saver, "t", [{}, {}]);
    await saver.compact();
    const stats = await saver.stats();
    expect(stats.column_families.map((cf) => cf.name)).toContain("checkpoints");
    expect(stats.total_disk_bytes).toBeGreaterThan(0);
    await saver.close();
    const memory = RockpointSaver.memory();
    await expect(memory.stats()).rejects.toThrow(/only a RocksDB store/);
    await memory.close();
  });
});

describe("error codes and naming", () => {
  it("gives every error a code, argument errors included", async () => {
    const saver = RockpointSaver.memory();
    const missing = await saver
      .put({ configurable: {} }, checkpoint(uuid6(0)), meta(), {})
      .catch((e) => e);
    expect(missing.code).toBe("InvalidArgument");
    const badId = await saver
      .getTuple({ configurable: { thread_id: {} } })
      .catch((e) => e);
    expect(badId).toBeInstanceOf(TypeError);
    expect(badId.code).toBe("InvalidArgument");
    const badMeta = await saver
      .put({ configurable: { thread_id: "t" } }, checkpoint(uuid6(0)), { n: 1n }, {})
      .catch((e) => e);
    expect(badMeta.code).toBe("InvalidArgument");
    const badVersion = await saver
      .put(
        { configurable: { thread_id: "t" } },
        checkpoint(uuid6(0), { a: 1 }, { a: 1.5 }),
        meta(),
        { a: 1.5 },
      )
      .catch((e) => e);
    expect(badVersion.code).toBe("InvalidArgument");
    expect(isRockpointError(badVersion)).toBe(true);
    await saver.close();
  });

  it("puts the engine's code on a failed open, keeping it as cause", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-codes-"));
    try {
      const first = await RockpointSaver.open(dir);
      const error = await RockpointSaver.open(dir).catch((e) => e);
      expect(error.code).toBe("Busy");
      expect(error.cause.code).toBe("Busy");
      const stats = await first.stats();
      expect(stats.columnFamilies.map((cf) => cf.name)).toContain("checkpoints");
      expect(stats.totalDiskBytes).toBe(stats.total_disk_bytes);
      expect(Object.keys(stats)).toEqual([
        "columnFamilies",
        "totalDiskBytes",
        "bytesWritten",
        "compactionBytesWritten",
      ]);
      await first.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
