// Value <-> JSON (grammar in value_json.h).
#include "formats/value_json.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rockpoint::formats {
namespace {

bool IsPlainKey(std::string_view key) {
  return IsValidUtf8(key) && (key.empty() || key.front() != '$');
}

Json Tagged(const char* tag, Json payload) {
  Json object = Json::object();
  object[tag] = std::move(payload);
  return object;
}

Status Bad(std::string_view field, std::string_view what) {
  return Status::InvalidArgument(std::string(field) + ": " + std::string(what));
}

// Where a conversion is: the field path, the field ValueFromJson was given,
// and the number of maps and arrays enclosing the value.
struct At {
  std::string_view field;
  std::string_view root;
  int depth;
  At Child(std::string_view path) const { return {path, root, depth + 1}; }
};

Result<Value> ValueFromJsonAt(const Json& json, const At& at);

// The error for a map or array that would be level kMaxDepth + 1: names the
// root field (a path hundreds of levels long would hide the point).
Status TooDeep(const At& at) {
  return Bad(at.root, "nests deeper than " + std::to_string(serde::kMaxDepth) +
                          " maps and arrays");
}

Result<std::string> DecodeB64Field(const Json& json, std::string_view field) {
  if (!json.is_string()) return Bad(field, "expected a base64 string");
  auto bytes = Base64Decode(json.get<std::string>());
  if (!bytes.ok()) return Bad(field, bytes.status().message());
  return std::move(bytes).value();
}

// `json` is an object whose first key starts with '$'.
Result<Value> TaggedFromJson(const Json& json, const At& at) {
  const std::string_view field = at.field;
  // The first member, through an iterator that outlives its uses (a
  // structured binding to *json.items().begin() would refer to a destroyed
  // temporary).
  const Json::const_iterator first = json.begin();
  const std::string& tag = first.key();
  const Json& payload = first.value();
  const std::string path = std::string(field) + "." + tag;
  if (json.size() == 1 && tag == "$bytes") {
    RP_ASSIGN_OR_RETURN(std::string bytes, DecodeB64Field(payload, path));
    return Value(serde::Bytes{std::move(bytes)});
  }
  if (json.size() == 1 && tag == "$string_b64") {
    RP_ASSIGN_OR_RETURN(std::string text, DecodeB64Field(payload, path));
    return Value(std::move(text));
  }
  if (json.size() == 1 && tag == "$double") {
    const std::string name =
        payload.is_string() ? payload.get<std::string>() : std::string();
    if (name == "NaN") return Value(std::nan(""));
    if (name == "Infinity") return Value(HUGE_VAL);
    if (name == "-Infinity") return Value(-HUGE_VAL);
    return Bad(path, "expected \"NaN\", \"Infinity\" or \"-Infinity\"");
  }
  if (json.size() == 2 && json.contains("$ext") && json.contains("$data")) {
    const Json& type = json["$ext"];
    if (!type.is_number_integer() || type.get<int64_t>() < -128 ||
        type.get<int64_t>() > 127) {
      return Bad(std::string(field) + ".$ext", "expected an int8 tag");
    }
    RP_ASSIGN_OR_RETURN(
        std::string data,
        DecodeB64Field(json["$data"], std::string(field) + ".$data"));
    return Value(
        serde::Ext{static_cast<int8_t>(type.get<int64_t>()), std::move(data)});
  }
  if (json.size() == 1 && tag == "$map") {
    if (at.depth >= serde::kMaxDepth) return TooDeep(at);
    if (!payload.is_array()) return Bad(path, "expected an array of pairs");
    Value::Map map;
    for (size_t i = 0; i < payload.size(); ++i) {
      const Json& pair = payload[i];
      const std::string item = path + "[" + std::to_string(i) + "]";
      if (!pair.is_array() || pair.size() != 2) {
        return Bad(item, "expected [key, value]");
      }
      RP_ASSIGN_OR_RETURN(std::string key, TextFromJson(pair[0], item));
      RP_ASSIGN_OR_RETURN(Value value,
                          ValueFromJsonAt(pair[1], at.Child(item)));
      map.insert_or_assign(std::move(key), std::move(value));
    }
    return Value(std::move(map));
  }
  return Bad(field, "unknown tagged value " + json.dump());
}

}  // namespace

Json ValueToJson(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return Json(nullptr);
    case Value::Kind::kBool:
      return Json(value.as_bool());
    case Value::Kind::kInt:
      return Json(value.as_int());
    case Value::Kind::kDouble: {
      const double d = value.as_double();
      if (std::isnan(d)) return Tagged("$double", "NaN");
      if (std::isinf(d))
        return Tagged("$double", d > 0 ? "Infinity" : "-Infinity");
      return Json(d);
    }
    case Value::Kind::kString:
      if (IsValidUtf8(value.as_string())) return Json(value.as_string());
      return Tagged("$string_b64", Base64Encode(value.as_string()));
    case Value::Kind::kBytes:
      return Tagged("$bytes", Base64Encode(value.as_bytes().data));
    case Value::Kind::kArray: {
      Json array = Json::array();
      for (const Value& item : value.as_array()) {
        array.push_back(ValueToJson(item));
      }
      return array;
    }
    case Value::Kind::kMap: {
      bool plain = true;
      for (const auto& [key, item] : value.as_map()) {
        plain = plain && IsPlainKey(key);
      }
      if (plain) {
        Json object = Json::object();
        for (const auto& [key, item] : value.as_map()) {
          object[key] = ValueToJson(item);
        }
        return object;
      }
      Json pairs = Json::array();
      for (const auto& [key, item] : value.as_map()) {
        pairs.push_back(Json::array({TextToJson(key), ValueToJson(item)}));
      }
      return Tagged("$map", std::move(pairs));
    }
    case Value::Kind::kExt: {
      Json object = Json::object();
      object["$ext"] = value.as_ext().type;
      object["$data"] = Base64Encode(value.as_ext().data);
      return object;
    }
  }
  return Json(nullptr);
}

namespace {

// The Value of `json` at `at`.
Result<Value> ValueFromJsonAt(const Json& json, const At& at) {
  const std::string_view field = at.field;
  switch (json.type()) {
    case Json::value_t::null:
      return Value();
    case Json::value_t::boolean:
      return Value(json.get<bool>());
    case Json::value_t::number_integer:
      return Value(json.get<int64_t>());
    case Json::value_t::number_unsigned:
      if (json.get<uint64_t>() >
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Bad(field, "integer out of the int64 range");
      }
      return Value(static_cast<int64_t>(json.get<uint64_t>()));
    case Json::value_t::number_float:
      return Value(json.get<double>());
    case Json::value_t::string:
      return Value(json.get<std::string>());
    case Json::value_t::array: {
      if (at.depth >= serde::kMaxDepth) return TooDeep(at);
      Value::Array array;
      array.reserve(json.size());
      for (size_t i = 0; i < json.size(); ++i) {
        RP_ASSIGN_OR_RETURN(
            Value item,
            ValueFromJsonAt(json[i], at.Child(std::string(field) + "[" +
                                              std::to_string(i) + "]")));
        array.push_back(std::move(item));
      }
      return Value(std::move(array));
    }
    case Json::value_t::object: {
      if (!json.empty() && json.begin().key().starts_with("$")) {
        return TaggedFromJson(json, at);
      }
      if (at.depth >= serde::kMaxDepth) return TooDeep(at);
      Value::Map map;
      for (const auto& [key, item] : json.items()) {
        if (!IsPlainKey(key)) {
          return Bad(field, "key \"" + key + "\" mixes tags and plain keys");
        }
        RP_ASSIGN_OR_RETURN(
            Value value,
            ValueFromJsonAt(item, at.Child(std::string(field) + "." + key)));
        map.emplace(key, std::move(value));
      }
      return Value(std::move(map));
    }
    default:
      return Bad(field, "unsupported JSON type");
  }
}

}  // namespace

int JsonNestingDepth(std::string_view text, int cap) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string.
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > cap) break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Status CheckJsonNesting(std::string_view text) {
  if (JsonNestingDepth(text) <= kMaxJsonDepth) return Status::OK();
  return Status::InvalidArgument("nests deeper than " +
                                 std::to_string(kMaxJsonDepth) +
                                 " JSON arrays and objects");
}

Result<Value> ValueFromJson(const Json& json, std::string_view field) {
  return ValueFromJsonAt(json, At{field, field, 0});
}

Json VersionToJson(const ChannelVersion& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) return Json(*number);
  return TextToJson(std::get<std::string>(version));
}

Result<ChannelVersion> VersionFromJson(const Json& json,
                                       std::string_view field) {
  if (json.is_number_integer()) {
    if (json.is_number_unsigned() &&
        json.get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Bad(field, "version out of the int64 range");
    }
    return ChannelVersion(json.get<int64_t>());
  }
  auto text = TextFromJson(json, field);
  if (!text.ok()) {
    return Bad(field, "a version must be an integer or a string");
  }
  return ChannelVersion(std::move(text).value());
}

}  // namespace rockpoint::formats
