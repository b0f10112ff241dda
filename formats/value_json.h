// JSON forms of the engine's values, shared by the CLI (its renderers and
// its export format, tools/cli/FORMAT_JSONL.md) and the JSONL backend's
// journal (engine/jsonl/FORMAT.md).
//
// Value (metadata, decoded channel values) -> JSON, losslessly:
//   null, bool, int, string (valid UTF-8) -> the JSON scalar; a finite double
//   -> a JSON number that always carries a '.' or exponent; arrays -> arrays;
//   a map whose keys are valid UTF-8 and do not start with '$' -> an object.
//   Everything else is a tagged object whose only keys start with '$':
//     {"$bytes": "<b64>"}               byte string
//     {"$string_b64": "<b64>"}          text string that is not valid UTF-8
//     {"$double": "NaN"|"Infinity"|"-Infinity"}
//     {"$ext": <tag>, "$data": "<b64>"} tagged extension
//     {"$map": [[<text field>, <value>], ...]}  any other map, keys in order
// ChannelVersion -> a JSON integer (int version) or a text field (string
// version), so 1 and "1" stay distinct.
//
// Nesting (rockpoint/value.h states the rule for Values): a Value nests at
// most serde::kMaxDepth maps and arrays, metadata kMaxMetadataNesting. JSON
// text is checked before it is parsed against kMaxJsonDepth, the nesting of
// an export line holding the deepest metadata the engine accepts, so no
// JSON a reader holds is deep enough to overflow the recursive walks over it
// (nlohmann's dump and copies, ValueFromJson).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "formats/json_text.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::formats {

// The JSON nesting of an export line (FORMAT_JSONL.md) whose metadata is
// kMaxMetadataNesting maps in the {"$map": [[key, value]]} form (three JSON
// levels each) around a tagged leaf such as {"$bytes": "..."} (one), inside
// the line's own object (one): 3 * 255 + 2 = 767 arrays and objects.
inline constexpr int kMaxJsonDepth = 3 * kMaxMetadataNesting + 2;

// The nesting of arrays and objects in JSON `text` (0 for a scalar), counted
// no further than `cap` + 1, in one pass without parsing: brackets inside
// strings do not count. Exact for valid JSON; for other text, what a parser
// would refuse anyway may be miscounted.
int JsonNestingDepth(std::string_view text, int cap = kMaxJsonDepth);

// InvalidArgument "nests deeper than 767 JSON arrays and objects" (callers
// say where) when JsonNestingDepth(text) > kMaxJsonDepth.
Status CheckJsonNesting(std::string_view text);

Json ValueToJson(const Value& value);
// InvalidArgument naming `field` for JSON outside the grammar above or
// nested deeper than serde::kMaxDepth maps and arrays ("<field>: nests
// deeper than 256 maps and arrays").
Result<Value> ValueFromJson(const Json& json, std::string_view field);

Json VersionToJson(const ChannelVersion& version);
Result<ChannelVersion> VersionFromJson(const Json& json,
                                       std::string_view field);

}  // namespace rockpoint::formats
