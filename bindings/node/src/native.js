// Loads the compiled addon (build/Release/rockpoint_node.node, made by
// `npm run build`). ROCKPOINT_NODE_ADDON overrides the path.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

let addon;

/** The addon's exports: { NativeStore, NativeCursor }. */
export function loadNative() {
  if (addon) return addon;
  const file =
    process.env.ROCKPOINT_NODE_ADDON ??
    path.join(here, "..", "build", "Release", "rockpoint_node.node");
  try {
    addon = require(file);
  } catch (error) {
    throw new Error(
      `rockpoint: cannot load the native addon ${file} ` +
        `(build it with \`npm run build\` in bindings/node): ${error.message}`,
      { cause: error },
    );
  }
  return addon;
}
