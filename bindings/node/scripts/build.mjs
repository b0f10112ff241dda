// Builds build/Release/rockpoint_node.node.
//
// 1. CMake: configures BUILD_DIR (default <repo>/build, as tools/setup.sh)
//    if needed, builds only the libraries and installs them (component
//    "library": headers, static libraries, rockpoint.pc) into
//    BUILD_DIR/node-prefix.
// 2. node-gyp against the installed Node headers (--nodedir, default /usr,
//    so nothing is downloaded), with PKG_CONFIG_PATH on that prefix:
//    configures when binding.gyp or BUILD_DIR changed, then builds; the
//    addon is relinked whenever a library is newer.
//
// Environment: BUILD_DIR, JOBS (default 2), NODEDIR (default: npm's
// nodedir setting, else /usr).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const root = path.resolve(pkgDir, "..", "..");
const buildDir = path.resolve(process.env.BUILD_DIR ?? path.join(root, "build"));
const jobs = process.env.JOBS ?? "2";
const nodedir =
  process.env.NODEDIR ?? process.env.npm_config_nodedir ?? "/usr";

const prefix = path.join(buildDir, "node-prefix");
const LIBRARIES = [
  "librockpoint_rocksdb.a",
  "librockpoint_engine.a",
  "librockpoint_serde.a",
  "librockpoint_keys.a",
].map((lib) => path.join(prefix, "lib", lib));
process.env.PKG_CONFIG_PATH = [
  path.join(prefix, "lib", "pkgconfig"),
  process.env.PKG_CONFIG_PATH ?? "",
].join(path.delimiter);

function run(command, args, options = {}) {
  console.error(`build: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) throw result.error;
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

function hasNinja() {
  return spawnSync("ninja", ["--version"], { stdio: "ignore" }).status === 0;
}

// 1. The rockpoint package.
if (!fs.existsSync(path.join(buildDir, "CMakeCache.txt"))) {
  const generator = hasNinja() ? ["-G", "Ninja"] : [];
  run("cmake", [
    "-S", root, "-B", buildDir, ...generator,
    "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
  ]);
}
run("cmake", [
  "--build", buildDir, "-j", jobs, "--target",
  "rockpoint_rocksdb", "rockpoint_sqlite", "rockpoint_runtime",
]);
run("cmake", [
  "--install", buildDir, "--prefix", prefix, "--component", "library",
  "--config", "RelWithDebInfo",
]);

// 2. The addon.
if (!fs.existsSync(path.join(nodedir, "include", "node", "node_api.h"))) {
  console.error(
    `build: no Node headers under ${nodedir}/include/node; set NODEDIR`,
  );
  process.exit(1);
}
const gyp = path.join(pkgDir, "node_modules", "node-gyp", "bin", "node-gyp.js");
const stamp = path.join(pkgDir, "build", "rockpoint_build_dir.txt");
const configured =
  fs.existsSync(path.join(pkgDir, "build", "Makefile")) &&
  fs.existsSync(stamp) &&
  fs.readFileSync(stamp, "utf8") === buildDir &&
  mtime(stamp) >= mtime(path.join(pkgDir, "binding.gyp"));
if (!configured) {
  run(process.execPath, [gyp, "configure", `--nodedir=${nodedir}`], {
    cwd: pkgDir,
  });
  fs.writeFileSync(stamp, buildDir);
}
const addon = path.join(pkgDir, "build", "Release", "rockpoint_node.node");
// gyp's makefile does not know the libraries as inputs: when one is newer,
// remove the linked addon (make links it in obj.target and copies it to
// Release) so that make links it again.
const linked = path.join(pkgDir, "build", "Release", "obj.target", "rockpoint_node.node");
if (LIBRARIES.some((lib) => mtime(lib) > Math.min(mtime(addon), mtime(linked)))) {
  fs.rmSync(linked, { force: true });
  fs.rmSync(addon, { force: true });
}
run(process.execPath, [gyp, "build", `--nodedir=${nodedir}`, "-j", jobs], {
  cwd: pkgDir,
});
console.error(`build: ${path.relative(process.cwd(), addon)} is up to date`);
