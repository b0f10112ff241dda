// What RockpointStore embeds, and the embedding itself. Field paths are
// read as LangGraph's InMemoryStore reads them (tokenizeFieldPath,
// textsAtPath: "text", "meta.title", "tags[*]", "chapters[0].body",
// "{title,summary}", "$" for the whole value). embed() calls the index's
// embedder once for a batch's texts (each distinct text once) and once per
// distinct query, checks every vector (an array or typed array of exactly
// index.dims finite numbers, each within a 32-bit float; else an error
// with code "InvalidArgument", a TypeError or RangeError naming the text)
// and puts it into the batch's native ops. An error the embedder itself
// raises is passed on as it is, without a code (markEmbedderError).
import {
  describe,
  invalid,
  isObject,
  markEmbedderError,
  rangeError,
  typeError,
} from "./checks.js";

// ---- field paths ----------------------------------------------------------------

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

// ---- the embedder -----------------------------------------------------------------

/**
 * The embedder of `embeddings`: a LangChain Embeddings (embedDocuments,
 * embedQuery) or a function texts -> Promise<number[][]>.
 */
export function embedderOf(embeddings) {
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
    markEmbedderError(error);
    throw error;
  }
}

/**
 * Computes the plan's embeddings into its ops; resolves to the ops.
 * `plan` is planBatch's (ops.js): `texts` maps each text to the
 * [put op, vector field] pairs that take its vector, `queries` each query
 * to the search ops that take its vector. `index` is normalizeIndex's.
 */
export async function embed(plan, index) {
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
