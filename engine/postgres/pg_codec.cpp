// The JSON and version mapping of pg_codec.h.
#include "engine/postgres/pg_codec.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "formats/json_text.h"
#include "formats/value_json.h"
#include "rockpoint/msgpack_codec.h"

namespace rockpoint::pg {
namespace {

using Json = nlohmann::json;

bool LooksLikeInteger(std::string_view text) {
  size_t i = text.starts_with('-') ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

bool IsJsonText(std::string_view text) {
  return text.find('\0') == std::string_view::npos &&
         formats::IsValidUtf8(text);
}

// True when jsonb keeps `value` as a number that reads back as this double:
// a finite value whose shortest form is a plain decimal with a point (jsonb
// rewrites exponents without one, and has no -0).
bool IsPlainDouble(double value) {
  if (!std::isfinite(value) || (value == 0 && std::signbit(value))) {
    return false;
  }
  const std::string text = Json(value).dump();
  return text.find('.') != std::string::npos &&
         text.find_first_of("eE") == std::string::npos;
}

Json Tag(const Value& value) {
  return Json{{std::string(kTagKey),
               formats::Base64Encode(serde::EncodeMsgpack(value))}};
}

Json ValueToJson(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return nullptr;
    case Value::Kind::kBool:
      return value.as_bool();
    case Value::Kind::kInt:
      return value.as_int();
    case Value::Kind::kDouble:
      return IsPlainDouble(value.as_double()) ? Json(value.as_double())
                                              : Tag(value);
    case Value::Kind::kString:
      return IsJsonText(value.as_string()) ? Json(value.as_string())
                                           : Tag(value);
    case Value::Kind::kArray: {
      Json out = Json::array();
      for (const Value& item : value.as_array()) {
        out.push_back(ValueToJson(item));
      }
      return out;
    }
    case Value::Kind::kMap: {
      const Value::Map& map = value.as_map();
      if (map.size() == 1 && map.begin()->first == kTagKey) return Tag(value);
      Json out = Json::object();
      for (const auto& [key, item] : map) {
        if (!IsJsonText(key)) return Tag(value);
        out[key] = ValueToJson(item);
      }
      return out;
    }
    case Value::Kind::kBytes:
    case Value::Kind::kExt:
      return Tag(value);
  }
  return Tag(value);
}

Result<Value> ValueFromJson(const Json& json, std::string_view where) {
  switch (json.type()) {
    case Json::value_t::null:
      return Value();
    case Json::value_t::boolean:
      return Value(json.get<bool>());
    case Json::value_t::number_integer:
      return Value(json.get<int64_t>());
    case Json::value_t::number_unsigned: {
      const uint64_t number = json.get<uint64_t>();
      if (number <=
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Value(static_cast<int64_t>(number));
      }
      return Value(static_cast<double>(number));
    }
    case Json::value_t::number_float:
      return Value(json.get<double>());
    case Json::value_t::string:
      return Value(json.get<std::string>());
    case Json::value_t::array: {
      Value::Array items;
      for (const Json& item : json) {
        RP_ASSIGN_OR_RETURN(Value decoded, ValueFromJson(item, where));
        items.push_back(std::move(decoded));
      }
      return Value(std::move(items));
    }
    case Json::value_t::object: {
      auto tag = json.find(std::string(kTagKey));
      if (json.size() == 1 && tag != json.end() && tag->is_string()) {
        Result<std::string> packed =
            formats::Base64Decode(tag->get<std::string>());
        Result<Value> value = packed.ok() ? serde::DecodeMsgpack(*packed)
                                          : Result<Value>(packed.status());
        if (!value.ok()) {
          return Status::Corruption(
              std::string(where) + ": a " + std::string(kTagKey) +
              " value does not decode: " + value.status().message());
        }
        return value;
      }
      Value::Map map;
      for (const auto& [key, item] : json.items()) {
        RP_ASSIGN_OR_RETURN(Value decoded, ValueFromJson(item, where));
        map.emplace(key, std::move(decoded));
      }
      return Value(std::move(map));
    }
    default:
      return Status::Corruption(std::string(where) +
                                ": holds a JSON value of no known kind");
  }
}

Result<Json> ParseJson(std::string_view text, std::string_view where) {
  if (formats::JsonNestingDepth(text, serde::kMaxDepth) > serde::kMaxDepth) {
    return Status::Corruption(std::string(where) + ": nests deeper than " +
                              std::to_string(serde::kMaxDepth) +
                              " JSON arrays and objects");
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return Status::Corruption(std::string(where) + ": is not valid JSON");
  }
  return json;
}

Json VersionToJson(const ChannelVersion& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) return *number;
  return std::get<std::string>(version);
}

Result<ChannelVersion> VersionFromJson(const Json& json,
                                       std::string_view where) {
  if (json.is_number_integer() &&
      (json.is_number_unsigned()
           ? json.get<uint64_t>() <=
                 static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
           : true)) {
    return ChannelVersion(json.get<int64_t>());
  }
  if (json.is_string()) return ChannelVersion(json.get<std::string>());
  return Status::Corruption(std::string(where) +
                            ": a channel version is neither an integer nor "
                            "a string: " +
                            json.dump());
}

Json VersionsToJson(const ChannelVersions& versions) {
  Json out = Json::object();
  for (const auto& [channel, version] : versions) {
    out[channel] = VersionToJson(version);
  }
  return out;
}

Result<ChannelVersions> VersionsFromJson(const Json& json,
                                         std::string_view where) {
  ChannelVersions versions;
  if (json.is_null()) return versions;
  if (!json.is_object()) {
    return Status::Corruption(std::string(where) +
                              ": channel versions are not a JSON object");
  }
  for (const auto& [channel, version] : json.items()) {
    RP_ASSIGN_OR_RETURN(versions[channel], VersionFromJson(version, where));
  }
  return versions;
}

Status CheckVersions(std::string_view field, const ChannelVersions& versions,
                     size_t max_bytes) {
  for (const auto& [channel, version] : versions) {
    RP_RETURN_IF_ERROR(CheckStorableText(field, channel, max_bytes));
    if (const auto* text = std::get_if<std::string>(&version)) {
      RP_RETURN_IF_ERROR(CheckStorableText(std::string(field) + " version",
                                           VersionKey(version), max_bytes));
      (void)text;
    }
  }
  return Status::OK();
}

}  // namespace

bool IsStorableText(std::string_view text, size_t max_bytes) {
  return text.size() <= max_bytes && IsJsonText(text);
}

Status CheckStorableText(std::string_view field, std::string_view text,
                         size_t max_bytes) {
  if (text.size() > max_bytes) {
    return Status::InvalidArgument(
        std::string(field) + " cannot be stored in PostgreSQL: " +
        std::to_string(text.size()) + " bytes, more than the " +
        std::to_string(max_bytes) + " a key column holds");
  }
  if (text.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument(
        std::string(field) +
        " cannot be stored in PostgreSQL: it holds a NUL byte, which TEXT "
        "columns cannot hold");
  }
  if (!formats::IsValidUtf8(text)) {
    return Status::InvalidArgument(
        std::string(field) +
        " cannot be stored in PostgreSQL: it is not valid UTF-8, which TEXT "
        "columns require");
  }
  return Status::OK();
}

std::string VersionKey(const ChannelVersion& version) {
  if (const auto* number = std::get_if<int64_t>(&version)) {
    return std::to_string(*number);
  }
  const std::string& text = std::get<std::string>(version);
  if (LooksLikeInteger(text) || text.starts_with('"')) return '"' + text;
  return text;
}

Result<ChannelVersion> VersionFromKey(std::string_view key,
                                      std::string_view where) {
  ChannelVersion version = std::string(key);
  if (key.starts_with('"')) {
    version = std::string(key.substr(1));
  } else if (LooksLikeInteger(key)) {
    int64_t number = 0;
    const auto [end, error] =
        std::from_chars(key.data(), key.data() + key.size(), number);
    if (error == std::errc() && end == key.data() + key.size()) {
      version = number;
    }
  }
  if (VersionKey(version) != key) {
    return Status::Corruption(std::string(where) + ": version \"" +
                              std::string(key) +
                              "\" is the key of no channel version");
  }
  return version;
}

std::string VersionKeySql(std::string_view json_expr) {
  const std::string text = "(" + std::string(json_expr) + " #>> '{}')";
  return "(CASE WHEN jsonb_typeof(" + std::string(json_expr) +
         ") = 'string' AND (" + text + " ~ '^-?[0-9]+$' OR left(" + text +
         ", 1) = '\"') THEN '\"' || " + text + " ELSE " + text + " END)";
}

std::string MetadataToJson(const Value& metadata) {
  return ValueToJson(metadata).dump();
}

Result<Value> MetadataFromJson(std::string_view json, std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(json, where));
  RP_ASSIGN_OR_RETURN(Value metadata, ValueFromJson(parsed, where));
  if (!metadata.is_map()) {
    return Status::Corruption(std::string(where) + ": metadata is a " +
                              Value::KindName(metadata.kind()) + ", not a map");
  }
  return metadata;
}

std::string RunIdJson(const Value& metadata) {
  const Value* run_id = metadata.is_map() ? metadata.Find("run_id") : nullptr;
  if (run_id == nullptr || !run_id->is_string()) return "{}";
  return Json{{"run_id", ValueToJson(*run_id)}}.dump();
}

namespace {

// The channel_versions member of the checkpoint JSON `checkpoint`.
Result<std::optional<Json>> VersionsMember(std::string_view checkpoint,
                                           std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(checkpoint, where));
  if (!parsed.is_object()) return std::optional<Json>();
  auto versions = parsed.find("channel_versions");
  if (versions == parsed.end()) return std::optional<Json>();
  return std::optional<Json>(std::move(*versions));
}

}  // namespace

Result<std::optional<std::string>> ChannelVersionsOf(
    std::string_view checkpoint, std::string_view where) {
  RP_ASSIGN_OR_RETURN(std::optional<Json> versions,
                      VersionsMember(checkpoint, where));
  if (!versions) return std::optional<std::string>();
  return std::optional<std::string>(versions->dump());
}

Result<std::string> SealedCheckpointColumn(std::string_view plain_checkpoint,
                                           std::string_view sealed_base64,
                                           std::string_view where) {
  RP_ASSIGN_OR_RETURN(std::optional<Json> versions,
                      VersionsMember(plain_checkpoint, where));
  Json column = {{std::string(kSealedKey), std::string(sealed_base64)}};
  if (versions) column["channel_versions"] = std::move(*versions);
  return column.dump();
}

Result<SealedCheckpointParts> ReadSealedCheckpointColumn(
    std::string_view column, std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(column, where));
  SealedCheckpointParts parts;
  if (!parsed.is_object()) return parts;
  auto sealed = parsed.find(std::string(kSealedKey));
  if (sealed != parsed.end() && sealed->is_string()) {
    parts.sealed_base64 = sealed->get<std::string>();
  }
  auto versions = parsed.find("channel_versions");
  if (versions != parsed.end()) parts.versions = versions->dump();
  return parts;
}

std::string CheckpointToJson(const Checkpoint& checkpoint) {
  Json versions_seen = Json::object();
  for (const auto& [task, versions] : checkpoint.versions_seen) {
    versions_seen[task] = VersionsToJson(versions);
  }
  Json out = {{"v", checkpoint.v},
              {"id", checkpoint.id},
              {"ts", checkpoint.ts},
              {"channel_values", Json::object()},
              {"channel_versions", VersionsToJson(checkpoint.channel_versions)},
              {"versions_seen", versions_seen},
              {"updated_channels", nullptr}};
  if (checkpoint.updated_channels) {
    out["updated_channels"] = *checkpoint.updated_channels;
  }
  return out.dump();
}

Result<StoredCheckpoint> CheckpointFromJson(std::string_view json,
                                            std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(json, where));
  if (!parsed.is_object()) {
    return Status::Corruption(std::string(where) +
                              ": checkpoint is not a JSON object");
  }
  StoredCheckpoint stored;
  Checkpoint& checkpoint = stored.checkpoint;
  auto field = [&](const char* name) -> const Json* {
    auto found = parsed.find(name);
    return found == parsed.end() || found->is_null() ? nullptr : &*found;
  };
  auto bad = [&](const char* name) {
    return Status::Corruption(std::string(where) + ": checkpoint field \"" +
                              name + "\" has the wrong type");
  };
  if (const Json* v = field("v")) {
    if (!v->is_number_integer()) return bad("v");
    checkpoint.v = v->get<int64_t>();
  }
  if (const Json* id = field("id")) {
    if (!id->is_string()) return bad("id");
    checkpoint.id = id->get<std::string>();
  }
  if (const Json* ts = field("ts")) {
    if (!ts->is_string()) return bad("ts");
    checkpoint.ts = ts->get<std::string>();
  }
  if (const Json* versions = field("channel_versions")) {
    RP_ASSIGN_OR_RETURN(checkpoint.channel_versions,
                        VersionsFromJson(*versions, where));
  }
  if (const Json* seen = field("versions_seen")) {
    if (!seen->is_object()) return bad("versions_seen");
    for (const auto& [task, versions] : seen->items()) {
      RP_ASSIGN_OR_RETURN(checkpoint.versions_seen[task],
                          VersionsFromJson(versions, where));
    }
  }
  if (const Json* updated = field("updated_channels")) {
    if (!updated->is_array()) return bad("updated_channels");
    std::vector<std::string> channels;
    for (const Json& channel : *updated) {
      if (!channel.is_string()) return bad("updated_channels");
      channels.push_back(channel.get<std::string>());
    }
    checkpoint.updated_channels = std::move(channels);
  }
  if (const Json* values = field("channel_values")) {
    if (!values->is_object()) return bad("channel_values");
    for (const auto& [channel, inline_value] : values->items()) {
      RP_ASSIGN_OR_RETURN(Value value, ValueFromJson(inline_value, where));
      stored.inline_values[channel] = TypedValue{std::string(kInlineValueType),
                                                 serde::EncodeMsgpack(value)};
    }
  }
  return stored;
}

std::string ChannelsToJson(const std::vector<std::string>& channels) {
  return Json(channels).dump();
}

Result<std::vector<std::string>> ChannelsFromJson(std::string_view json,
                                                  std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(json, where));
  std::vector<std::string> channels;
  if (!parsed.is_array()) {
    return Status::Corruption(std::string(where) +
                              ": stored_channels is not a JSON array");
  }
  for (const Json& channel : parsed) {
    if (!channel.is_string()) {
      return Status::Corruption(std::string(where) +
                                ": stored_channels holds a non-string");
    }
    channels.push_back(channel.get<std::string>());
  }
  return channels;
}

std::string PendingSendsToJson(const std::vector<TypedValue>& sends) {
  Json out = Json::array();
  for (const TypedValue& send : sends) {
    out.push_back(
        {{"type", send.type}, {"base64", formats::Base64Encode(send.bytes)}});
  }
  return out.dump();
}

Result<std::vector<TypedValue>> PendingSendsFromJson(std::string_view json,
                                                     std::string_view where) {
  RP_ASSIGN_OR_RETURN(Json parsed, ParseJson(json, where));
  auto bad = [&] {
    return Status::Corruption(std::string(where) +
                              ": pending_sends is not an array of "
                              "{\"type\", \"base64\"} objects");
  };
  if (!parsed.is_array()) return bad();
  std::vector<TypedValue> sends;
  for (const Json& send : parsed) {
    if (!send.is_object() || !send.contains("type") ||
        !send.contains("base64") || !send["type"].is_string() ||
        !send["base64"].is_string()) {
      return bad();
    }
    Result<std::string> bytes =
        formats::Base64Decode(send["base64"].get<std::string>());
    if (!bytes.ok()) return bad();
    sends.push_back(
        TypedValue{send["type"].get<std::string>(), std::move(bytes).value()});
  }
  return sends;
}

Status CheckPutTexts(const CheckpointConfig& config,
                     const Checkpoint& checkpoint,
                     const ChannelVersions& new_versions, size_t max_bytes) {
  constexpr size_t kUnbounded = std::numeric_limits<size_t>::max();
  RP_RETURN_IF_ERROR(
      CheckStorableText("config.thread_id", *config.thread_id, max_bytes));
  if (config.checkpoint_ns) {
    RP_RETURN_IF_ERROR(CheckStorableText("config.checkpoint_ns",
                                         *config.checkpoint_ns, max_bytes));
  }
  if (config.checkpoint_id) {
    RP_RETURN_IF_ERROR(CheckStorableText("config.checkpoint_id",
                                         *config.checkpoint_id, max_bytes));
  }
  RP_RETURN_IF_ERROR(
      CheckStorableText("checkpoint.id", checkpoint.id, max_bytes));
  RP_RETURN_IF_ERROR(
      CheckStorableText("checkpoint.ts", checkpoint.ts, kUnbounded));
  for (const auto& [channel, value] : checkpoint.channel_values) {
    RP_RETURN_IF_ERROR(CheckStorableText("checkpoint.channel_values channel",
                                         channel, max_bytes));
    RP_RETURN_IF_ERROR(CheckStorableText("checkpoint.channel_values type",
                                         value.type, kUnbounded));
  }
  RP_RETURN_IF_ERROR(CheckVersions("checkpoint.channel_versions",
                                   checkpoint.channel_versions, max_bytes));
  RP_RETURN_IF_ERROR(CheckVersions("new_versions", new_versions, max_bytes));
  for (const auto& [task, versions] : checkpoint.versions_seen) {
    RP_RETURN_IF_ERROR(
        CheckStorableText("checkpoint.versions_seen task", task, kUnbounded));
    RP_RETURN_IF_ERROR(
        CheckVersions("checkpoint.versions_seen", versions, kUnbounded));
  }
  if (checkpoint.updated_channels) {
    for (const std::string& channel : *checkpoint.updated_channels) {
      RP_RETURN_IF_ERROR(CheckStorableText("checkpoint.updated_channels",
                                           channel, kUnbounded));
    }
  }
  if (checkpoint.pending_sends) {
    for (const TypedValue& send : *checkpoint.pending_sends) {
      RP_RETURN_IF_ERROR(CheckStorableText("checkpoint.pending_sends type",
                                           send.type, kUnbounded));
    }
  }
  return Status::OK();
}

std::string KeyName(std::string_view thread_id, std::string_view checkpoint_ns,
                    std::string_view checkpoint_id) {
  return "(thread_id=\"" + std::string(thread_id) + "\", checkpoint_ns=\"" +
         std::string(checkpoint_ns) + "\", checkpoint_id=\"" +
         std::string(checkpoint_id) + "\")";
}

}  // namespace rockpoint::pg
