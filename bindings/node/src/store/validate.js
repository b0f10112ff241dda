// The checks of what an operation names and stores: namespaces (LangGraph's
// rules for put, as the engine applies them), keys, a put's ttl, and item
// values and filters (storeValue: converted to the engine's JSON-like
// shape as JSON.stringify sees them). Each throws a TypeError, RangeError
// or InvalidNamespaceError with code "InvalidArgument" that names the
// place ("operations[1].value.n"); none writes anything.
import { validateNamespace } from "@langchain/langgraph-checkpoint";

import { SERDE_MARKER } from "../metadata.js";
import {
  coded,
  describe,
  namespaceError,
  rangeError,
  typeError,
} from "./checks.js";

// ---- namespaces, keys, TTLs -------------------------------------------------------

/** LangGraph.js's namespace check (BaseStore's), its error coded. */
export function checkNamespace(namespace, options, field = "namespace") {
  if (!Array.isArray(namespace)) {
    throw typeError(`${field} must be an array of strings, got ${describe(namespace)}`);
  }
  try {
    validateNamespace(namespace, options);
  } catch (error) {
    throw coded(error);
  }
}

/** A copy of `namespace`, checked to be an array of strings. */
export function labelsOf(namespace, field) {
  if (!Array.isArray(namespace)) {
    throw typeError(`${field} must be an array of strings, got ${describe(namespace)}`);
  }
  namespace.forEach((label, i) => {
    if (typeof label !== "string") {
      throw typeError(`${field}[${i}] must be a string, got ${describe(label)}`);
    }
  });
  return [...namespace];
}

/**
 * The namespace of a put, by rockpoint's rules (LangGraph's, without its
 * JS-only ban on ':' and NUL, which the engine stores as any other byte):
 * non-empty, no empty label, no '.', root not "langgraph".
 */
export function putNamespace(namespace, field) {
  const labels = labelsOf(namespace, field);
  if (labels.length === 0) throw namespaceError("Namespace cannot be empty.");
  for (const label of labels) {
    if (label === "") {
      throw namespaceError(
        `Namespace labels cannot be empty strings. Got ${JSON.stringify(labels)}`,
      );
    }
    if (label.includes(".")) {
      throw namespaceError(
        `Invalid namespace label '${label}' found in ${JSON.stringify(labels)}. ` +
          "Namespace labels cannot contain periods ('.').",
      );
    }
  }
  if (labels[0] === "langgraph") {
    throw namespaceError(
      `Root label for namespace cannot be "langgraph". Got: ${JSON.stringify(labels)}`,
    );
  }
  return labels;
}

export function keyOf(key, field) {
  if (typeof key !== "string") {
    throw typeError(`${field} must be a string, got ${describe(key)}`);
  }
  return key;
}

/** A put's ttl: undefined (the store's default), null (never) or minutes. */
export function putTtl(op, field) {
  const ttl = Object.hasOwn(op, "ttl") ? op.ttl : op.options?.ttl;
  if (ttl === undefined || ttl === null) return ttl;
  if (typeof ttl !== "number") {
    throw typeError(`${field}.ttl must be a number of minutes or null, got ${describe(ttl)}`);
  }
  if (!Number.isFinite(ttl) || ttl <= 0) {
    throw rangeError(`${field}.ttl must be a positive number of minutes, got ${ttl}`);
  }
  return ttl;
}

// ---- values ------------------------------------------------------------------------

/** Arrays and objects nest at most this deep, the outermost counted. */
const MAX_NESTING = 255;

/**
 * `value` in the engine's JSON-like shape (null, boolean, finite number,
 * string, Uint8Array (bytes), array, plain object), as JSON.stringify
 * would see it: an object with toJSON (a Date, a LangChain message) is
 * stored as what toJSON returns, a class instance as its own enumerable
 * properties, undefined object members are dropped and undefined array
 * items become null. Refused with a TypeError naming the place: bigint,
 * functions, symbols, NaN and infinities, Map and Set, other typed arrays,
 * the key "__rockpoint_serde__" (the saver's marker), cycles and nesting
 * deeper than 255. `converted`: `value` is what a toJSON returned, whose
 * own toJSON is not called (as JSON.stringify does).
 */
export function storeValue(value, place, root, depth = 0, key = "", converted = false) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw typeError(`${place}: cannot store ${value} (not JSON)`);
      }
      return value;
    case "undefined":
      return null;
    case "object":
      break;
    default:
      throw typeError(`${place}: cannot store a ${typeof value} (not JSON)`);
  }
  if (value === null || value instanceof Uint8Array) return value;
  if (!converted && typeof value.toJSON === "function") {
    return storeValue(value.toJSON(key), place, root, depth, key, true);
  }
  if (depth >= MAX_NESTING) {
    throw typeError(`${root} nests deeper than ${MAX_NESTING} objects and arrays (or is cyclic)`);
  }
  if (Array.isArray(value)) {
    return value.map((item, i) =>
      storeValue(item, `${place}[${i}]`, root, depth + 1, String(i)),
    );
  }
  if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value) ||
      value instanceof ArrayBuffer) {
    throw typeError(`${place}: cannot store ${describe(value)} (not JSON)`);
  }
  const out = {};
  for (const name of Object.keys(value)) {
    const member = value[name];
    // A toJSON method is how the value says what to store, not data.
    if (member === undefined || (name === "toJSON" && typeof member === "function")) continue;
    if (name === SERDE_MARKER) {
      throw typeError(`${place}: the key "${SERDE_MARKER}" is reserved`);
    }
    const stored = storeValue(member, `${place}.${name}`, root, depth + 1, name);
    if (name === "__proto__") {
      Object.defineProperty(out, name, {
        value: stored,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[name] = stored;
    }
  }
  return out;
}
