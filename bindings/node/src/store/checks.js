// The argument checks and errors RockpointStore's modules share. Contract
// (errors.js): every error made here has code "InvalidArgument" (a
// TypeError for a wrong type, a RangeError for a number out of range or an
// unknown enum value, InvalidNamespaceError for a namespace LangGraph's
// rules refuse), except closedError's "Aborted"; messages start with
// "rockpoint: " and name the argument ("operations[2].key", "index.dims").
// coded() passes an error of the caller's embeddings on untouched.
import { InvalidNamespaceError } from "@langchain/langgraph-checkpoint";

import { rockpointError, withCode } from "../errors.js";

export function typeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: TypeError,
  });
}

export function rangeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: RangeError,
  });
}

export function invalid(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument");
}

export function closedError() {
  return rockpointError("rockpoint: the store is closed", "Aborted");
}

/** An InvalidNamespaceError (LangGraph's class) with code "InvalidArgument". */
export function namespaceError(message) {
  const error = new InvalidNamespaceError(message);
  error.code = "InvalidArgument";
  return error;
}

/** Errors the index's embeddings raised: passed on as they are. */
const embedderErrors = new WeakSet();

/** Marks `error` as raised by the caller's embeddings (coded() keeps it). */
export function markEmbedderError(error) {
  if (error !== null && typeof error === "object") embedderErrors.add(error);
}

/**
 * `error` with a code (errors.js; InvalidNamespaceError is
 * "InvalidArgument"), except an error of the caller's embeddings.
 */
export function coded(error) {
  if (error !== null && typeof error === "object" && embedderErrors.has(error)) {
    return error;
  }
  if (error instanceof InvalidNamespaceError && typeof error.code !== "string") {
    error.code = "InvalidArgument";
  }
  return withCode(error);
}

/** How an error message names `value`: "null", "an array", "number 42", ... */
export function describe(value) {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Uint8Array) return "a Uint8Array";
  if (typeof value === "object") {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    return name && name !== "Object" ? `a ${name}` : "an object";
  }
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  return `${typeof value} ${String(value)}`;
}

export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Throws a TypeError unless `options` has only `allowed` keys. */
export function checkKeys(options, allowed, field) {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw typeError(
        `${field} has no option "${key}" (options: ${allowed.join(", ")})`,
      );
    }
  }
}

export function absent(value) {
  return value === undefined || value === null;
}

export function optionalBoolean(value, field) {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") {
    throw typeError(`${field} must be a boolean, got ${describe(value)}`);
  }
  return value;
}

/** A count of minutes > 0, or undefined when absent. */
export function optionalMinutes(value, field) {
  if (absent(value)) return undefined;
  if (typeof value !== "number") {
    throw typeError(`${field} must be a number of minutes, got ${describe(value)}`);
  }
  if (!Number.isFinite(value) || value <= 0) {
    throw rangeError(`${field} must be a positive number of minutes, got ${value}`);
  }
  return value;
}

/** An integer >= min, or `fallback` when undefined. */
export function integer(value, field, min, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== "number") {
    throw typeError(`${field} must be an integer, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value) || value < min) {
    throw rangeError(`${field} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

/** Throws a TypeError unless `paths` is an array of non-empty strings. */
export function checkPaths(paths, field) {
  if (!Array.isArray(paths)) {
    throw typeError(`${field} must be an array of field paths, got ${describe(paths)}`);
  }
  paths.forEach((path, i) => {
    if (typeof path !== "string" || path.length === 0) {
      throw typeError(`${field}[${i}] must be a non-empty string, got ${describe(path)}`);
    }
  });
}
