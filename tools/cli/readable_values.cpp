// Readable forms of LangGraph's stored objects (see readable_values.h).
#include "tools/cli/readable_values.h"

#include <cctype>
#include <optional>
#include <string_view>

#include "formats/json_text.h"
#include "formats/value_json.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::cli {
namespace {

using serde::Value;

// LangGraph Python's extension codes (langgraph/checkpoint/serde/
// jsonplus.py, EXT_*).
enum PythonExtCode : int8_t {
  kPyConstructorSingleArg = 0,
  kPyConstructorPosArgs = 1,
  kPyConstructorKwArgs = 2,
  kPyMethodSingleArg = 3,
  kPyPydanticV1 = 4,
  kPyPydanticV2 = 5,
  kPyDeltaSnapshot = 7,
};

// A key ValueToJson writes as a plain object member.
bool IsReadableObjectKey(std::string_view key) {
  return formats::IsValidUtf8(key) && (key.empty() || key.front() != '$');
}

bool IsMessageModule(std::string_view module) {
  return module == "langchain_core.messages" ||
         module.starts_with("langchain_core.messages.");
}

// {"module": M, "name": N, <body_key>: body}; no "module" when M is empty.
formats::Json ObjectForm(const std::string& module, const std::string& name,
                         const char* body_key, formats::Json body) {
  formats::Json out = formats::Json::object();
  if (!module.empty()) out["module"] = module;
  out["name"] = name;
  out[body_key] = std::move(body);
  return out;
}

// The 32 hex digits uuid.UUID.hex stores, as 8-4-4-4-12.
std::optional<std::string> UuidText(const Value& hex) {
  if (!hex.is_string() || hex.as_string().size() != 32) return std::nullopt;
  const std::string& digits = hex.as_string();
  for (char c : digits) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return digits.substr(0, 8) + "-" + digits.substr(8, 4) + "-" +
         digits.substr(12, 4) + "-" + digits.substr(16, 4) + "-" +
         digits.substr(20);
}

// The (module, name, argument[, method]) array inside a Python extension.
struct PythonCall {
  std::string module;
  std::string name;
  const Value* argument = nullptr;
};

std::optional<PythonCall> ParsePythonCall(const Value& decoded) {
  if (!decoded.is_array()) return std::nullopt;
  const Value::Array& items = decoded.as_array();
  if (items.size() != 3 && items.size() != 4) return std::nullopt;
  for (int i : {0, 1}) {
    if (!items[i].is_string() || !formats::IsValidUtf8(items[i].as_string())) {
      return std::nullopt;
    }
  }
  return PythonCall{items[0].as_string(), items[1].as_string(), &items[2]};
}

// Converts a decoded Value, turning LangGraph Python's extensions into
// their readable forms. `depth` counts the maps, arrays and extensions
// enclosing a value; extensions at kMaxDepth or deeper stay opaque, so the
// walk recurses at most about 2 * kMaxDepth levels (each decoded payload
// nests at most kMaxDepth on its own).
class PythonValueReader {
 public:
  formats::Json Convert(const Value& value, int depth) {
    switch (value.kind()) {
      case Value::Kind::kArray: {
        formats::Json array = formats::Json::array();
        for (const Value& item : value.as_array()) {
          array.push_back(Convert(item, depth + 1));
        }
        return array;
      }
      case Value::Kind::kMap:
        return ConvertMap(value.as_map(), depth);
      case Value::Kind::kExt:
        if (auto readable = ConvertExt(value.as_ext(), depth)) {
          decoded_any_ = true;
          return std::move(*readable);
        }
        return formats::ValueToJson(value);
      default:
        return formats::ValueToJson(value);
    }
  }

  // Whether some extension was given a readable form.
  bool decoded_any() const { return decoded_any_; }

 private:
  formats::Json ConvertMap(const Value::Map& map, int depth) {
    bool plain = true;
    for (const auto& [key, item] : map)
      plain = plain && IsReadableObjectKey(key);
    if (plain) {
      formats::Json object = formats::Json::object();
      for (const auto& [key, item] : map)
        object[key] = Convert(item, depth + 1);
      return object;
    }
    formats::Json pairs = formats::Json::array();
    for (const auto& [key, item] : map) {
      pairs.push_back(formats::Json::array(
          {formats::TextToJson(key), Convert(item, depth + 1)}));
    }
    formats::Json tagged = formats::Json::object();
    tagged["$map"] = std::move(pairs);
    return tagged;
  }

  std::optional<formats::Json> ConvertExt(const serde::Ext& ext, int depth) {
    if (depth >= serde::kMaxDepth) return std::nullopt;
    auto decoded = serde::DecodeMsgpack(ext.data);
    if (!decoded.ok()) return std::nullopt;
    if (ext.type == kPyDeltaSnapshot) return Convert(*decoded, depth + 1);
    std::optional<PythonCall> call = ParsePythonCall(*decoded);
    if (!call) return std::nullopt;
    const Value& argument = *call->argument;
    switch (ext.type) {
      case kPyConstructorSingleArg:
        if (call->module == "uuid" && call->name == "UUID") {
          std::optional<std::string> uuid = UuidText(argument);
          if (!uuid) return std::nullopt;
          return formats::Json(*uuid);
        }
        return Convert(argument, depth + 1);
      case kPyMethodSingleArg:
        return Convert(argument, depth + 1);
      case kPyConstructorPosArgs:
        if (!argument.is_array()) return std::nullopt;
        return ObjectForm(call->module, call->name, "args",
                          Convert(argument, depth + 1));
      case kPyConstructorKwArgs:
      case kPyPydanticV1:
      case kPyPydanticV2:
        if (!argument.is_map()) return std::nullopt;
        if (IsMessageModule(call->module)) {
          if (auto message =
                  MessageForm(call->name, argument.as_map(), depth)) {
            return message;
          }
        }
        return ObjectForm(call->module, call->name, "kwargs",
                          Convert(argument, depth + 1));
      default:
        return std::nullopt;
    }
  }

  // {"type": <Class>, "content": ..., <other fields>}; nullopt when a field
  // name cannot be a plain object member.
  std::optional<formats::Json> MessageForm(const std::string& name,
                                           const Value::Map& fields,
                                           int depth) {
    for (const auto& [key, item] : fields) {
      if (!IsReadableObjectKey(key)) return std::nullopt;
    }
    formats::Json message = formats::Json::object();
    message["type"] = name;
    if (const auto content = fields.find("content"); content != fields.end()) {
      message["content"] = Convert(content->second, depth + 1);
    }
    for (const auto& [key, item] : fields) {
      if (key == "type" || key == "content") continue;
      message[key] = Convert(item, depth + 1);
    }
    return message;
  }

  bool decoded_any_ = false;
};

// LangGraph.js's lc objects (langgraph-checkpoint's serde/jsonplus.js and
// LangChain's Serializable.toJSON).
bool HasStringId(const formats::Json& object, size_t min_size) {
  const auto id = object.find("id");
  if (id == object.end() || !id->is_array() || id->size() < min_size) {
    return false;
  }
  for (const formats::Json& part : *id) {
    if (!part.is_string()) return false;
  }
  return true;
}

bool IsLcVersion(const formats::Json& object, int version, const char* type) {
  const auto lc = object.find("lc");
  const auto kind = object.find("type");
  return lc != object.end() && lc->is_number_integer() &&
         lc->get<int64_t>() == version && kind != object.end() &&
         kind->is_string() && kind->get<std::string>() == type;
}

std::optional<formats::Json> ReadableLcObject(const formats::Json& object);

formats::Json ConvertLangChainJson(const formats::Json& json) {
  if (json.is_array()) {
    formats::Json array = formats::Json::array();
    for (const formats::Json& item : json)
      array.push_back(ConvertLangChainJson(item));
    return array;
  }
  if (!json.is_object()) return json;
  if (auto readable = ReadableLcObject(json)) return std::move(*readable);
  formats::Json object = formats::Json::object();
  for (const auto& [key, item] : json.items()) {
    object[key] = ConvertLangChainJson(item);
  }
  return object;
}

// An lc 1 constructor: a LangChain message or another Serializable.
std::optional<formats::Json> ReadableLcConstructor(
    const formats::Json& object) {
  formats::Json kwargs = object.value("kwargs", formats::Json::object());
  if (!kwargs.is_object()) return std::nullopt;
  const formats::Json& id = object.at("id");
  const std::string name = id.back().get<std::string>();
  if (id.size() >= 2 && id[id.size() - 2] == "messages") {
    formats::Json message = formats::Json::object();
    message["type"] = name;
    if (kwargs.contains("content")) {
      message["content"] = ConvertLangChainJson(kwargs.at("content"));
    }
    for (const auto& [key, item] : kwargs.items()) {
      if (key == "type" || key == "content") continue;
      message[key] = ConvertLangChainJson(item);
    }
    return message;
  }
  std::string module;
  for (size_t i = 0; i + 1 < id.size(); ++i) {
    module += (i == 0 ? "" : ".") + id[i].get<std::string>();
  }
  return ObjectForm(module, name, "kwargs", ConvertLangChainJson(kwargs));
}

// An lc 2 record of LangGraph.js's serializer.
std::optional<formats::Json> ReadableLcRecord(const formats::Json& object) {
  if (IsLcVersion(object, 2, "undefined")) return formats::Json();
  if (IsLcVersion(object, 2, "delta_snapshot") && object.contains("value")) {
    return ConvertLangChainJson(object.at("value"));
  }
  if (!IsLcVersion(object, 2, "constructor") || !HasStringId(object, 1) ||
      object.at("id").size() != 1) {
    return std::nullopt;
  }
  const formats::Json args = object.value("args", formats::Json::array());
  if (!args.is_array()) return std::nullopt;
  const std::string name = object.at("id")[0].get<std::string>();
  if ((name == "Set" || name == "Map") && args.size() == 1 &&
      args[0].is_array()) {
    return ConvertLangChainJson(args[0]);
  }
  return ObjectForm("", name, "args", ConvertLangChainJson(args));
}

std::optional<formats::Json> ReadableLcObject(const formats::Json& object) {
  if (IsLcVersion(object, 1, "constructor") && HasStringId(object, 1)) {
    return ReadableLcConstructor(object);
  }
  return ReadableLcRecord(object);
}

}  // namespace

formats::Json ReadableJson(const Value& value) {
  return PythonValueReader().Convert(value, 0);
}

formats::Json ReadableLangChainJson(const formats::Json& json) {
  return ConvertLangChainJson(json);
}

std::string ReadableText(const Value& value) {
  PythonValueReader reader;
  formats::Json json = reader.Convert(value, 0);
  return reader.decoded_any() ? json.dump() : value.DebugString();
}

}  // namespace rockpoint::cli
