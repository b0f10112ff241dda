// The package as a new user gets it: `npm pack` here, then in a fresh
// temporary directory (no checkout in reach) `npm install` of the tarball
// with @langchain/langgraph and @langchain/core at this lockfile's versions
// (from the npm registry; npm's cache makes it quick). A StateGraph runs to
// its interrupt in one process and is resumed in a second one.
// ROCKPOINT_SKIP_INSTALL_TEST=1 skips it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const skip = process.env.ROCKPOINT_SKIP_INSTALL_TEST === "1";

function lockedVersion(name) {
  const lock = JSON.parse(fs.readFileSync(path.join(pkgDir, "package-lock.json"), "utf8"));
  return lock.packages[`node_modules/${name}`].version;
}

/** The environment of a user's shell: no addon override, no checkout paths. */
function userEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("ROCKPOINT_") || key.startsWith("npm_")) delete env[key];
    if (key === "VITEST" || key.startsWith("VITEST_")) delete env[key];
  }
  return env;
}

describe.skipIf(skip)("npm install of the packed tarball", () => {
  let tmp;
  let tarball;
  let app;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-install-"));
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
        cwd: pkgDir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    tarball = packed[0];
    app = path.join(tmp, "app");
    fs.mkdirSync(app);
    fs.writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({ name: "app", private: true, type: "module" }),
    );
    fs.copyFileSync(path.join(pkgDir, "test", "install_app.mjs"), path.join(app, "app.mjs"));
    execFileSync(
      "npm",
      [
        "install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error",
        path.join(tmp, tarball.filename),
        `@langchain/langgraph@${lockedVersion("@langchain/langgraph")}`,
        `@langchain/core@${lockedVersion("@langchain/core")}`,
      ],
      { cwd: app, env: userEnv(), stdio: ["ignore", "inherit", "inherit"] },
    );
  }, 240000);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("packs the prebuilt addon and the sources to build it, nothing else", () => {
    const files = tarball.files.map((f) => f.path);
    expect(files).toContain("prebuilds/linux-x64/rockpoint_node.node");
    expect(files).toContain("rockpoint/CMakeLists.txt");
    expect(files).toContain("rockpoint/node-addon-api/napi.h");
    expect(files).toContain("scripts/install.mjs");
    expect(files).toContain("LICENSE");
    expect(files.filter((f) => f.startsWith("build/") || f.startsWith("test/"))).toEqual([]);
    const manifest = JSON.parse(
      fs.readFileSync(
        path.join(app, "node_modules", "@rockpoint", "langgraph-checkpoint-rockpoint", "package.json"),
        "utf8",
      ),
    );
    expect(manifest.dependencies ?? {}).toEqual({});
    // No SQLite saver nor better-sqlite3 came along.
    expect(fs.existsSync(path.join(app, "node_modules", "better-sqlite3"))).toBe(false);
  });

  it("runs a graph to its interrupt, and resumes it in a second process", () => {
    const store = path.join(tmp, "store");
    const run = (phase) =>
      JSON.parse(
        execFileSync(process.execPath, ["app.mjs", phase, store], {
          cwd: app,
          env: userEnv(),
          encoding: "utf8",
        }),
      );
    const started = run("start");
    expect(started).toEqual({
      interrupts: [{ question: "go?" }],
      next: ["wait"],
      log: ["start", "ask"],
    });
    const resumed = run("resume");
    expect(resumed.nextBefore).toEqual(["wait"]);
    expect(resumed.log).toEqual(["start", "ask", "wait", "done:yes"]);
    expect(resumed.next).toEqual([]);
    expect(resumed.history).toBeGreaterThanOrEqual(4);
  }, 60000);
});
