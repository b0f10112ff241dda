// RunnableConfig <-> the engine's config {thread_id?, checkpoint_ns?,
// checkpoint_id?} (see native/convert.h), and small promise helpers.
import { rockpointError } from "./errors.js";

/** A string id, or undefined for undefined/null; numbers are stringified. */
export function idString(value, field) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") {
    return String(value);
  }
  throw rockpointError(
    `rockpoint: configurable.${field} must be a string, got ${typeof value}`,
    "InvalidArgument",
    { type: TypeError },
  );
}

/**
 * The engine config of a RunnableConfig. An empty checkpoint_id counts as
 * absent, and thread_ts is its legacy name (as getCheckpointId in
 * @langchain/langgraph-checkpoint).
 */
export function engineConfig(config) {
  const c = config?.configurable ?? {};
  const checkpointId = c.checkpoint_id || c.thread_ts || undefined;
  return {
    thread_id: idString(c.thread_id, "thread_id"),
    checkpoint_ns: idString(c.checkpoint_ns, "checkpoint_ns"),
    checkpoint_id: idString(checkpointId, "checkpoint_id"),
  };
}

export function runnableConfig(threadId, checkpointNs, checkpointId) {
  return {
    configurable: {
      thread_id: threadId,
      checkpoint_ns: checkpointNs,
      checkpoint_id: checkpointId,
    },
  };
}

/**
 * Marks `promise` as handled, so a rejection that happens while the call
 * waits for earlier calls on its thread is not reported as unhandled; the
 * caller still awaits (and sees) it.
 */
export function handled(promise) {
  promise.catch(() => undefined);
  return promise;
}
