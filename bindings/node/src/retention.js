// Retention options of RockpointSaver: the policy the engine's
// RetentionCheckpointer applies (docs/CONTRACT.md, "Retention"), in either
// of two shapes:
//   {maxAgeMs?, maxIdleMs?, keepLast?, sweepIntervalMs?, sweepBatchThreads?}
//   {ttl: {strategy?, defaultTtl, sweepIntervalMinutes?}}  LangGraph
//     platform's checkpointer TTL settings (langgraph.json's snake_case
//     default_ttl / sweep_interval_minutes accepted too): "delete" (the
//     default) expires a thread idle for defaultTtl minutes whole,
//     "keep_latest" keeps its newest checkpoint per namespace.
// normalizeRetention turns either into the first shape with every default
// filled in, as the addon takes it (native/convert.h, "retention"), or
// throws a TypeError (a wrong type, shape or key) or RangeError (a number
// out of range, an unknown strategy) with code "InvalidArgument" before
// anything is opened or swept.
import { rockpointError } from "./errors.js";

/** Defaults of RetentionPolicy (rockpoint/retention.h). */
export const DEFAULT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
export const DEFAULT_SWEEP_BATCH_THREADS = 64;
/** The longest sweep interval the addon takes: a year. */
export const MAX_SWEEP_INTERVAL_MS = 365 * 24 * 3600 * 1000;
/** The instants the engine's clock holds (years 1678-2261), in ms. */
const MAX_TIME_MS = 9.2e12;
const MINUTE_MS = 60 * 1000;

const POLICY_KEYS = [
  "maxAgeMs",
  "maxIdleMs",
  "keepLast",
  "sweepIntervalMs",
  "sweepBatchThreads",
];
const TTL_KEYS = [
  "strategy",
  "defaultTtl",
  "default_ttl",
  "sweepIntervalMinutes",
  "sweep_interval_minutes",
];
const STRATEGIES = ["delete", "keep_latest"];

function typeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: TypeError,
  });
}

function rangeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: RangeError,
  });
}

function shown(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

const absent = (value) => value === undefined || value === null;

/** `value` when it is a plain object, else a TypeError naming `field`. */
function objectOf(value, field) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw typeError(`${field} must be an object, got ${shown(value)}`);
  }
  return value;
}

/** A TypeError for the first own key of `object` not in `known`. */
function checkKeys(object, known, field) {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      throw typeError(
        `${field} has no option "${key}" (it takes ${known.join(", ")})`,
      );
    }
  }
}

/**
 * The number at `field`: undefined when absent, else a finite number
 * >= `min` (> `min` when `above`), or a TypeError / RangeError.
 */
function numberOf(value, field, { min = 0, above = false } = {}) {
  if (absent(value)) return undefined;
  if (typeof value !== "number") {
    throw typeError(`${field} must be a number, got ${shown(value)}`);
  }
  if (!Number.isFinite(value) || value < min || (above && value === min)) {
    throw rangeError(
      `${field} must be a finite number ${above ? ">" : ">="} ${min}, got ${value}`,
    );
  }
  return value;
}

/** The integer >= 1 at `field`, or undefined when absent. */
function countOf(value, field) {
  const count = numberOf(value, field, { min: 1 });
  if (count !== undefined && !Number.isSafeInteger(count)) {
    throw rangeError(`${field} must be an integer >= 1, got ${count}`);
  }
  return count;
}

/** A duration in ms rounded up to whole seconds (the engine's unit). */
const wholeSeconds = (ms) => (ms === undefined ? undefined : Math.ceil(ms / 1000) * 1000);

/** The one of `object[camel]` and `object[snake]` given, or undefined. */
function either(object, camel, snake, field) {
  if (!absent(object[camel]) && !absent(object[snake])) {
    throw typeError(`${field} sets both ${camel} and ${snake}`);
  }
  return absent(object[camel])
    ? { value: object[snake], name: snake }
    : { value: object[camel], name: camel };
}

/** The policy shape of LangGraph platform's {ttl: {...}}. */
function fromTtl(ttl, field) {
  objectOf(ttl, field);
  checkKeys(ttl, TTL_KEYS, field);
  const strategy = ttl.strategy ?? "delete";
  if (!STRATEGIES.includes(strategy)) {
    throw rangeError(
      `${field}.strategy must be "delete" or "keep_latest", got ${shown(strategy)}`,
    );
  }
  const ttlMinutes = either(ttl, "defaultTtl", "default_ttl", field);
  if (absent(ttlMinutes.value)) {
    throw typeError(`${field}.defaultTtl (minutes) is required`);
  }
  const minutes = numberOf(ttlMinutes.value, `${field}.${ttlMinutes.name}`);
  const interval = either(
    ttl,
    "sweepIntervalMinutes",
    "sweep_interval_minutes",
    field,
  );
  const intervalMinutes = numberOf(interval.value, `${field}.${interval.name}`, {
    above: true,
  });
  return {
    maxIdleMs: minutes * MINUTE_MS,
    keepLast: strategy === "keep_latest" ? 1 : undefined,
    sweepIntervalMs:
      intervalMinutes === undefined ? undefined : intervalMinutes * MINUTE_MS,
  };
}

/**
 * The normalized (frozen) policy of `retention`, either shape above:
 * {maxAgeMs?, maxIdleMs?, keepLast?, sweepIntervalMs, sweepBatchThreads},
 * durations rounded up to whole seconds and the sweep interval to whole
 * milliseconds. Throws as the header says; `field` names it in messages.
 */
export function normalizeRetention(retention, field = "retention") {
  objectOf(retention, field);
  let given = retention;
  if (!absent(retention.ttl)) {
    const others = Object.keys(retention).filter((key) => key !== "ttl");
    if (others.length > 0) {
      throw typeError(`${field}.ttl cannot be combined with ${others.join(", ")}`);
    }
    given = fromTtl(retention.ttl, `${field}.ttl`);
  } else {
    checkKeys(retention, [...POLICY_KEYS, "ttl"], field);
  }
  const policy = {
    maxAgeMs: wholeSeconds(numberOf(given.maxAgeMs, `${field}.maxAgeMs`)),
    maxIdleMs: wholeSeconds(numberOf(given.maxIdleMs, `${field}.maxIdleMs`)),
    keepLast: countOf(given.keepLast, `${field}.keepLast`),
  };
  if (Object.values(policy).every((value) => value === undefined)) {
    throw typeError(
      `${field} sets none of maxAgeMs, maxIdleMs and keepLast (or ttl): ` +
        "it would expire nothing",
    );
  }
  const interval = numberOf(given.sweepIntervalMs, `${field}.sweepIntervalMs`, {
    above: true,
  });
  if (interval !== undefined && interval > MAX_SWEEP_INTERVAL_MS) {
    throw rangeError(
      `${field}.sweepIntervalMs must be at most ${MAX_SWEEP_INTERVAL_MS} (a year), got ${interval}`,
    );
  }
  policy.sweepIntervalMs = Math.ceil(interval ?? DEFAULT_SWEEP_INTERVAL_MS);
  policy.sweepBatchThreads =
    countOf(given.sweepBatchThreads, `${field}.sweepBatchThreads`) ??
    DEFAULT_SWEEP_BATCH_THREADS;
  for (const key of Object.keys(policy)) {
    if (policy[key] === undefined) delete policy[key];
  }
  return Object.freeze(policy);
}

/**
 * The addon's sweep arguments {retention?, nowMs?, dryRun} of
 * saver.sweep()'s options {retention?, now?: Date, dryRun?}.
 */
export function sweepArgs(options) {
  const { retention, now, dryRun = false } = objectOf(options ?? {}, "sweep: options");
  if (typeof dryRun !== "boolean") {
    throw typeError(`sweep: dryRun must be a boolean, got ${shown(dryRun)}`);
  }
  const args = { dryRun };
  if (!absent(retention)) {
    args.retention = normalizeRetention(retention, "sweep: retention");
  }
  if (!absent(now)) {
    if (!(now instanceof Date)) {
      throw typeError(`sweep: now must be a Date, got ${shown(now)}`);
    }
    const ms = now.getTime();
    if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS) {
      throw rangeError(
        "sweep: now must be a valid Date within the years 1678-2261",
      );
    }
    args.nowMs = ms;
  }
  return args;
}

/** The camelCase RetentionReport of the addon's snake_case one. */
export function reportOf(raw) {
  return {
    threadsExamined: raw.threads_examined,
    threadsEmptied: raw.threads_emptied,
    checkpointsExpired: raw.checkpoints_expired,
    checkpointsHidden: raw.checkpoints_hidden,
    bytes: raw.bytes,
  };
}

/** The camelCase SweeperStats of the addon's, or null. */
export function sweeperStatsOf(raw) {
  if (raw === null) return null;
  return {
    sweeps: raw.sweeps,
    failedSweeps: raw.failed_sweeps,
    expired: reportOf(raw.expired),
    lastError: raw.last_error,
  };
}
