// RockpointStore: LangGraph.js's BaseStore (long-term memory shared across
// threads) on rockpoint's item store (include/rockpoint/store.h,
// docs/STORE.md), in a RocksDB directory of its own or in memory.
//
//   const store = await RockpointStore.open("./memory", {
//     index: { dims: 1536, embeddings, fields: ["text"] },
//     ttl: { defaultTtl: 60 * 24, sweepIntervalMinutes: 60 },
//   });
//   graph = builder.compile({ checkpointer, store });
//
// What runs where: this module checks every operation (TypeError,
// RangeError, InvalidNamespaceError, all with code "InvalidArgument"),
// converts values to the engine's JSON-like shape and computes embeddings
// with the index's `embeddings` (as InMemoryStore: the texts at the
// index's fields, or at a put's own `index` paths); the addon's ItemStore
// (native/item_store.h) runs each batch on the libuv pool, where the engine
// checks it again, applies its puts in one atomic write (fsynced with
// syncWrites) and answers reads from one snapshot. A batch that fails
// (a bad op, an embedding that fails or has the wrong length) writes
// nothing.
//
// Order: batches take effect in the order they were called, although each
// runs on a pool thread: a batch with puts waits for every earlier batch; a
// read-only batch waits for the earlier batches with puts (StoreOrder).
// Embeddings are computed as soon as a batch is called, while it waits.
//
// Where rockpoint differs from InMemoryStore on purpose (docs/STORE.md):
// filters compare as JSON (1 == 1.0, true != 1, a missing field never
// orders), their operators are $eq $ne $gt $gte $lt $lte ($in and $nin are
// refused); a search without a query returns the newest updated first; a
// put replaces the item's vectors (index: false leaves it none); a query on
// a store without an index is an error, not ignored; the root label
// "langgraph" is refused in every put, batch() included.
//
// Errors follow errors.js: engine failures carry the engine's code
// ("InvalidArgument", "Busy", "Aborted" for a closed store, ...).
import {
  BaseStore,
  InvalidNamespaceError,
  validateNamespace,
} from "@langchain/langgraph-checkpoint";

import { handled } from "./config.js";
import { rockpointError, withCode } from "./errors.js";
import { SERDE_MARKER } from "./metadata.js";
import { loadNative } from "./native.js";

export const MEMORY = ":memory:";

/** Arrays and objects nest at most this deep, the outermost counted. */
const MAX_NESTING = 255;

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

function invalid(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument");
}

function closedError() {
  return rockpointError("rockpoint: the store is closed", "Aborted");
}

/** An InvalidNamespaceError (LangGraph's class) with code "InvalidArgument". */
function namespaceError(message) {
  const error = new InvalidNamespaceError(message);
  error.code = "InvalidArgument";
  return error;
}

/** Errors the index's embeddings raised: passed on as they are. */
const embedderErrors = new WeakSet();

/**
 * `error` with a code (errors.js; InvalidNamespaceError is
 * "InvalidArgument"), except an error of the caller's embeddings.
 */
function coded(error) {
  if (error !== null && typeof error === "object" && embedderErrors.has(error)) {
    return error;
  }
  if (error instanceof InvalidNamespaceError && typeof error.code !== "string") {
    error.code = "InvalidArgument";
  }
  return withCode(error);
}

/** LangGraph.js's namespace check (BaseStore's), its error coded. */
function checkNamespace(namespace, options, field = "namespace") {
  if (!Array.isArray(namespace)) {
    throw typeError(`${field} must be an array of strings, got ${describe(namespace)}`);
  }
  try {
    validateNamespace(namespace, options);
  } catch (error) {
    throw coded(error);
  }
}

function describe(value) {
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

function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Throws a TypeError unless `options` has only `allowed` keys. */
function checkKeys(options, allowed, field) {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw typeError(
        `${field} has no option "${key}" (options: ${allowed.join(", ")})`,
      );
    }
  }
}

function absent(value) {
  return value === undefined || value === null;
}

function optionalBoolean(value, field) {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") {
    throw typeError(`${field} must be a boolean, got ${describe(value)}`);
  }
  return value;
}

/** A count of minutes > 0, or undefined when absent. */
function optionalMinutes(value, field) {
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
function integer(value, field, min, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== "number") {
    throw typeError(`${field} must be an integer, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value) || value < min) {
    throw rangeError(`${field} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

// ---- options -----------------------------------------------------------------

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
 * The embedder of `embeddings`: a LangChain Embeddings (embedDocuments,
 * embedQuery) or a function texts -> Promise<number[][]>.
 */
function embedderOf(embeddings) {
  if (typeof embeddings === "function") {
    return {
      documents: (texts) => embeddings(texts),
      query: async (text) => (await embeddings([text]))?.[0],
    };
  }
  if (
    isObject(embeddings) &&
    typeof embeddings.embedDocuments === "function" &&
    typeof embeddings.embedQuery === "function"
  ) {
    return {
      documents: (texts) => embeddings.embedDocuments(texts),
      query: (text) => embeddings.embedQuery(text),
    };
  }
  throw typeError(
    "index.embeddings must be an Embeddings (embedDocuments and embedQuery) " +
      `or a function (texts) => Promise<number[][]>, got ${describe(embeddings)}`,
  );
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
 * {m: links per node (2 to 10000, hnswlib's range), efConstruction,
 * ef: candidates while building and searching (>= 1)}.
 */
function normalizeHnsw(hnsw) {
  if (!isObject(hnsw)) {
    throw typeError(`index.hnsw must be an object {m?, efConstruction?, ef?}, got ${describe(hnsw)}`);
  }
  checkKeys(hnsw, ["m", "efConstruction", "ef"], "index.hnsw");
  const out = {};
  if (hnsw.m !== undefined) {
    out.m = integer(hnsw.m, "index.hnsw.m", 2);
    if (out.m > 10000) throw rangeError(`index.hnsw.m must be at most 10000, got ${out.m}`);
  }
  if (hnsw.efConstruction !== undefined) {
    out.efConstruction = integer(hnsw.efConstruction, "index.hnsw.efConstruction", 1);
  }
  if (hnsw.ef !== undefined) out.ef = integer(hnsw.ef, "index.hnsw.ef", 1);
  return Object.freeze(out);
}

function checkPaths(paths, field) {
  if (!Array.isArray(paths)) {
    throw typeError(`${field} must be an array of field paths, got ${describe(paths)}`);
  }
  paths.forEach((path, i) => {
    if (typeof path !== "string" || path.length === 0) {
      throw typeError(`${field}[${i}] must be a non-empty string, got ${describe(path)}`);
    }
  });
}

const OPEN_KEYS = ["path", "index", "ttl", "syncWrites", "readOnly", "createIfMissing"];
const MEMORY_KEYS = ["path", "index", "ttl"];

/** The checked options: {path, index?, ttl?, syncWrites?, readOnly?, createIfMissing?}. */
function normalizeOptions(location) {
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
function nativeOptions(options) {
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

// ---- embedded texts ------------------------------------------------------------

/**
 * The tokens of a field path, as LangGraph's InMemoryStore reads them:
 * names split at ".", "[i]" / "[*]" array steps and "{a,b.c}" multi-field
 * steps kept whole: "chapters[*].title" -> ["chapters", "[*]", "title"].
 */
export function tokenizeFieldPath(path) {
  const tokens = [];
  let name = "";
  const flush = () => {
    if (name) tokens.push(name);
    name = "";
  };
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === "[" || c === "{") {
      flush();
      const close = c === "[" ? "]" : "}";
      let depth = 0;
      let j = i;
      for (; j < path.length; j++) {
        if (path[j] === c) depth++;
        else if (path[j] === close && --depth === 0) break;
      }
      tokens.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      if (c === ".") flush();
      else name += c;
      i++;
    }
  }
  flush();
  return tokens;
}

/** The text of a value a path ends at: scalars as strings, objects as JSON. */
function leafTexts(value, out) {
  switch (typeof value) {
    case "string":
      out.push(value);
      return;
    case "number":
    case "boolean":
      out.push(String(value));
      return;
    case "object":
      if (value !== null) out.push(JSON.stringify(value, null, 2));
      return;
    default:
  }
}

function collectTexts(value, tokens, pos, out) {
  if (pos === tokens.length) {
    leafTexts(value, out);
    return;
  }
  const token = tokens[pos];
  if (token.startsWith("[") && token.endsWith("]")) {
    if (!Array.isArray(value)) return;
    const inner = token.slice(1, -1).trim();
    if (inner === "*") {
      for (const item of value) collectTexts(item, tokens, pos + 1, out);
      return;
    }
    let index = Number.parseInt(inner, 10);
    if (Number.isNaN(index)) return;
    if (index < 0) index += value.length;
    if (index >= 0 && index < value.length) {
      collectTexts(value[index], tokens, pos + 1, out);
    }
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (token.startsWith("{") && token.endsWith("}")) {
    for (const field of token.slice(1, -1).split(",")) {
      let current = value;
      for (const step of tokenizeFieldPath(field.trim())) {
        current = isObject(current) && Object.hasOwn(current, step) ? current[step] : undefined;
        if (current === undefined) break;
      }
      if (current !== undefined) collectTexts(current, tokens, pos + 1, out);
    }
    return;
  }
  if (token === "*") {
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const item of items) collectTexts(item, tokens, pos + 1, out);
    return;
  }
  if (!Array.isArray(value) && Object.hasOwn(value, token)) {
    collectTexts(value[token], tokens, pos + 1, out);
  }
}

/**
 * The texts at `path` of an item value ("$": the whole value as JSON), as
 * InMemoryStore's getTextAtPath finds them.
 */
export function textsAtPath(value, path, tokens = tokenizeFieldPath(path)) {
  if (path === "$" || tokens.length === 0) return [JSON.stringify(value, null, 2)];
  const out = [];
  collectTexts(value, tokens, 0, out);
  return out;
}

// ---- values --------------------------------------------------------------------

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
function storeValue(value, place, root, depth = 0, key = "", converted = false) {
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

// ---- operations ------------------------------------------------------------------

function labelsOf(namespace, field) {
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
function putNamespace(namespace, field) {
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

function keyOf(key, field) {
  if (typeof key !== "string") {
    throw typeError(`${field} must be a string, got ${describe(key)}`);
  }
  return key;
}

/** A put's ttl: undefined (the store's default), null (never) or minutes. */
function putTtl(op, field) {
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

/**
 * The addon's form of a batch: {ops, writes, embed} where `ops` are the
 * native ops (vectors still missing), `writes` says whether any is a put,
 * and `embed` lists the texts and queries to embed.
 */
function planBatch(operations, index) {
  if (!Array.isArray(operations)) {
    throw typeError(`batch takes an array of operations, got ${describe(operations)}`);
  }
  const ops = [];
  let writes = false;
  /** text -> [[native put op, vector field]] */
  const texts = new Map();
  /** query -> [native search op] */
  const queries = new Map();
  operations.forEach((op, i) => {
    const at = `operations[${i}]`;
    if (!isObject(op)) {
      throw typeError(`${at} must be an operation object, got ${describe(op)}`);
    }
    if ("namespacePrefix" in op) {
      ops.push(planSearch(op, at, index, queries));
    } else if ("matchConditions" in op) {
      ops.push(planList(op, at));
    } else if ("value" in op) {
      writes = true;
      ops.push(planPut(op, at, index, texts));
    } else if ("namespace" in op && "key" in op) {
      const get = {
        kind: "get",
        namespace: labelsOf(op.namespace, `${at}.namespace`),
        key: keyOf(op.key, `${at}.key`),
      };
      const refresh = optionalBoolean(op.refreshTtl, `${at}.refreshTtl`);
      if (refresh !== undefined) get.refreshTtl = refresh;
      ops.push(get);
    } else {
      throw typeError(
        `${at} is not a get, put, search or listNamespaces operation`,
      );
    }
  });
  return { ops, writes, texts, queries };
}

function planPut(op, at, index, texts) {
  const put = {
    kind: "put",
    namespace: putNamespace(op.namespace, `${at}.namespace`),
    key: keyOf(op.key, `${at}.key`),
    value: null,
  };
  if (op.value !== null) {
    const value = isObject(op.value)
      ? storeValue(op.value, `${at}.value`, `${at}.value`)
      : op.value;
    if (!isObject(value) || value instanceof Uint8Array) {
      throw typeError(
        `${at}.value must be an object (or null to delete), got ${describe(op.value)}`,
      );
    }
    put.value = value;
  }
  const ttl = putTtl(op, at);
  if (ttl !== undefined) put.ttl = ttl;
  const fields = op.index;
  if (fields !== undefined && fields !== null && fields !== false) {
    checkPaths(fields, `${at}.index`);
  }
  // As InMemoryStore: a store without an index ignores a put's paths.
  if (put.value === null || !index || fields === false) return put;
  put.vectors = [];
  const paths = absent(fields)
    ? index.paths
    : fields.map((path) => [path, tokenizeFieldPath(path)]);
  for (const [path, tokens] of paths) {
    const found = textsAtPath(put.value, path, tokens);
    found.forEach((text, i) => {
      const field = found.length > 1 ? `${path}.${i}` : path;
      if (!texts.has(text)) texts.set(text, []);
      texts.get(text).push([put, field]);
    });
  }
  return put;
}

function planSearch(op, at, index, queries) {
  const search = {
    kind: "search",
    namespacePrefix: labelsOf(op.namespacePrefix, `${at}.namespacePrefix`),
    limit: integer(op.limit, `${at}.limit`, 0, 10),
    offset: integer(op.offset, `${at}.offset`, 0, 0),
  };
  if (!absent(op.filter)) {
    if (!isPlainObject(op.filter)) {
      throw typeError(`${at}.filter must be an object, got ${describe(op.filter)}`);
    }
    search.filter = storeValue(op.filter, `${at}.filter`, `${at}.filter`);
  }
  const refresh = optionalBoolean(op.refreshTtl, `${at}.refreshTtl`);
  if (refresh !== undefined) search.refreshTtl = refresh;
  // As InMemoryStore, an empty query is no query.
  if (!absent(op.query) && op.query !== "") {
    if (typeof op.query !== "string") {
      throw typeError(`${at}.query must be a string, got ${describe(op.query)}`);
    }
    if (!index) {
      throw invalid(
        `${at} searches with a query, but the store has no index: open it ` +
          "with index: {dims, embeddings} to search by similarity",
      );
    }
    if (!queries.has(op.query)) queries.set(op.query, []);
    queries.get(op.query).push(search);
  }
  return search;
}

function planList(op, at) {
  const list = {
    kind: "list",
    conditions: [],
    limit: integer(op.limit, `${at}.limit`, 0, 100),
    offset: integer(op.offset, `${at}.offset`, 0, 0),
  };
  if (!absent(op.matchConditions)) {
    if (!Array.isArray(op.matchConditions)) {
      throw typeError(
        `${at}.matchConditions must be an array, got ${describe(op.matchConditions)}`,
      );
    }
    op.matchConditions.forEach((condition, i) => {
      const field = `${at}.matchConditions[${i}]`;
      if (!isObject(condition)) {
        throw typeError(`${field} must be {matchType, path}, got ${describe(condition)}`);
      }
      if (condition.matchType !== "prefix" && condition.matchType !== "suffix") {
        throw rangeError(
          `${field}.matchType must be "prefix" or "suffix", got ${describe(condition.matchType)}`,
        );
      }
      list.conditions.push({
        matchType: condition.matchType,
        path: labelsOf(condition.path, `${field}.path`),
      });
    });
  }
  if (!absent(op.maxDepth)) list.maxDepth = integer(op.maxDepth, `${at}.maxDepth`, 1);
  return list;
}

function preview(text) {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}

/** The embedder's vector for `what`, checked, as a Float32Array. */
function vectorOf(raw, dims, what) {
  if (!Array.isArray(raw) && !(ArrayBuffer.isView(raw) && !(raw instanceof DataView))) {
    throw typeError(
      `index.embeddings returned ${describe(raw)} for ${what}; expected an array of ${dims} numbers`,
    );
  }
  if (raw.length !== dims) {
    throw rangeError(
      `index.embeddings returned a vector of ${raw.length} numbers for ${what}; index.dims is ${dims}`,
    );
  }
  const vector = new Float32Array(dims);
  for (let i = 0; i < dims; i++) {
    const x = raw[i];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw typeError(
        `index.embeddings returned a vector holding ${describe(x)} at [${i}] for ${what}; ` +
          "expected finite numbers",
      );
    }
    vector[i] = x;
    if (!Number.isFinite(vector[i])) {
      throw rangeError(
        `index.embeddings returned ${x} at [${i}] for ${what}, beyond a 32-bit float`,
      );
    }
  }
  return vector;
}

/** The embedder's call `fn`; an error it raises is marked as the caller's. */
async function callEmbedder(fn) {
  try {
    return await fn();
  } catch (error) {
    if (error !== null && typeof error === "object") embedderErrors.add(error);
    throw error;
  }
}

/** Computes the plan's embeddings into its ops; resolves to the ops. */
async function embed(plan, index) {
  const texts = [...plan.texts.keys()];
  const queries = [...plan.queries.keys()];
  const [documents, queried] = await Promise.all([
    texts.length > 0 ? callEmbedder(() => index.embedder.documents(texts)) : [],
    Promise.all(
      queries.map((query) => callEmbedder(() => index.embedder.query(query))),
    ),
  ]);
  if (!Array.isArray(documents) || documents.length !== texts.length) {
    throw invalid(
      `index.embeddings returned ${Array.isArray(documents) ? documents.length : describe(documents)} ` +
        `vectors for ${texts.length} texts`,
    );
  }
  texts.forEach((text, i) => {
    const vector = vectorOf(documents[i], index.dims, `the text ${preview(text)}`);
    for (const [put, field] of plan.texts.get(text)) put.vectors.push([field, vector]);
  });
  queries.forEach((query, i) => {
    const vector = vectorOf(queried[i], index.dims, `the query ${preview(query)}`);
    for (const search of plan.queries.get(query)) search.query = vector;
  });
  return plan.ops;
}

function itemOf(raw) {
  raw.createdAt = new Date(raw.createdAt / 1000);
  raw.updatedAt = new Date(raw.updatedAt / 1000);
  return raw;
}

/** A native result in LangGraph's shape (Dates for the times). */
function resultOf(raw, op) {
  switch (op.kind) {
    case "get":
      return raw === null ? null : itemOf(raw);
    case "search":
      return raw.map(itemOf);
    case "put":
      return undefined;
    default:
      return raw;
  }
}

// ---- order -----------------------------------------------------------------------

const settle = () => undefined;

/**
 * Batches take effect in call order: a write (a batch with puts, a sweep)
 * starts after every earlier call has settled; a read after the earlier
 * writes, concurrently with other reads.
 */
class StoreOrder {
  /** The last write's settling (never rejects), or null. */
  #write = null;
  /** The settlings of the reads made since the last write. */
  #reads = new Set();

  read(fn) {
    const run = this.#write ? this.#write.then(fn) : fn();
    const done = run.then(settle, settle);
    this.#reads.add(done);
    done.then(() => this.#reads.delete(done));
    return run;
  }

  write(fn) {
    const waits = [...this.#reads];
    if (this.#write) waits.push(this.#write);
    this.#reads.clear();
    const run = waits.length > 0 ? Promise.all(waits).then(fn) : fn();
    const done = run.then(settle, settle);
    this.#write = done;
    done.then(() => {
      if (this.#write === done) this.#write = null;
    });
    return run;
  }

  /** Settles once every call made so far has. */
  idle() {
    return Promise.all([...this.#reads, this.#write]);
  }
}

// ---- the store ---------------------------------------------------------------------

export class RockpointStore extends BaseStore {
  /** The addon's ItemStore once open. */
  #native = null;
  /** Promise of the ItemStore while a RocksDB store is being opened. */
  #opening = null;
  #options;
  #closed = false;
  #closing = null;
  #order = new StoreOrder();
  #inflight = new Set();

  /**
   * @param location ":memory:" (default) for an in-memory store, a
   *   directory for a RocksDB store, or an options object {path, index,
   *   ttl, syncWrites, readOnly, createIfMissing}. A RocksDB store opens
   *   on first use; RockpointStore.open() opens it (and reports errors) at
   *   once. Bad options throw here, before anything is opened.
   */
  constructor(location = MEMORY) {
    super();
    this.#options = normalizeOptions(location);
    if (this.#options.path === MEMORY) {
      const native = new (loadNative().ItemStore)();
      try {
        native.openMemory(nativeOptions(this.#options));
      } catch (error) {
        throw withCode(error);
      }
      this.#native = native;
    }
  }

  /**
   * Opens (or creates) the RocksDB store in directory `path` (or
   * ":memory:"), with options {index, ttl, syncWrites, readOnly,
   * createIfMissing}.
   */
  static async open(path, options = {}) {
    if (typeof path !== "string") {
      throw typeError(`open takes a directory path, got ${describe(path)}`);
    }
    if (!isObject(options)) {
      throw typeError(`options must be an object, got ${describe(options)}`);
    }
    if (Object.hasOwn(options, "path")) {
      throw typeError("options.path: give the path as open's first argument");
    }
    const store = new RockpointStore({ ...options, path });
    await store.#store();
    return store;
  }

  /** An in-memory store, with options {index, ttl}. */
  static memory(options = {}) {
    if (!isObject(options)) {
      throw typeError(`options must be an object, got ${describe(options)}`);
    }
    return new RockpointStore({ ...options, path: MEMORY });
  }

  /** "memory", "rocksdb", or "closed". */
  get kind() {
    if (this.#closed) return "closed";
    return this.#options.path === MEMORY ? "memory" : "rocksdb";
  }

  /** The store directory, or ":memory:". */
  get path() {
    return this.#options.path;
  }

  /**
   * The index options ({dims, embeddings, fields, exactSearchMaxVectors?,
   * hnsw?}), or undefined.
   */
  get indexConfig() {
    const index = this.#options.index;
    if (!index) return undefined;
    const out = { dims: index.dims, embeddings: index.embeddings, fields: [...index.fields] };
    if (index.exactSearchMaxVectors !== undefined) {
      out.exactSearchMaxVectors = index.exactSearchMaxVectors;
    }
    if (index.hnsw) out.hnsw = { ...index.hnsw };
    return out;
  }

  /** The TTL options ({defaultTtl?, refreshOnRead, sweepIntervalMinutes?}), or undefined. */
  get ttlConfig() {
    return this.#options.ttl;
  }

  async #store() {
    if (this.#native) return this.#native;
    if (this.#closed) throw closedError();
    if (!this.#opening) {
      const native = new (loadNative().ItemStore)();
      const path = this.#options.path;
      let opening;
      try {
        opening = native.open(`rocksdb:${path}`, nativeOptions(this.#options));
      } catch (error) {
        opening = Promise.reject(error);
      }
      this.#opening = opening.then(
        () => {
          this.#native = native;
          return native;
        },
        (error) => {
          this.#opening = null;  // a later call may retry.
          const code = typeof error.code === "string" ? error.code : "IOError";
          throw rockpointError(
            `rockpoint: cannot open store ${path}: ${error.message}`,
            code,
            { cause: error, type: error instanceof TypeError ? TypeError : Error },
          );
        },
      );
    }
    return this.#opening;
  }

  /** Tracks `promise` so close() waits for it; its rejection gets a code. */
  #track(promise) {
    const tracked = promise.then(undefined, (error) => {
      throw coded(error);
    });
    this.#inflight.add(tracked);
    const done = () => this.#inflight.delete(tracked);
    tracked.then(done, done);
    return tracked;
  }

  #checkOpen() {
    if (this.#closed) throw closedError();
  }

  /**
   * Runs LangGraph operations (GetOperation, PutOperation with optional
   * `ttl` (minutes; null: never expires) and `index`, SearchOperation with
   * optional `refreshTtl`, ListNamespacesOperation; Get also takes
   * `refreshTtl`): reads see the store as it was before the batch, then
   * its puts are written at once (the last put to a key wins). Any invalid
   * operation, or a failed embedding, rejects the whole batch and nothing
   * is written. Resolves to one result per operation: Item | null,
   * undefined, SearchItem[], string[][].
   */
  async batch(operations) {
    this.#checkOpen();
    let plan;
    try {
      plan = planBatch(operations, this.#options.index);
    } catch (error) {
      throw coded(error);
    }
    if (plan.ops.length === 0) return [];
    const needsEmbedding = plan.texts.size > 0 || plan.queries.size > 0;
    // Embeddings start now, while the batch waits for its turn.
    const prepared = needsEmbedding
      ? handled(embed(plan, this.#options.index))
      : null;
    const run = async () => {
      const ops = prepared ? await prepared : plan.ops;
      const native = this.#native ?? (await this.#store());
      return native.batch(ops);
    };
    const raw = await this.#track(
      plan.writes ? this.#order.write(run) : this.#order.read(run),
    );
    return raw.map((result, i) => resultOf(result, plan.ops[i]));
  }

  /**
   * The item at (namespace, key), or null. `refreshTtl` (default true):
   * restart its TTL when the store's ttl.refreshOnRead is set.
   */
  async get(namespace, key, options = {}) {
    checkNamespace(namespace, { allowEmpty: true, allowReservedRoot: true });
    const op = { namespace, key };
    if (options?.refreshTtl !== undefined) op.refreshTtl = options.refreshTtl;
    return (await this.batch([op]))[0];
  }

  /**
   * Items under `namespacePrefix`: with `query` (needs an index) the most
   * similar first, each with its `score`; else the newest updated first.
   * Options: filter, limit (10), offset (0), query, refreshTtl (true).
   */
  async search(namespacePrefix, options = {}) {
    checkNamespace(
      namespacePrefix,
      { allowEmpty: true, allowReservedRoot: true },
      "namespacePrefix",
    );
    const { filter, limit = 10, offset = 0, query, refreshTtl } = options ?? {};
    const op = { namespacePrefix, filter, limit, offset, query };
    if (refreshTtl !== undefined) op.refreshTtl = refreshTtl;
    return (await this.batch([op]))[0];
  }

  /**
   * Stores `value` at (namespace, key), replacing the item there (its
   * createdAt kept). `index`: the paths to embed instead of the index's
   * fields, or false for none. `options.ttl`: minutes until it expires,
   * null for never; default: the store's ttl.defaultTtl.
   */
  async put(namespace, key, value, index, options) {
    checkNamespace(namespace);
    const op = { namespace, key, value, index };
    if (options !== undefined && options !== null) {
      if (!isObject(options)) {
        throw typeError(`put's options must be an object {ttl?}, got ${describe(options)}`);
      }
      if (Object.hasOwn(options, "ttl")) op.ttl = options.ttl;
    }
    await this.batch([op]);
  }

  /** Deletes the item at (namespace, key); a missing one is no error. */
  async delete(namespace, key) {
    checkNamespace(namespace, { allowEmpty: true, allowReservedRoot: true });
    await this.batch([{ namespace, key, value: null }]);
  }

  /**
   * The namespaces holding items, sorted; `prefix` / `suffix` ("*" matches
   * any label), `maxDepth` (truncate, then deduplicate), limit (100),
   * offset (0).
   */
  async listNamespaces(options = {}) {
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = options ?? {};
    const matchConditions = [];
    if (prefix) {
      checkNamespace(prefix, { allowEmpty: true, allowReservedRoot: true }, "prefix");
      matchConditions.push({ matchType: "prefix", path: prefix });
    }
    if (suffix) {
      checkNamespace(suffix, { allowEmpty: true, allowReservedRoot: true }, "suffix");
      matchConditions.push({ matchType: "suffix", path: suffix });
    }
    return (await this.batch([{ matchConditions, maxDepth, limit, offset }]))[0];
  }

  /**
   * Deletes every expired item now (expired items are never returned
   * anyway); resolves to how many. The background sweeper
   * (ttl.sweepIntervalMinutes) does the same on its own thread.
   */
  async sweepTtl() {
    this.#checkOpen();
    return this.#track(
      this.#order.write(async () => (await this.#store()).sweep()),
    );
  }

  /**
   * The vector index's state: {vectors (one per embedded field of every
   * item), approximateReady (whether the HNSW graph answers queries: built
   * in the background once vectors exceeds index.exactSearchMaxVectors)},
   * or null without an index.
   */
  async indexStats() {
    this.#checkOpen();
    return this.#track(
      this.#order.read(async () => (await this.#store()).indexStats()),
    );
  }

  /** Resolves once the store is open (rejects when it cannot be). */
  async start() {
    this.#checkOpen();
    await this.#track(this.#store());
  }

  /** Closes the store, as PostgresStore's stop() does. */
  async stop() {
    await this.close();
  }

  /**
   * Waits for the calls in flight, stops the sweeper and closes the store
   * (for RocksDB: releases its lock). Later calls reject with code
   * "Aborted". Idempotent.
   */
  async close() {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    this.#closing = (async () => {
      while (this.#inflight.size > 0) {
        await Promise.allSettled([...this.#inflight]);
      }
      await this.#order.idle();
      let native = this.#native;
      if (!native && this.#opening) native = await this.#opening.catch(() => null);
      this.#native = null;
      if (native) await native.close();
    })();
    return this.#closing;
  }
}
