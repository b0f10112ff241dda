// RockpointStore's open options (index, TTL and the RocksDB flags).
// normalizeOptions checks what a caller gives (a path, ":memory:" or
// {path, index, ttl, syncWrites, readOnly, createIfMissing}) before
// anything is opened, throwing a TypeError or RangeError with code
// "InvalidArgument" that names the option, and returns them normalized
// (index and ttl frozen); nativeOptions turns them into the addon's open
// options (native/item_convert.h). What the engine's OpenStore checks
// itself (index.hnsw.m from 2 to 10000, an index's dims against the
// store's) is left to it: its error reaches the caller with the engine's
// code and message.
import {
  absent,
  checkKeys,
  checkPaths,
  describe,
  integer,
  isObject,
  optionalBoolean,
  optionalMinutes,
  typeError,
} from "./checks.js";
import { embedderOf, tokenizeFieldPath } from "./embed.js";

export const MEMORY = ":memory:";

/** TTLConfig's fields, camelCase (LangGraph.js) and snake_case (Python, langgraph.json). */
const TTL_FIELDS = [
  ["defaultTtl", "default_ttl"],
  ["refreshOnRead", "refresh_on_read"],
  ["sweepIntervalMinutes", "sweep_interval_minutes"],
];

/** The TTL options, frozen: {defaultTtl?, refreshOnRead, sweepIntervalMinutes?}. */
function normalizeTtl(ttl) {
  if (!isObject(ttl)) {
    throw typeError(
      `ttl must be an object {defaultTtl?, refreshOnRead?, sweepIntervalMinutes?}, got ${describe(ttl)}`,
    );
  }
  checkKeys(ttl, TTL_FIELDS.flat(), "ttl");
  const given = {};
  for (const [camel, snake] of TTL_FIELDS) {
    if (ttl[camel] !== undefined && ttl[snake] !== undefined) {
      throw typeError(`ttl sets both ${camel} and ${snake}; give one`);
    }
    given[camel] = ttl[camel] !== undefined ? ttl[camel] : ttl[snake];
  }
  const out = {
    defaultTtl: optionalMinutes(given.defaultTtl, "ttl.defaultTtl"),
    refreshOnRead: optionalBoolean(given.refreshOnRead, "ttl.refreshOnRead") ?? true,
    sweepIntervalMinutes: optionalMinutes(
      given.sweepIntervalMinutes,
      "ttl.sweepIntervalMinutes",
    ),
  };
  if (out.defaultTtl === undefined) delete out.defaultTtl;
  if (out.sweepIntervalMinutes === undefined) delete out.sweepIntervalMinutes;
  return Object.freeze(out);
}

/**
 * The index options (LangGraph's IndexConfig {dims, embeddings, fields};
 * `embed` is accepted for `embeddings`, as PostgresStore and Python name
 * it), frozen, with the embedder and each field path's tokens.
 */
function normalizeIndex(index) {
  if (!isObject(index)) {
    throw typeError(
      `index must be an object {dims, embeddings, fields?}, got ${describe(index)}`,
    );
  }
  checkKeys(
    index,
    ["dims", "embeddings", "embed", "fields", "exactSearchMaxVectors", "hnsw"],
    "index",
  );
  if (typeof index.dims !== "number") {
    throw typeError(`index.dims must be an integer >= 1, got ${describe(index.dims)}`);
  }
  integer(index.dims, "index.dims", 1);
  if (index.embeddings !== undefined && index.embed !== undefined) {
    throw typeError("index sets both embeddings and embed; give one");
  }
  const embeddings = index.embeddings ?? index.embed;
  const embedder = embedderOf(embeddings);
  const fields = index.fields ?? ["$"];
  checkPaths(fields, "index.fields");
  const out = {
    dims: index.dims,
    embeddings,
    fields: Object.freeze([...fields]),
    embedder,
    paths: fields.map((path) => [path, tokenizeFieldPath(path)]),
  };
  if (!absent(index.exactSearchMaxVectors)) {
    out.exactSearchMaxVectors = integer(
      index.exactSearchMaxVectors,
      "index.exactSearchMaxVectors",
      0,
    );
  }
  if (!absent(index.hnsw)) out.hnsw = normalizeHnsw(index.hnsw);
  return Object.freeze(out);
}

/**
 * The approximate index's parameters, PostgresStore's HNSWConfig names:
 * {m: links per node, efConstruction, ef: candidates while building and
 * searching (>= 1)}. m is checked here to be an integer >= 0 only (the
 * addon takes counts); the engine's OpenStore refuses one outside 2 to
 * 10000 (hnswlib's range) with InvalidArgument "index hnsw_links (M) must
 * be from 2 to 10000".
 */
function normalizeHnsw(hnsw) {
  if (!isObject(hnsw)) {
    throw typeError(`index.hnsw must be an object {m?, efConstruction?, ef?}, got ${describe(hnsw)}`);
  }
  checkKeys(hnsw, ["m", "efConstruction", "ef"], "index.hnsw");
  const out = {};
  if (hnsw.m !== undefined) out.m = integer(hnsw.m, "index.hnsw.m", 0);
  if (hnsw.efConstruction !== undefined) {
    out.efConstruction = integer(hnsw.efConstruction, "index.hnsw.efConstruction", 1);
  }
  if (hnsw.ef !== undefined) out.ef = integer(hnsw.ef, "index.hnsw.ef", 1);
  return Object.freeze(out);
}

const OPEN_KEYS = ["path", "index", "ttl", "syncWrites", "readOnly", "createIfMissing"];
const MEMORY_KEYS = ["path", "index", "ttl"];

/** The checked options: {path, index?, ttl?, syncWrites?, readOnly?, createIfMissing?}. */
export function normalizeOptions(location) {
  if (typeof location !== "string" && !isObject(location)) {
    throw typeError(
      `a store is a path, ":memory:" or an options object, got ${describe(location)}`,
    );
  }
  const given = typeof location === "string" ? { path: location } : location;
  const path = given.path ?? MEMORY;
  if (typeof path !== "string" || path.length === 0) {
    throw typeError(`path must be a non-empty string, got ${describe(path)}`);
  }
  const memory = path === MEMORY;
  for (const key of Object.keys(given)) {
    if (memory && OPEN_KEYS.includes(key) && !MEMORY_KEYS.includes(key)) {
      throw typeError(`${key} is for a RocksDB store, not the in-memory one`);
    }
  }
  checkKeys(given, OPEN_KEYS, "options");
  const options = { path };
  for (const key of ["syncWrites", "readOnly", "createIfMissing"]) {
    const value = optionalBoolean(given[key], key);
    if (value !== undefined) options[key] = value;
  }
  if (!absent(given.index)) options.index = normalizeIndex(given.index);
  if (!absent(given.ttl)) options.ttl = normalizeTtl(given.ttl);
  if (options.readOnly && options.ttl?.sweepIntervalMinutes !== undefined) {
    throw typeError(
      "ttl.sweepIntervalMinutes needs a writable store, but readOnly is set",
    );
  }
  return options;
}

/** The addon's open options (native/item_convert.h). */
export function nativeOptions(options) {
  const out = {};
  for (const key of ["syncWrites", "readOnly", "createIfMissing"]) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  const index = options.index;
  if (index) {
    out.dims = index.dims;
    if (index.exactSearchMaxVectors !== undefined) {
      out.exactSearchMaxVectors = index.exactSearchMaxVectors;
    }
    if (index.hnsw?.m !== undefined) out.hnswLinks = index.hnsw.m;
    if (index.hnsw?.efConstruction !== undefined) {
      out.hnswBuildCandidates = index.hnsw.efConstruction;
    }
    if (index.hnsw?.ef !== undefined) out.hnswSearchCandidates = index.hnsw.ef;
  }
  if (options.ttl) out.ttl = { ...options.ttl };
  return out;
}
