// The stored bytes of a value or write line (its "type" and payload
// members). The export dialect always writes them as base64 ("b64"). The
// journal dialect writes the most readable form that gives back exactly
// the same bytes:
//   "msgpack": VALUE   type "msgpack" and bytes that are the canonical
//                      msgpack encoding of a Value (value_json.h's lossless
//                      JSON form), nested shallowly enough for a line;
//   "text": STRING     other bytes that are valid UTF-8;
//   "b64": B           anything else.
// A journal reader accepts any of the three, exactly one per line.
//
// Thread-safety: pure functions.
#pragma once

#include "formats/lines.h"
#include "rockpoint/status.h"
#include "rockpoint/types.h"

namespace rockpoint::formats {

// Sets line["type"] and the payload member.
void PayloadToJson(const TypedValue& value, Dialect dialect, Json& line);

// Reads "type" and the payload member through `fields` (which records
// them as read). InvalidArgument naming the member otherwise.
Result<TypedValue> PayloadFromJson(LineFields& fields, Dialect dialect);

}  // namespace rockpoint::formats
