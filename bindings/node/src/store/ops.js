// The conversion of LangGraph's store operations to the addon's ops
// (native/item_convert.h) and of its results back. planBatch checks a
// whole batch first (a bad op throws, with code "InvalidArgument", before
// anything runs) and says which texts and queries embed() (embed.js) must
// turn into vectors; resultOf gives each native result LangGraph's shape.
// Ops are told apart as LangGraph's are: namespacePrefix (search),
// matchConditions (listNamespaces), value (put), namespace and key (get).
import {
  absent,
  checkPaths,
  describe,
  integer,
  invalid,
  isObject,
  isPlainObject,
  optionalBoolean,
  rangeError,
  typeError,
} from "./checks.js";
import { textsAtPath, tokenizeFieldPath } from "./embed.js";
import { keyOf, labelsOf, putNamespace, putTtl, storeValue } from "./validate.js";

/**
 * The addon's form of a batch: {ops, writes, texts, queries} where `ops`
 * are the native ops (vectors still missing), `writes` says whether any is
 * a put, and `texts` and `queries` are what embed() embeds into them.
 * `index` is the store's normalized index options, or undefined.
 */
export function planBatch(operations, index) {
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

// ---- results ------------------------------------------------------------------------

function itemOf(raw) {
  raw.createdAt = new Date(raw.createdAt / 1000);
  raw.updatedAt = new Date(raw.updatedAt / 1000);
  return raw;
}

/** A native result in LangGraph's shape (Dates for the times). */
export function resultOf(raw, op) {
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
