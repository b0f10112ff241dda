// CheckpointerTestInitializers for @langchain/langgraph-checkpoint-validation:
// every checkpointer it creates is a fresh store (a new temporary RocksDB
// directory, plaintext or encrypted, or a new in-memory store), removed
// again when destroyed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { RockpointSaver } from "../src/index.js";

/** A new empty directory under the system temp dir. */
export function freshDir(prefix = "rockpoint-node-") {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

const dirs = new WeakMap();

export const rocksdbInitializer = {
  checkpointerName: "rockpoint",
  async createCheckpointer() {
    const dir = freshDir();
    const saver = await RockpointSaver.open(dir);
    dirs.set(saver, dir);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await saver.close();
    fs.rmSync(dirs.get(saver), { recursive: true, force: true });
  },
};

export const encryptedInitializer = {
  checkpointerName: "rockpoint (encrypted)",
  async createCheckpointer() {
    const dir = freshDir("rockpoint-node-encrypted-");
    const saver = await RockpointSaver.open(dir, { encryptionKey: randomBytes(32) });
    dirs.set(saver, dir);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await saver.close();
    fs.rmSync(dirs.get(saver), { recursive: true, force: true });
  },
};

export const memoryInitializer = {
  checkpointerName: "rockpoint (memory)",
  createCheckpointer() {
    return RockpointSaver.memory();
  },
  async destroyCheckpointer(saver) {
    await saver.close();
  },
};
