// npm "prepack" script (npm pack / npm publish, in a checkout): puts into
// the package what an install needs besides src/ and native/:
// - prebuilds/linux-x64/rockpoint_node.node: the addon built by
//   scripts/build.mjs, stripped (rockpoint linked in; RocksDB from the
//   system, see scripts/gyp_vars.mjs);
// - rockpoint/: the rockpoint sources of a library-only build (include,
//   base, keys, serde, formats, engine, cmake, CMakeLists.txt) and
//   node-addon-api's headers, so that an install where the prebuilt does
//   not load builds the addon (scripts/install.mjs).
// Both are ignored by git and removed by scripts/postpack.mjs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(pkgDir, "..", "..");
const SOURCES = [
  "CMakeLists.txt", "include", "base", "keys", "serde", "formats", "engine",
  "cmake",
];

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ["inherit", 2, 2], cwd: pkgDir });
  if (result.status !== 0) {
    console.error(`prepack: ${command} failed`);
    process.exit(1);
  }
}

if (!fs.existsSync(path.join(root, "include", "rockpoint"))) {
  console.error("prepack: not in a rockpoint checkout; packing as is");
  process.exit(0);
}

run(process.execPath, [path.join(pkgDir, "scripts", "build.mjs")]);

if (process.platform === "linux" && process.arch === "x64") {
  const dir = path.join(pkgDir, "prebuilds", "linux-x64");
  const target = path.join(dir, "rockpoint_node.node");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(pkgDir, "build", "Release", "rockpoint_node.node"), target);
  if (spawnSync("strip", ["--strip-unneeded", target]).status !== 0) {
    console.error("prepack: strip failed; shipping the unstripped addon");
  }
} else {
  console.error(`prepack: no prebuilt for ${process.platform}-${process.arch}`);
}

const carried = path.join(pkgDir, "rockpoint");
fs.rmSync(carried, { recursive: true, force: true });
for (const entry of SOURCES) {
  fs.cpSync(path.join(root, entry), path.join(carried, entry), { recursive: true });
}
const require = createRequire(path.join(pkgDir, "package.json"));
const napi = require("node-addon-api").include_dir;
for (const file of fs.readdirSync(napi)) {
  if (file.endsWith(".h") || file === "LICENSE.md") {
    fs.cpSync(path.join(napi, file), path.join(carried, "node-addon-api", file));
  }
}
