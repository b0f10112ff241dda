// Type-checks test/types/example.ts (StateGraph compiled with a
// RockpointSaver, options, errors, stats) and test/types/store_example.ts
// (a graph with a RockpointStore, its options and extra arguments) against
// src/index.d.ts with the pinned TypeScript: tsc --noEmit must report
// nothing.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("TypeScript declarations", () => {
  it("type-check a StateGraph compiled with RockpointSaver", () => {
    const tsc = path.join(pkgDir, "node_modules", "typescript", "bin", "tsc");
    const result = spawnSync(
      process.execPath,
      [tsc, "-p", path.join(pkgDir, "test", "types", "tsconfig.json")],
      { encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  }, 120000);
});
