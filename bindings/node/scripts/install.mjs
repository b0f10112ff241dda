// npm "install" script: makes sure the native addon loads.
//
// 1. ROCKPOINT_NODE_ADDON set: nothing to do (src/native.js loads only it).
// 2. An addon that loads already (build/Release, or the linux-x64 prebuilt
//    the tarball ships): done. ROCKPOINT_BUILD_FROM_SOURCE=1 skips this.
// 3. The tarball's rockpoint/ sources: builds the addon (scripts/build.mjs;
//    needs cmake, a C++20 compiler, librocksdb-dev, libsqlite3-dev,
//    libmsgpack-cxx-dev, libxxhash-dev, nlohmann-json3-dev and the Node
//    headers) and checks that it loads.
// 4. Otherwise (a checkout before its first build): says how to build, and
//    succeeds, so that `npm ci` in a checkout never builds.
// Fails (exit 1) only when a source build fails or its addon does not load.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { addonCandidates, tryLoadAddon } from "../src/native.js";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const log = (message) => console.error(`rockpoint: ${message}`);

const REQUIREMENTS =
  "building the addon from source needs: cmake >= 3.25, g++ >= 12 (C++20), " +
  "make or ninja, the Node headers (include/node under /usr or next to " +
  "node, or NODEDIR), and on Debian/Ubuntu: apt-get install cmake g++ " +
  "librocksdb-dev libsqlite3-dev libmsgpack-cxx-dev libxxhash-dev " +
  "nlohmann-json3-dev (Debian 12; " +
  "libmsgpack-dev elsewhere).";

function loads() {
  try {
    return tryLoadAddon().file;
  } catch (error) {
    return { error };
  }
}

if (process.env.ROCKPOINT_NODE_ADDON) {
  log(`ROCKPOINT_NODE_ADDON is set; using ${process.env.ROCKPOINT_NODE_ADDON}`);
  process.exit(0);
}
const fromSource = process.env.ROCKPOINT_BUILD_FROM_SOURCE === "1";
if (!fromSource) {
  const loaded = loads();
  if (typeof loaded === "string") {
    log(`using ${path.relative(pkgDir, loaded)}`);
    process.exit(0);
  }
  log(loaded.error.message);
}
if (!fs.existsSync(path.join(pkgDir, "rockpoint", "CMakeLists.txt"))) {
  log("no addon yet: run `npm run build` (a checkout builds it explicitly)");
  process.exit(0);
}
log("building the addon from the sources in rockpoint/");
const built = spawnSync(process.execPath, [path.join(pkgDir, "scripts", "build.mjs")], {
  stdio: "inherit",
  cwd: pkgDir,
});
if (built.status !== 0) {
  log(`the source build failed; ${REQUIREMENTS}`);
  process.exit(1);
}
const [local] = addonCandidates();
const loaded = loads();
if (loaded !== local) {
  log(`the built addon does not load: ${loaded.error?.message ?? loaded}`);
  process.exit(1);
}
log(`built ${path.relative(pkgDir, local)}`);
