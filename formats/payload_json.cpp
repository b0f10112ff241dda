// Payload members of value and write lines (payload_json.h).
#include "formats/payload_json.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "formats/json_text.h"
#include "formats/value_json.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::formats {
namespace {

// The nesting of arrays and objects in `json` (0 for a scalar).
int Depth(const Json& json) {
  if (!json.is_structured()) return 0;
  int deepest = 0;
  for (const Json& item : json) deepest = std::max(deepest, Depth(item));
  return deepest + 1;
}

// The JSON form of `bytes` as a msgpack Value, if it is the canonical
// encoding of one and its line stays within kMaxJsonDepth.
std::optional<Json> ReadableMsgpack(const std::string& bytes) {
  Result<Value> value = serde::DecodeMsgpack(bytes);
  if (!value.ok() || serde::EncodeMsgpack(*value) != bytes) {
    return std::nullopt;
  }
  Json json = ValueToJson(*value);
  // The line's own object is one more level.
  if (Depth(json) + 1 > kMaxJsonDepth) return std::nullopt;
  return json;
}

}  // namespace

void PayloadToJson(const TypedValue& value, Dialect dialect, Json& line) {
  line["type"] = TextToJson(value.type);
  if (dialect == Dialect::kJournal) {
    if (value.type == serde::kMsgpackType) {
      if (std::optional<Json> readable = ReadableMsgpack(value.bytes)) {
        line["msgpack"] = std::move(*readable);
        return;
      }
    }
    if (IsValidUtf8(value.bytes)) {
      line["text"] = value.bytes;
      return;
    }
  }
  line["b64"] = Base64Encode(value.bytes);
}

Result<TypedValue> PayloadFromJson(LineFields& fields, Dialect dialect) {
  TypedValue value;
  RP_ASSIGN_OR_RETURN(value.type, fields.Text("type"));
  if (dialect == Dialect::kExport) {
    RP_ASSIGN_OR_RETURN(value.bytes, fields.Base64("b64"));
    return value;
  }
  const Json* msgpack = fields.Optional("msgpack");
  const Json* text = fields.Optional("text");
  const Json* b64 = fields.Optional("b64");
  if ((msgpack != nullptr) + (text != nullptr) + (b64 != nullptr) != 1) {
    return BadField(fields.Path("b64"),
                    "expected exactly one of b64, text and msgpack");
  }
  if (msgpack != nullptr) {
    RP_ASSIGN_OR_RETURN(Value decoded,
                        ValueFromJson(*msgpack, fields.Path("msgpack")));
    value.bytes = serde::EncodeMsgpack(decoded);
  } else if (text != nullptr) {
    if (!text->is_string()) return BadField(fields.Path("text"), "not text");
    value.bytes = text->get<std::string>();
  } else {
    RP_ASSIGN_OR_RETURN(value.bytes, fields.Base64("b64"));
  }
  return value;
}

}  // namespace rockpoint::formats
