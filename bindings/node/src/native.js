// Loads the native addon, node-gyp-build style, from the first of:
//   1. $ROCKPOINT_NODE_ADDON, when set (and then only it);
//   2. build/Release/rockpoint_node.node: built here (`npm run build` in a
//      checkout, or by the install script from the sources a tarball carries);
//   3. prebuilds/<platform>-<arch>/rockpoint_node.node: shipped in the tarball.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

import { rockpointError } from "./errors.js";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const FILE = "rockpoint_node.node";

let addon;

/** The files loadNative tries, in order. */
export function addonCandidates(env = process.env) {
  if (env.ROCKPOINT_NODE_ADDON) return [path.resolve(env.ROCKPOINT_NODE_ADDON)];
  return [
    path.join(pkgDir, "build", "Release", FILE),
    path.join(pkgDir, "prebuilds", `${process.platform}-${process.arch}`, FILE),
  ];
}

/**
 * Loads the first candidate that loads; returns {exports, file} or throws
 * an Error (code "Internal") listing why each failed.
 */
export function tryLoadAddon(candidates = addonCandidates()) {
  const failures = [];
  for (const file of candidates) {
    try {
      return { exports: require(file), file };
    } catch (error) {
      failures.push(
        error.code === "MODULE_NOT_FOUND" ? `${file}: missing` : `${file}: ${error.message}`,
      );
    }
  }
  throw rockpointError(
    "rockpoint: cannot load the native addon. Tried:\n  " +
      failures.join("\n  ") +
      "\nThe prebuilt addon (linux-x64) needs librocksdb7.8 and libssl3 " +
      "(Debian 12); " +
      "reinstall the package to build it from source instead (see README: " +
      "Requirements).",
    "Internal",
  );
}

/** The addon's exports: { NativeStore, NativeCursor }. */
export function loadNative() {
  addon ??= tryLoadAddon().exports;
  return addon;
}
