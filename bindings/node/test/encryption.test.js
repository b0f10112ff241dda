// Encryption at rest in RockpointSaver (docs/ENCRYPTION.md): the
// `encryptionKey` option. A round trip (put, putWrites, getTuple, list with
// metadata filters) on an encrypted store; no byte of what was stored shows
// in the store's files (write-ahead log, then SST and blob files after a
// compaction), while a plaintext store shows it (so the search can find
// it); reopening with the key in each of its forms; a missing or wrong key
// and a key for a plaintext store with records reject the open with
// InvalidArgument; a record tampered with on disk rejects its reads with
// Corruption instead of reading as empty; bad keys throw before anything is
// opened (by the saver, and again by the addon); the in-memory store takes
// no key; a real StateGraph runs on an encrypted store as on MemorySaver.
//
// The tampering rewrites the sealed value of a record in the store's
// write-ahead log, with the log's CRC32C fixed up, so that RocksDB reads
// the record as written and only the record's AES-GCM tag can tell.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { Command, MemorySaver } from "@langchain/langgraph";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";

import { RockpointSaver, isRockpointError } from "../src/index.js";
import { loadNative } from "../src/native.js";
import { freshDir } from "./initializers.js";
import { buildGraph, runScenario, userMessage } from "./graph_fixture.js";

const KEY = randomBytes(32);
const HEX = KEY.toString("hex");
const OTHER_KEY = randomBytes(32);

// Strings that must never show in an encrypted store's files.
const MARKERS = {
  metadata: "rockpoint-marker-in-metadata-3f9a61",
  value: "rockpoint-marker-in-a-channel-value-b27c04",
  big: "rockpoint-marker-in-a-blob-file-value-51d8e2",
  write: "rockpoint-marker-in-a-pending-write-c6e913",
};

const thread = (threadId) => ({ configurable: { thread_id: threadId } });

function checkpoint(values = {}) {
  return {
    ...emptyCheckpoint(),
    id: uuid6(0),
    channel_values: values,
    channel_versions: Object.fromEntries(Object.keys(values).map((k) => [k, 1])),
  };
}

const meta = (extra = {}) => ({ source: "loop", step: 0, parents: {}, ...extra });

async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/**
 * Puts, on thread "t", a checkpoint of alice carrying every marker (a big
 * value goes to a blob file) with a pending write, then one of bob.
 * Returns the configs of both.
 */
async function putMarked(saver) {
  const big = "x".repeat(100_000) + MARKERS.big;
  const values = { note: MARKERS.value, big };
  const alice = await saver.put(
    thread("t"),
    checkpoint(values),
    meta({ user: "alice", note: MARKERS.metadata }),
    { note: 1, big: 1 },
  );
  await saver.putWrites(alice, [["note", MARKERS.write]], "task-1");
  const bob = await saver.put(alice, checkpoint(), meta({ user: "bob", step: 1 }), {});
  return { alice, bob, values };
}

/** Every file under `dir`. */
function filesOf(dir) {
  return fs.readdirSync(dir, { recursive: true })
    .map((name) => path.join(dir, name))
    .filter((file) => fs.statSync(file).isFile());
}

/** "<file>: <marker>" for each marker found in a file under `dir`. */
function markersIn(dir) {
  const found = [];
  for (const file of filesOf(dir)) {
    const bytes = fs.readFileSync(file);
    for (const marker of Object.values(MARKERS)) {
      if (bytes.includes(Buffer.from(marker))) {
        found.push(`${path.basename(file)}: ${marker}`);
      }
    }
  }
  return found;
}

// ---- the write-ahead log, to tamper with a record -------------------------
// RocksDB's log format (db/log_format.h): 32 KiB blocks of fragments, each
// a 7-byte header (masked CRC32C of type + payload, length, type) and its
// payload; fragments of types FULL (1) or FIRST/MIDDLE/LAST (2-4) make up a
// record, a WriteBatch: sequence (8 bytes), count (4), then entries.

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** util/crc32c.h Mask. */
const maskCrc = (crc) => ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;

const BLOCK = 32768;
const HEADER = 7;

/**
 * The records of a log: [{bytes, at}], `at[i]` the file offset of byte i
 * of the record, `fragments` the header offsets of its fragments.
 */
function logRecords(file) {
  const records = [];
  let current = null;
  let offset = 0;
  while (offset + HEADER <= file.length) {
    const left = BLOCK - (offset % BLOCK);
    if (left < HEADER) {
      offset += left;  // a block's trailer.
      continue;
    }
    const length = file.readUInt16LE(offset + 4);
    const type = file[offset + 6];
    if (type === 0 || type > 4) break;  // preallocated zeros, or the end.
    if (type === 1 || type === 2) current = { parts: [], at: [], fragments: [] };
    current.parts.push(file.subarray(offset + HEADER, offset + HEADER + length));
    current.fragments.push(offset);
    for (let i = 0; i < length; i++) current.at.push(offset + HEADER + i);
    if (type === 1 || type === 4) {
      records.push({ ...current, bytes: Buffer.concat(current.parts) });
      current = null;
    }
    offset += HEADER + length;
  }
  return records;
}

/** The value-carrying entries of a WriteBatch: [{key, value}] as offsets. */
function batchEntries(batch) {
  let p = 12;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = batch[p++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  const slice = () => {
    const length = varint();
    p += length;
    return [p - length, p];
  };
  const entries = [];
  while (p < batch.length) {
    const tag = batch[p++];
    if (tag === 0x1 || tag === 0x2) {
      entries.push({ key: slice(), value: slice() });  // (merge) value
    } else if (tag === 0x5 || tag === 0x6) {
      varint();  // column family
      entries.push({ key: slice(), value: slice() });
    } else if (tag === 0x0 || tag === 0x7) {
      slice();  // (single) deletion
    } else if (tag === 0x4 || tag === 0x8) {
      varint();
      slice();
    } else if (tag === 0xf) {
      slice();  // range deletion
      slice();
    } else if (tag === 0xe) {
      varint();
      slice();
      slice();
    } else if (tag === 0x3) {
      slice();  // log data
    } else if (tag !== 0xd) {  // 0xd: no-op
      throw new Error(`write-ahead log: unknown WriteBatch entry type ${tag}`);
    }
  }
  return entries;
}

/**
 * Flips one ciphertext bit of every sealed value (format byte 0xE1,
 * docs/ENCRYPTION.md) whose key holds `keyPart`, in every write-ahead log
 * of the store at `dir`, and fixes up the fragments' CRCs. Returns how many
 * values it changed.
 */
function tamperWithLog(dir, keyPart) {
  const needle = Buffer.from(keyPart);
  let changed = 0;
  for (const name of fs.readdirSync(dir).filter((n) => /^\d+\.log$/.test(n))) {
    const file = path.join(dir, name);
    const bytes = fs.readFileSync(file);
    for (const record of logRecords(bytes)) {
      const touched = new Set();
      for (const { key, value } of batchEntries(record.bytes)) {
        const sealed = record.bytes[value[0]] === 0xe1 && value[1] - value[0] >= 29;
        if (!sealed || !record.bytes.subarray(...key).includes(needle)) continue;
        const at = record.at[value[0] + 13];  // the first ciphertext byte.
        bytes[at] ^= 0x01;
        touched.add(record.fragments.findLast((start) => start < at));
        changed++;
      }
      for (const start of touched) {
        const length = bytes.readUInt16LE(start + 4);
        const crc = crc32c(bytes.subarray(start + 6, start + HEADER + length));
        bytes.writeUInt32LE(maskCrc(crc), start);
      }
    }
    fs.writeFileSync(file, bytes);
  }
  return changed;
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, got a value");
}

describe("encryption at rest (RocksDB)", () => {
  let dir;

  beforeEach(() => {
    dir = freshDir("rockpoint-encryption-");
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("round-trips checkpoints, values, writes and metadata filters", async () => {
    const saver = await RockpointSaver.open(dir, { encryptionKey: KEY });
    try {
      expect(saver.kind).toBe("rocksdb");
      const { alice, bob, values } = await putMarked(saver);

      const tuple = await saver.getTuple(alice);
      expect(tuple.checkpoint.channel_values).toEqual(values);
      expect(tuple.metadata).toEqual(meta({ user: "alice", note: MARKERS.metadata }));
      expect(tuple.pendingWrites).toEqual([["task-1", "note", MARKERS.write]]);
      const latest = await saver.getTuple(thread("t"));
      expect(latest.config.configurable.checkpoint_id).toBe(
        bob.configurable.checkpoint_id,
      );
      expect(latest.parentConfig.configurable.checkpoint_id).toBe(
        alice.configurable.checkpoint_id,
      );

      const ids = async (filter) =>
        (await collect(saver.list(thread("t"), { filter }))).map(
          (t) => t.config.configurable.checkpoint_id,
        );
      expect(await ids({ user: "alice" })).toEqual([alice.configurable.checkpoint_id]);
      expect(await ids({ note: MARKERS.metadata })).toEqual([
        alice.configurable.checkpoint_id,
      ]);
      expect(await ids({ user: "bob", step: 1 })).toEqual([bob.configurable.checkpoint_id]);
      expect(await ids({ user: "carol" })).toEqual([]);
      expect(await ids(undefined)).toHaveLength(2);

      await saver.copyThread("t", "t-copy");
      const copied = await collect(saver.list(thread("t-copy"), { filter: { user: "alice" } }));
      expect(copied.map((t) => t.checkpoint.channel_values)).toEqual([values]);
    } finally {
      await saver.close();
    }
  });

  it("leaves none of what it stores readable in the store's files", async () => {
    const saver = await RockpointSaver.open(dir, { encryptionKey: KEY });
    await putMarked(saver);
    expect(markersIn(dir)).toEqual([]);  // the write-ahead log.
    await saver.compact();  // SST and blob files.
    expect(filesOf(dir).some((f) => f.endsWith(".sst"))).toBe(true);
    expect(filesOf(dir).some((f) => f.endsWith(".blob"))).toBe(true);
    expect(markersIn(dir)).toEqual([]);
    await saver.close();
    expect(markersIn(dir)).toEqual([]);

    // The same puts in a plaintext store show every marker: the search
    // above would have found them.
    const plainDir = freshDir("rockpoint-plaintext-");
    try {
      const plain = await RockpointSaver.open(plainDir);
      await putMarked(plain);
      await plain.close();
      const found = markersIn(plainDir).map((f) => f.split(": ")[1]);
      expect(new Set(found)).toEqual(new Set(Object.values(MARKERS)));
    } finally {
      fs.rmSync(plainDir, { recursive: true, force: true });
    }
  });

  it("reopens with the same key, as bytes or as hex digits", async () => {
    const first = await RockpointSaver.open(dir, { encryptionKey: KEY });
    const { alice, values } = await putMarked(first);
    await first.close();
    // A view into the middle of a larger buffer.
    const backing = new ArrayBuffer(44);
    new Uint8Array(backing).set(KEY, 7);
    const keys = [
      HEX,
      HEX.toUpperCase(),
      `  ${HEX}\n`,  // as read from a key file.
      new Uint8Array(KEY),
      new Uint8Array(backing, 7, 32),
      Buffer.from(HEX, "hex"),  // pooled: a view into a shared slab.
    ];
    for (const encryptionKey of keys) {
      const saver = await RockpointSaver.open(dir, { encryptionKey, syncWrites: false });
      try {
        const tuple = await saver.getTuple(alice);
        expect(tuple.checkpoint.channel_values).toEqual(values);
        expect(tuple.pendingWrites).toEqual([["task-1", "note", MARKERS.write]]);
      } finally {
        await saver.close();
      }
    }
    // Read-only, and with a retention policy.
    const readOnly = await RockpointSaver.open(dir, { encryptionKey: KEY, readOnly: true });
    expect((await readOnly.getTuple(alice)).metadata.user).toBe("alice");
    await readOnly.close();
    const retained = await RockpointSaver.open(dir, {
      encryptionKey: HEX,
      retention: { keepLast: 1 },
    });
    expect((await retained.sweep()).checkpointsExpired).toBe(1);
    expect(await collect(retained.list(thread("t")))).toHaveLength(1);
    await retained.close();
  });

  it("keeps its own copy of the key: wiping the caller's Buffer changes nothing", async () => {
    const first = await RockpointSaver.open(dir, { encryptionKey: KEY });
    const { alice } = await putMarked(first);
    await first.close();
    const mine = Buffer.from(KEY);
    const saver = new RockpointSaver({ path: dir, encryptionKey: mine });
    mine.fill(0);  // before the store opens (on first use).
    try {
      expect((await saver.getTuple(alice)).metadata.user).toBe("alice");
    } finally {
      await saver.close();
    }
    expect(mine.equals(Buffer.alloc(32))).toBe(true);
  });

  it("rejects a missing or wrong key at open with InvalidArgument", async () => {
    const first = await RockpointSaver.open(dir, { encryptionKey: KEY });
    const { alice } = await putMarked(first);
    await first.close();

    const missing = await rejection(RockpointSaver.open(dir));
    expect(isRockpointError(missing)).toBe(true);
    expect(missing.code).toBe("InvalidArgument");
    expect(missing.message).toMatch(/cannot open store .*the store is encrypted/);
    expect(missing.message).toMatch(/encryptionKey/);

    const wrong = await rejection(RockpointSaver.open(dir, { encryptionKey: OTHER_KEY }));
    expect(wrong.code).toBe("InvalidArgument");
    expect(wrong.message).toMatch(/wrong encryption key/);
    expect(wrong.message).not.toContain(OTHER_KEY.toString("hex"));
    expect(wrong.message).not.toContain(HEX);

    // Lazily opened: the first call rejects; nothing stays locked.
    const lazy = new RockpointSaver({ path: dir, encryptionKey: OTHER_KEY.toString("hex") });
    const firstUse = await rejection(lazy.getTuple(alice));
    expect(firstUse.code).toBe("InvalidArgument");
    await lazy.close();
    const right = await RockpointSaver.open(dir, { encryptionKey: KEY });
    expect((await right.getTuple(alice)).metadata.user).toBe("alice");
    await right.close();
  });

  it("rejects a key for a plaintext store that holds records", async () => {
    const plain = await RockpointSaver.open(dir);
    const { alice } = await putMarked(plain);
    await plain.close();
    const error = await rejection(RockpointSaver.open(dir, { encryptionKey: KEY }));
    expect(error.code).toBe("InvalidArgument");
    expect(error.message).toMatch(/plaintext records/);
    const again = await RockpointSaver.open(dir);  // untouched.
    expect((await again.getTuple(alice)).metadata.user).toBe("alice");
    await again.close();
  });

  it("rejects reads of a tampered record with Corruption, never an empty result", async () => {
    const first = await RockpointSaver.open(dir, { encryptionKey: KEY });
    const { alice } = await putMarked(first);
    const other = await first.put(thread("u"), checkpoint({ n: "fine" }), meta(), { n: 1 });
    await first.close();
    // Every sealed record of thread "t" (the text element 02 "t" 00 of its
    // keys, keys/FORMAT.md): its checkpoints, values and write.
    expect(tamperWithLog(dir, "\u0002t\u0000")).toBeGreaterThanOrEqual(4);

    const saver = await RockpointSaver.open(dir, { encryptionKey: KEY });
    try {
      for (const read of [
        () => saver.getTuple(thread("t")),
        () => saver.getTuple(alice),
        () => collect(saver.list(thread("t"))),
        () => collect(saver.list(thread("t"), { filter: { user: "alice" } })),
      ]) {
        const error = await rejection(read());
        expect(isRockpointError(error)).toBe(true);
        expect(error.code).toBe("Corruption");
        expect(error.message).toMatch(/does not authenticate/);
      }
      // The other thread's records were not touched and still read.
      expect((await saver.getTuple(other)).checkpoint.channel_values).toEqual({ n: "fine" });
    } finally {
      await saver.close();
    }
  });

  it("throws on a bad key before anything is opened", async () => {
    const store = path.join(dir, "never-created");
    const bad = [
      [Buffer.alloc(31), RangeError, /must be 32 bytes, got 31/],
      [new Uint8Array(33), RangeError, /must be 32 bytes, got 33/],
      [Buffer.alloc(0), RangeError, /must be 32 bytes, got 0/],
      [HEX.slice(1), RangeError, /64 hex digits \(32 bytes\), got 63 characters/],
      [`${HEX}0`, RangeError, /got 65 characters/],
      ["", RangeError, /got 0 characters/],
      [`${HEX.slice(2)}zz`, RangeError, /a character that is not one/],
      [KEY.toString("base64"), RangeError, /64 hex digits/],
      [42, TypeError, /Buffer or Uint8Array .* got a number/],
      [true, TypeError, /got a boolean/],
      [[...KEY], TypeError, /got an array/],
      [KEY.buffer.slice(0, 32), TypeError, /got an ArrayBuffer/],
      [new Uint16Array(16), TypeError, /got a Uint16Array/],
      [new DataView(new ArrayBuffer(32)), TypeError, /got a DataView/],
      [{ key: HEX }, TypeError, /got an object/],
    ];
    for (const [encryptionKey, type, message] of bad) {
      const rejected = await rejection(RockpointSaver.open(store, { encryptionKey }));
      expect(rejected).toBeInstanceOf(type);
      expect(rejected.code).toBe("InvalidArgument");
      expect(rejected.message).toMatch(message);
      expect(() => new RockpointSaver({ path: store, encryptionKey })).toThrow(type);
      if (typeof encryptionKey === "string" && encryptionKey.length > 8) {
        expect(rejected.message).not.toContain(encryptionKey.trim());
      }
    }
    expect(fs.existsSync(store)).toBe(false);
    // null and undefined: no key, a plaintext store.
    for (const encryptionKey of [null, undefined]) {
      const plain = await RockpointSaver.open(store, { encryptionKey });
      await plain.close();
    }
  });
});

describe("the addon's own checks of encryptionKey", () => {
  // The saver checks first; the addon checks again, as its last guard.
  it("throws before queueing an open, and the memory store takes no key", () => {
    const { NativeStore } = loadNative();
    const storePath = "/nonexistent/rockpoint-never-opened";
    for (const [encryptionKey, type, message] of [
      [Buffer.alloc(16), RangeError, /must be 32 bytes, got 16/],
      [HEX.slice(2), RangeError, /64 hex digits \(32 bytes\), not 62 characters/],
      [`${HEX.slice(1)}g`, RangeError, /not one/],
      [new Uint16Array(16), TypeError, /Buffer or Uint8Array of 32 bytes/],
      [7, TypeError, /Buffer or Uint8Array of 32 bytes/],
    ]) {
      expect(() => NativeStore.openRocksDb({ path: storePath, encryptionKey })).toThrow(type);
      expect(() => NativeStore.openRocksDb({ path: storePath, encryptionKey })).toThrow(message);
    }
    expect(() => NativeStore.openMemory({ encryptionKey: KEY })).toThrow(
      /encryptionKey is for a RocksDB store/,
    );
  });
});

describe("encryption and the in-memory store", () => {
  it("takes no key: TypeError before anything is created", async () => {
    for (const create of [
      () => RockpointSaver.memory({ encryptionKey: KEY }),
      () => new RockpointSaver({ encryptionKey: HEX }),
      () => new RockpointSaver({ path: ":memory:", encryptionKey: KEY }),
      () => RockpointSaver.memory({ encryptionKey: Buffer.alloc(3) }),
    ]) {
      let error;
      try {
        create();
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(error.code).toBe("InvalidArgument");
      expect(error.message).toMatch(/encryptionKey is for a RocksDB store/);
    }
    const error = await rejection(RockpointSaver.open(":memory:", { encryptionKey: KEY }));
    expect(error).toBeInstanceOf(TypeError);
    const memory = RockpointSaver.memory({ encryptionKey: null });
    await memory.close();
  });
});

describe("LangGraph.js on an encrypted store", () => {
  it("runs the scenario as MemorySaver does, and resumes after a reopen", async () => {
    const dir = freshDir("rockpoint-encryption-graph-");
    try {
      const saver = await RockpointSaver.open(dir, { encryptionKey: KEY });
      const encrypted = await runScenario(buildGraph(saver), Command);
      const expected = await runScenario(buildGraph(new MemorySaver()), Command);
      expect(encrypted).toEqual(expected);
      const t = thread("g");
      await buildGraph(saver).invoke({ messages: [userMessage("hi")] }, t);
      await saver.close();

      const reopened = await RockpointSaver.open(dir, { encryptionKey: HEX });
      try {
        const graph = buildGraph(reopened);
        expect((await graph.getState(t)).next).toEqual(["review"]);
        const state = await graph.invoke(new Command({ resume: "yes" }), t);
        expect(state.approved).toBe(true);
        expect(state.log).toEqual(["draft", "review", "publish"]);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
