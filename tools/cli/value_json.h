// JSON forms of the engine's values, shared by the renderers and the export
// format (tools/cli/FORMAT_JSONL.md states the grammar).
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
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "rockpoint/status.h"
#include "rockpoint/types.h"
#include "tools/cli/text_codec.h"

namespace rockpoint::cli {

Json ValueToJson(const Value& value);
// InvalidArgument naming `field` for JSON outside the grammar above.
Result<Value> ValueFromJson(const Json& json, std::string_view field);

Json VersionToJson(const ChannelVersion& version);
Result<ChannelVersion> VersionFromJson(const Json& json,
                                       std::string_view field);

// How a stored payload is shown.
enum class PayloadView {
  kDecoded,  // msgpack decoded to a Value; "json" payloads parsed.
  kRaw,      // type + base64 bytes, never decoded (--raw).
};

// A channel value or write for JSON output: {"type": T, "value": <decoded>}
// when it decodes (and view is kDecoded), else {"type": T, "b64": "..."}.
// A runtime delta snapshot or overwrite (runtime_forms.h) shows its inner
// value, with "form": "delta snapshot" | "overwrite".
Json PayloadToJson(const TypedValue& payload, PayloadView view);
// The same for a table cell: the Value's DebugString (prefixed "delta
// snapshot: " or "overwrite: " for those forms), or "<type> b64:...".
std::string PayloadToText(const TypedValue& payload, PayloadView view);

// The decoded Value of a msgpack payload, or nullopt (other type, or bytes
// that do not decode).
std::optional<Value> DecodePayload(const TypedValue& payload);

}  // namespace rockpoint::cli
