// Values binding.gyp reads at configure time, printed space-separated:
//   node scripts/gyp_vars.mjs include   the include directories: rockpoint's
//                                       installed headers and node-addon-api's
//   node scripts/gyp_vars.mjs libs      the link flags
//
// The rockpoint libraries come from ROCKPOINT_PREFIX (default
// build/rockpoint-prefix, where scripts/build.mjs installs them), linked
// statically with their symbols hidden. RocksDB is linked dynamically (the
// system's librocksdb.so): Debian's librocksdb.a is compiled with
// local-exec TLS (R_X86_64_TPOFF32 relocations), which a shared object
// cannot contain, so the addon needs the RocksDB runtime package (Debian 12:
// librocksdb7.8) and libstdc++.
// node-addon-api comes from node_modules when installed (a checkout), else
// from rockpoint/node-addon-api (the copy a packed tarball carries).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prefix = path.resolve(
  process.env.ROCKPOINT_PREFIX ?? path.join(pkgDir, "build", "rockpoint-prefix"),
);

/**
 * The rockpoint libraries, in link order (dependents first): the
 * checkpointer's (open_embedded and what it needs) and the item store's
 * (rockpoint_store, native/item_store.h).
 */
const ROCKPOINT_LIBRARIES = [
  "librockpoint_open_embedded.a",
  "librockpoint_store.a",
  "librockpoint_rocksdb.a",
  "librockpoint_jsonl.a",
  "librockpoint_engine.a",
  "librockpoint_formats.a",
  "librockpoint_serde.a",
  "librockpoint_keys.a",
  "librockpoint_base.a",
];

/** The directory of `prefix` holding librockpoint_keys.a (lib or lib64). */
export function libDir(root = prefix) {
  for (const dir of ["lib", "lib64", path.join("lib", "x86_64-linux-gnu")]) {
    if (fs.existsSync(path.join(root, dir, "librockpoint_keys.a"))) {
      return path.join(root, dir);
    }
  }
  return path.join(root, "lib");
}

function napiInclude() {
  try {
    const require = createRequire(path.join(pkgDir, "package.json"));
    return require("node-addon-api").include_dir;
  } catch {
    return path.join(pkgDir, "rockpoint", "node-addon-api");
  }
}

/** The include directories of the addon, for rockpoint installed in `root`. */
export function includeDirs(root = prefix) {
  return [path.join(root, "include"), napiInclude()];
}

/** The link flags of the addon, for rockpoint installed in `root`. */
export function linkFlags(root = prefix) {
  const lib = libDir(root);
  return [
    "-Wl,--exclude-libs,ALL",
    ...ROCKPOINT_LIBRARIES.map((name) => path.join(lib, name)),
    "-lrocksdb",
    "-pthread",
  ];
}

export const LIBRARIES = ROCKPOINT_LIBRARIES;

/**
 * Everything node-gyp's configure bakes into build/ (its Makefile): the
 * Node headers, the include directories and link flags for rockpoint
 * installed in `root`, and binding.gyp itself, as one string.
 */
export function configureInputs(root, nodedir) {
  return JSON.stringify({
    nodedir,
    include: includeDirs(root),
    libs: linkFlags(root),
    bindingGyp: fs.readFileSync(path.join(pkgDir, "binding.gyp"), "utf8"),
  });
}

/**
 * Whether `buildDir` needs node-gyp configure for `inputs`
 * (configureInputs): it has no Makefile, or its stamp (written after each
 * configure) records other inputs, e.g. a configure that ran before
 * node-addon-api was installed.
 */
export function needsConfigure(buildDir, inputs) {
  if (!fs.existsSync(path.join(buildDir, "Makefile"))) return true;
  try {
    return fs.readFileSync(path.join(buildDir, CONFIGURE_STAMP), "utf8") !== inputs;
  } catch {
    return true;
  }
}

/** The file in build/ that records the inputs of the last configure. */
export const CONFIGURE_STAMP = "rockpoint_configure.json";

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2];
  if (what === "include") console.log(includeDirs().join(" "));
  else if (what === "libs") console.log(linkFlags().join(" "));
  else {
    console.error("usage: node scripts/gyp_vars.mjs include|libs");
    process.exit(2);
  }
}
