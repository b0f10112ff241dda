// Renderings of stored payloads for the CLI's tables and JSON output, built
// on the JSON forms of Values and versions of formats/value_json.h.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "formats/json_text.h"
#include "formats/value_json.h"
#include "rockpoint/types.h"

namespace rockpoint::cli {

// How a stored payload is shown.
enum class PayloadView {
  kDecoded,  // msgpack decoded to a Value; "json" payloads parsed.
  kRaw,      // type + base64 bytes, never decoded (--raw).
};

// A channel value or write for JSON output: {"type": T, "value": <decoded>}
// when it decodes (and view is kDecoded), else {"type": T, "b64": "..."}.
// A "json" payload decodes when it is JSON nested at most kMaxJsonDepth.
// A runtime delta snapshot or overwrite (runtime_forms.h) shows its inner
// value, with "form": "delta snapshot" | "overwrite".
formats::Json PayloadToJson(const TypedValue& payload, PayloadView view);
// The same for a table cell: the Value's DebugString (prefixed "delta
// snapshot: " or "overwrite: " for those forms), or "<type> b64:...".
std::string PayloadToText(const TypedValue& payload, PayloadView view);

// The decoded Value of a msgpack payload, or nullopt (other type, or bytes
// that do not decode).
std::optional<Value> DecodePayload(const TypedValue& payload);

}  // namespace rockpoint::cli
