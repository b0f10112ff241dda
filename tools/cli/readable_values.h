// Readable forms of the values LangGraph's serializers store, for the CLI's
// `show`, `diff`, `history` and `writes` output (tables and --json/--jsonl;
// never `export`, which keeps the stored bytes), as the README's "CLI"
// section documents them.
//
// LangGraph Python (JsonPlusSerializer, type "msgpack") stores objects as
// msgpack extensions whose data is itself msgpack: an array (module, name,
// argument(s)[, method]) under codes 0 (constructor, one argument), 1
// (positional arguments), 2 (keyword arguments), 3 (method, one argument),
// 4 and 5 (pydantic v1 and v2 models), and 7 (a delta snapshot: the data is
// the encoded value). ReadableJson turns them into:
//   - a LangChain message (module under langchain_core.messages):
//     {"type": "<Class>", "content": ..., <its other fields>}, the
//     message's own lower-case "type" field left out;
//   - a UUID: its canonical 8-4-4-4-12 string;
//   - any other one-argument constructor or method (enum, datetime, set,
//     frozenset, deque, Decimal, IP address, ZoneInfo, ...): its argument
//     (an enum's value, datetime's ISO string, a set's items as an array);
//   - any other object: {"module": M, "name": N, "kwargs": {...}} (codes 2,
//     4, 5) or {"module": M, "name": N, "args": [...]} (code 1);
//   - a delta snapshot: its value.
// Every other extension (another code, code 6 numpy arrays, data that does
// not decode or is not shaped as above, or nested deeper than kMaxDepth
// levels of maps, arrays and extensions) keeps ValueToJson's opaque form
// {"$ext": N, "$data": "<base64>"}: nothing is lost and nothing fails.
//
// LangGraph.js (type "json") stores LangChain objects as
// {"lc": 1, "type": "constructor", "id": [..., "<Class>"], "kwargs": {...}}
// and its own values as {"lc": 2, ...}. ReadableLangChainJson turns a
// message (an id whose next-to-last element is "messages") into {"type":
// "<Class>", "content": ..., <kwargs>}, any other lc 1 constructor into
// {"module": <id before the class, joined with ".">, "name": <Class>, "kwargs":
// {...}}, lc 2 Set and Map into their items (Map: [key, value] pairs), lc 2
// "undefined" into null, an lc 2 delta snapshot into its value, and any
// other lc 2 constructor into {"name": <Class>, "args": [...]}. Anything
// else is left as it is.
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "formats/json_text.h"
#include "rockpoint/value.h"

namespace rockpoint::cli {

// ValueToJson (formats/value_json.h) with LangGraph Python's
// extensions in their readable forms (see above).
formats::Json ReadableJson(const serde::Value& value);

// `json` (a parsed "json" payload) with LangGraph.js's lc objects in their
// readable forms. REQUIRES: `json` nests at most kMaxJsonDepth levels.
formats::Json ReadableLangChainJson(const formats::Json& json);

// A table cell for `value`: its DebugString when no extension in it has a
// readable form (the output of values without LangGraph objects does not
// change), else ReadableJson(value) as compact JSON.
std::string ReadableText(const serde::Value& value);

}  // namespace rockpoint::cli
