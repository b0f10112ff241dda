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
// throws a TypeError (a wrong type, shape or key, a policy that sets no
// rule) or RangeError (a number out of range, an unknown strategy) with
// code "InvalidArgument" before anything is opened or swept. The values are
// judged once, by the engine's ValidateRetentionPolicy (the addon's
// retentionError); this file converts and words the errors.
import { rockpointError } from "./errors.js";
import { loadNative } from "./native.js";

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
/** The policy's fields as ValidateRetentionPolicy names them, and here. */
const ENGINE_FIELDS = {
  max_idle: "maxIdleMs",
  max_age: "maxAgeMs",
  keep_last: "keepLast",
  sweep_interval: "sweepIntervalMs",
  sweep_batch_threads: "sweepBatchThreads",
};

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
 * The number at `field`: undefined when absent, else a finite number, or a
 * TypeError / RangeError.
 */
function numberOf(value, field) {
  if (absent(value)) return undefined;
  if (typeof value !== "number") {
    throw typeError(`${field} must be a number, got ${shown(value)}`);
  }
  if (!Number.isFinite(value)) {
    throw rangeError(`${field} must be a finite number, got ${value}`);
  }
  return value;
}

/**
 * The count at `field`, or undefined when absent: an integer the engine's
 * size_t holds (its value is the engine's to judge), else a RangeError.
 */
function countOf(value, field) {
  const count = numberOf(value, field);
  if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) {
    throw rangeError(`${field} must be an integer >= 1, got ${count}`);
  }
  return count;
}

/**
 * A duration in ms as whole seconds (the engine's unit), rounded away from
 * zero: up when positive, so nothing expires before its time; down when
 * negative, so it stays negative for the engine to refuse.
 */
function wholeSeconds(ms) {
  if (ms === undefined) return undefined;
  const seconds = ms >= 0 ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  return seconds * 1000;
}

/**
 * The error of the engine's `message` (ValidateRetentionPolicy's, naming
 * fields as ENGINE_FIELDS does) about the policy at `field`, whose fields
 * the user gave as `names` (engine name -> path): a RangeError naming the
 * field the message starts with, or a TypeError for the policy as a whole
 * (one that sets no rule).
 */
function engineError(message, field, names) {
  const [first, ...rest] = message.split(" ");
  if (Object.hasOwn(names, first)) {
    return rangeError(`${names[first]} ${rest.join(" ")}`);
  }
  const worded = message
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => ENGINE_FIELDS[name] ?? name)
    .replace(/^retention policy /, `${field} `);
  return typeError(worded);
}

/** The one of `object[camel]` and `object[snake]` given, or undefined. */
function either(object, camel, snake, field) {
  if (!absent(object[camel]) && !absent(object[snake])) {
    throw typeError(`${field} sets both ${camel} and ${snake}`);
  }
  return absent(object[camel])
    ? { value: object[snake], name: snake }
    : { value: object[camel], name: camel };
}

/**
 * {policy, names}: the policy shape of LangGraph platform's {ttl: {...}},
 * and the paths of the ttl members its fields come from (by engine name).
 */
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
  const intervalMinutes = numberOf(interval.value, `${field}.${interval.name}`);
  return {
    policy: {
      maxIdleMs: minutes * MINUTE_MS,
      keepLast: strategy === "keep_latest" ? 1 : undefined,
      sweepIntervalMs:
        intervalMinutes === undefined ? undefined : intervalMinutes * MINUTE_MS,
    },
    names: {
      max_idle: `${field}.${ttlMinutes.name}`,
      sweep_interval: `${field}.${interval.name}`,
    },
  };
}

/**
 * The normalized (frozen) policy of `retention`, either shape above:
 * {maxAgeMs?, maxIdleMs?, keepLast?, sweepIntervalMs, sweepBatchThreads},
 * durations in whole seconds (wholeSeconds) and the sweep interval in whole
 * milliseconds, rounded up. Throws as the header says; `field` names it in
 * messages.
 */
export function normalizeRetention(retention, field = "retention") {
  objectOf(retention, field);
  let given = retention;
  const names = Object.fromEntries(
    Object.entries(ENGINE_FIELDS).map(([name, key]) => [name, `${field}.${key}`]),
  );
  if (!absent(retention.ttl)) {
    const others = Object.keys(retention).filter((key) => key !== "ttl");
    if (others.length > 0) {
      throw typeError(`${field}.ttl cannot be combined with ${others.join(", ")}`);
    }
    const ttl = fromTtl(retention.ttl, `${field}.ttl`);
    given = ttl.policy;
    Object.assign(names, ttl.names);
  } else {
    checkKeys(retention, [...POLICY_KEYS, "ttl"], field);
  }
  const policy = {
    maxAgeMs: wholeSeconds(numberOf(given.maxAgeMs, `${field}.maxAgeMs`)),
    maxIdleMs: wholeSeconds(numberOf(given.maxIdleMs, `${field}.maxIdleMs`)),
    keepLast: countOf(given.keepLast, `${field}.keepLast`),
  };
  const interval = numberOf(given.sweepIntervalMs, `${field}.sweepIntervalMs`);
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
  const refused = loadNative().retentionError(policy);
  if (refused !== null) throw engineError(refused, field, names);
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
