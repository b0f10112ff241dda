// Metadata (and list filters) cross to the engine as rockpoint serde Values,
// so the engine can compare filter values itself. This module turns a JS
// value into the JSON-like shape native/convert.cc accepts, and back.
//
// null, boolean, number, string, Uint8Array, arrays and plain objects pass
// as they are (undefined object members are dropped, undefined array items
// become null). Any other object (Date, Map, Set, class instances such as
// LangChain messages, ...) is serialized with the saver's serde and travels
// as a marker {__rockpoint_serde__: true, type, bytes}; the engine stores it
// as a tagged ext value and it is revived with serde.loadsTyped on read.
// bigint, functions and symbols are rejected with a TypeError naming the
// field. Arrays and plain objects nest at most MAX_NESTING (255) deep, the
// outermost counted (the engine's kMaxMetadataNesting, so a deeper value,
// or a cyclic one, is refused with the engine's message before the walk
// goes further).

import { rockpointError } from "./errors.js";

export const SERDE_MARKER = "__rockpoint_serde__";

/** A TypeError with code "InvalidArgument" (errors.js). */
function invalid(message) {
  return rockpointError(message, "InvalidArgument", { type: TypeError });
}

/** kMaxMetadataNesting (include/rockpoint/checkpointer.h). */
export const MAX_NESTING = 255;

function isPlainObject(value) {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// `depth` arrays and objects enclose the one about to be walked.
function checkNesting(depth, root) {
  if (depth >= MAX_NESTING) {
    throw invalid(`${root} nests deeper than ${MAX_NESTING} maps and arrays`);
  }
}

function walk(value, serde, pending, path, depth, root) {
  const describe = () => (path.length === 0 ? root : path);
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "boolean":
    case "number":
    case "string":
      return value;
    case "bigint":
    case "function":
    case "symbol":
      throw invalid(
        `${describe()}: cannot store a ${typeof value} in checkpoint metadata`,
      );
    default:
      break;
  }
  if (Array.isArray(value)) {
    checkNesting(depth, root);
    return value.map((item, i) =>
      walk(item, serde, pending, `${path}[${i}]`, depth + 1, root),
    );
  }
  if (value instanceof Uint8Array) return value;
  if (isPlainObject(value) && !Object.hasOwn(value, SERDE_MARKER)) {
    checkNesting(depth, root);
    const out = {};
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (member === undefined) continue;
      const child = path.length === 0 ? key : `${path}.${key}`;
      const converted = walk(member, serde, pending, child, depth + 1, root);
      if (key === "__proto__") {
        Object.defineProperty(out, key, {
          value: converted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        out[key] = converted;
      }
    }
    return out;
  }
  const marker = { [SERDE_MARKER]: true, type: "", bytes: null };
  pending.push(
    serde.dumpsTyped(value).then(([type, bytes]) => {
      marker.type = type;
      marker.bytes = bytes;
    }),
  );
  return marker;
}

/**
 * Converts `value` to the engine's JSON-like shape; `root` names it in
 * errors ("metadata" or "filter"). The synchronous part (the walk, and the
 * serde calls' synchronous work) runs before this function returns, so
 * later mutation of `value` does not leak in.
 */
export function toNativeValue(value, serde, root = "metadata") {
  const pending = [];
  const out = walk(value, serde, pending, "", 0, root);
  if (pending.length === 0) return Promise.resolve(out);
  return Promise.all(pending).then(() => out);
}

function isMarker(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    value[SERDE_MARKER] === true
  );
}

/** Revives serde markers in a value read from the engine. */
export async function fromNativeValue(value, serde) {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    return Promise.all(value.map((item) => fromNativeValue(item, serde)));
  }
  if (isMarker(value)) return serde.loadsTyped(value.type, value.bytes);
  const entries = await Promise.all(
    Object.keys(value).map(async (key) => [
      key,
      await fromNativeValue(value[key], serde),
    ]),
  );
  const out = {};
  for (const [key, member] of entries) {
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = member;
    }
  }
  return out;
}
