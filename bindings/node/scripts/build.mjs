// Builds build/Release/rockpoint_node.node, in a checkout and when a packed
// tarball builds from the sources it carries (scripts/install.mjs).
//
// 1. CMake: a library-only build of rockpoint (tests, tools, bench and the
//    runtime off; needs RocksDB, SQLite and msgpack-cxx headers) of the
//    sources in rockpoint/ (a tarball) or the repository root (a checkout),
//    in ROCKPOINT_CMAKE_BUILD_DIR (default build/rockpoint-lib), installed
//    (component "library") into build/rockpoint-prefix. Skipped when
//    ROCKPOINT_PREFIX names a rockpoint installed already (the component
//    "library" of a build of these sources, e.g. the test job's
//    build/prefix): the addon links that one.
// 2. node-gyp (this package's devDependency, else the one npm runs install
//    scripts with) against the installed Node headers, so nothing is
//    downloaded: configures when anything configure bakes in changed
//    (binding.gyp, the prefix, the Node headers, node-addon-api's include
//    directory; gyp_vars.mjs configureInputs), then builds; the addon is
//    relinked whenever a library is newer. Refuses to configure without
//    node-addon-api (run npm ci first).
//
// Environment: JOBS (default 2), NODEDIR (Node headers; default npm's
// nodedir setting, else /usr or the directory above node's bin/ when it has
// include/node), ROCKPOINT_CMAKE_BUILD_DIR, ROCKPOINT_PREFIX.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  CONFIGURE_STAMP,
  configureInputs,
  includeDirs,
  LIBRARIES,
  libDir,
  needsConfigure,
} from "./gyp_vars.mjs";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const carried = path.join(pkgDir, "rockpoint");
const sourceDir = fs.existsSync(path.join(carried, "CMakeLists.txt"))
  ? carried
  : path.resolve(pkgDir, "..", "..");
const cmakeDir = path.resolve(
  process.env.ROCKPOINT_CMAKE_BUILD_DIR ??
    path.join(pkgDir, "build", "rockpoint-lib"),
);
const installed = process.env.ROCKPOINT_PREFIX;
const prefix = installed
  ? path.resolve(installed)
  : path.join(pkgDir, "build", "rockpoint-prefix");
const jobs = process.env.JOBS ?? "2";
process.env.ROCKPOINT_PREFIX = prefix;

function run(command, args, options = {}) {
  console.error(`build: ${command} ${args.join(" ")}`);
  // Child output goes to stderr: stdout stays clean for `npm pack --json`.
  const result = spawnSync(command, args, { stdio: ["inherit", 2, 2], ...options });
  if (result.error) {
    console.error(`build: cannot run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`build: ${command} failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function found(command) {
  return spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0;
}

/** The directory whose include/node has the Node headers, or null. */
function nodeDir() {
  const given = process.env.NODEDIR ?? process.env.npm_config_nodedir;
  if (given) return given;
  const candidates = ["/usr", path.resolve(path.dirname(process.execPath), "..")];
  return (
    candidates.find((dir) =>
      fs.existsSync(path.join(dir, "include", "node", "node_api.h")),
    ) ?? null
  );
}

/** node-gyp's entry point: ours (a checkout), else npm's own. */
function nodeGyp() {
  const local = path.join(pkgDir, "node_modules", "node-gyp", "bin", "node-gyp.js");
  if (fs.existsSync(local)) return local;
  return process.env.npm_config_node_gyp ?? null;
}

/** Step 1: builds the rockpoint libraries and installs them into `prefix`. */
function buildLibraries() {
  if (!fs.existsSync(path.join(sourceDir, "include", "rockpoint"))) {
    console.error(`build: no rockpoint sources in ${sourceDir}`);
    process.exit(1);
  }
  if (!fs.existsSync(path.join(cmakeDir, "CMakeCache.txt"))) {
    run("cmake", [
      "-S", sourceDir, "-B", cmakeDir,
      ...(found("ninja") ? ["-G", "Ninja"] : []),
      ...(found("ccache") ? ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] : []),
      "-DCMAKE_BUILD_TYPE=Release",
      "-DROCKPOINT_BUILD_TESTS=OFF", "-DROCKPOINT_BUILD_TOOLS=OFF",
      "-DROCKPOINT_BUILD_BENCH=OFF", "-DROCKPOINT_BUILD_RUNTIME=OFF",
      "-DROCKPOINT_BUILD_BINDINGS=OFF", "-DROCKPOINT_INSTALL=ON",
    ]);
  }
  run("cmake", ["--build", cmakeDir, "-j", jobs]);
  run("cmake", [
    "--install", cmakeDir, "--prefix", prefix, "--component", "library",
  ]);
}

// 1. The rockpoint libraries.
if (!installed) {
  buildLibraries();
} else if (!fs.existsSync(path.join(libDir(prefix), LIBRARIES[0]))) {
  console.error(`build: ROCKPOINT_PREFIX=${installed} has no ${LIBRARIES[0]}`);
  process.exit(1);
} else {
  console.error(`build: linking the rockpoint installed in ${prefix}`);
}

// 2. The addon.
const nodedir = nodeDir();
if (!nodedir || !fs.existsSync(path.join(nodedir, "include", "node", "node_api.h"))) {
  console.error(
    "build: no Node headers (include/node/node_api.h) under /usr or next to " +
      "node; set NODEDIR to the directory that has include/node",
  );
  process.exit(1);
}
// A configure without an include directory would succeed and leave a
// Makefile that cannot compile (napi.h missing): refuse before it.
const missing = includeDirs(prefix).filter((dir) => !fs.existsSync(dir));
if (missing.length > 0) {
  console.error(
    `build: missing include directories: ${missing.join(", ")} ` +
      "(node-addon-api comes from node_modules: run npm ci first)",
  );
  process.exit(1);
}
const gyp = nodeGyp();
if (!gyp) {
  console.error("build: node-gyp not found (install it, or run through npm)");
  process.exit(1);
}
// Configure again whenever what the last configure baked in changed.
const gypBuildDir = path.join(pkgDir, "build");
const inputs = configureInputs(prefix, nodedir);
if (needsConfigure(gypBuildDir, inputs)) {
  fs.rmSync(path.join(gypBuildDir, CONFIGURE_STAMP), { force: true });
  run(process.execPath, [gyp, "configure", `--nodedir=${nodedir}`], {
    cwd: pkgDir,
  });
  fs.writeFileSync(path.join(gypBuildDir, CONFIGURE_STAMP), inputs);
}
const addon = path.join(pkgDir, "build", "Release", "rockpoint_node.node");
// gyp's makefile does not know the libraries as inputs: when one is newer,
// remove the linked addon (make links it in obj.target and copies it to
// Release) so that make links it again.
const linked = path.join(pkgDir, "build", "Release", "obj.target", "rockpoint_node.node");
const libraries = LIBRARIES.map((name) => path.join(libDir(prefix), name));
if (libraries.some((lib) => mtime(lib) > Math.min(mtime(addon), mtime(linked)))) {
  fs.rmSync(linked, { force: true });
  fs.rmSync(addon, { force: true });
}
run(process.execPath, [gyp, "build", `--nodedir=${nodedir}`, "-j", jobs], {
  cwd: pkgDir,
});
console.error(`build: ${path.relative(process.cwd(), addon) || addon} is up to date`);
