// Value <-> msgpack bytes: how rockpoint's own serializer (TypedValue type
// "msgpack") encodes channel values, writes and metadata.
//
// Encoding is canonical: maps are written in key order, integers in the
// smallest msgpack form, so equal Values encode to equal bytes. Decoding is
// strict: the input must be exactly one well-formed msgpack object whose map
// keys are strings, nested at most kMaxDepth deep (value.h); anything else
// (truncated, trailing bytes, unknown type byte, non-string key, oversize
// length, deeper nesting) is Corruption. Decoding never yields a partial
// value.
//
// Nesting: neither direction recurses past kMaxDepth levels. Encoding walks
// the Value with an explicit stack, so any depth encodes without a crash,
// but bytes nested deeper than kMaxDepth do not decode: a caller that stores
// Values refuses deeper ones first (CheckNesting in value.h), as Put does
// for metadata.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "rockpoint/status.h"
#include "rockpoint/value.h"

namespace rockpoint::serde {

std::string EncodeMsgpack(const Value& value);
void AppendMsgpack(const Value& value, std::string* out);
Result<Value> DecodeMsgpack(std::string_view bytes);

// TypedValue helpers for rockpoint's own serializer (type "msgpack").
inline constexpr std::string_view kMsgpackType = "msgpack";

}  // namespace rockpoint::serde
