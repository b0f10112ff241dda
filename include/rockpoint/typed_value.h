// TypedValue and ChannelVersion: the opaque values that cross the engine
// interface.
//
// The engine never interprets a channel value or a write: it stores
// {type, bytes} as produced by whichever serializer sits on top (rockpoint's
// msgpack serializer, "msgpack"; the LangGraph.js serde in the binding, e.g.
// "json"). ChannelVersion is an int or a string and round-trips exactly:
// "1" is never turned into 1.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace rockpoint::serde {

struct TypedValue {
  std::string type;   // serializer tag, e.g. "msgpack", "json", "bytes".
  std::string bytes;  // serialized payload.
  friend bool operator==(const TypedValue&, const TypedValue&) = default;
};

using ChannelVersion = std::variant<int64_t, std::string>;

// "7" for 7, "\"7\"" for the string "7": distinguishable, for messages.
inline std::string VersionToString(const ChannelVersion& version) {
  if (const auto* i = std::get_if<int64_t>(&version)) return std::to_string(*i);
  return "\"" + std::get<std::string>(version) + "\"";
}

}  // namespace rockpoint::serde
