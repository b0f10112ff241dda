// One line <-> one JSON object (grammars in tools/cli/FORMAT_JSONL.md and
// engine/jsonl/FORMAT.md).
#include "formats/lines.h"

#include <cstdint>

#include "formats/json_text.h"
#include "formats/payload_json.h"
#include "formats/value_json.h"

namespace rockpoint::formats {

Status BadField(std::string_view field, std::string_view what) {
  return Status::InvalidArgument(std::string(field) + ": " + std::string(what));
}

Result<const Json*> LineFields::Required(const char* name) {
  seen_.insert(name);
  if (!json_.contains(name)) return BadField(Path(name), "missing");
  return &json_[name];
}

const Json* LineFields::Optional(const char* name) {
  seen_.insert(name);
  return json_.contains(name) ? &json_[name] : nullptr;
}

Result<std::string> LineFields::Text(const char* name) {
  RP_ASSIGN_OR_RETURN(const Json* json, Required(name));
  return TextFromJson(*json, Path(name));
}

Result<int64_t> LineFields::Int(const char* name) {
  RP_ASSIGN_OR_RETURN(const Json* json, Required(name));
  if (!json->is_number_integer() ||
      (json->is_number_unsigned() &&
       json->get<uint64_t>() > uint64_t{INT64_MAX})) {
    return BadField(Path(name), "expected an integer");
  }
  return json->get<int64_t>();
}

Result<std::string> LineFields::Base64(const char* name) {
  RP_ASSIGN_OR_RETURN(const Json* json, Required(name));
  if (!json->is_string()) return BadField(Path(name), "expected base64 text");
  auto bytes = Base64Decode(json->get<std::string>());
  if (!bytes.ok()) return BadField(Path(name), bytes.status().message());
  return std::move(bytes).value();
}

Status LineFields::NoOthers() const {
  for (const auto& [key, unused] : json_.items()) {
    if (key != "kind" && !seen_.contains(key)) {
      return BadField(Path(key), "unknown field");
    }
  }
  return Status::OK();
}

namespace {

Json VersionsToJson(const ChannelVersions& versions) {
  Json pairs = Json::array();
  for (const auto& [channel, version] : versions) {
    pairs.push_back(Json::array({TextToJson(channel), VersionToJson(version)}));
  }
  return pairs;
}

Result<ChannelVersions> VersionsFromJson(const Json& json,
                                         const std::string& field) {
  if (!json.is_array())
    return BadField(field, "expected [[channel, version], ...]");
  ChannelVersions versions;
  for (size_t i = 0; i < json.size(); ++i) {
    const std::string item = field + "[" + std::to_string(i) + "]";
    if (!json[i].is_array() || json[i].size() != 2) {
      return BadField(item, "expected [channel, version]");
    }
    RP_ASSIGN_OR_RETURN(std::string channel, TextFromJson(json[i][0], item));
    RP_ASSIGN_OR_RETURN(ChannelVersion version,
                        VersionFromJson(json[i][1], item));
    if (!versions.emplace(std::move(channel), std::move(version)).second) {
      return BadField(item, "duplicate channel");
    }
  }
  return versions;
}

Json TypedToJson(const TypedValue& value) {
  Json object = Json::object();
  object["type"] = TextToJson(value.type);
  object["b64"] = Base64Encode(value.bytes);
  return object;
}

Result<TypedValue> TypedFromJson(const Json& json, const std::string& field) {
  LineFields fields(json, field);
  if (!json.is_object()) return BadField(field, "expected {type, b64}");
  TypedValue value;
  RP_ASSIGN_OR_RETURN(value.type, fields.Text("type"));
  RP_ASSIGN_OR_RETURN(value.bytes, fields.Base64("b64"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return value;
}

Result<std::set<std::string>> ChannelSetFromJson(const Json& json,
                                                 const std::string& field) {
  if (!json.is_array()) return BadField(field, "expected [channel, ...]");
  RP_ASSIGN_OR_RETURN(std::vector<std::string> texts,
                      TextsFromJson(json, field));
  std::set<std::string> channels;
  for (std::string& channel : texts) {
    if (!channels.insert(std::move(channel)).second) {
      return BadField(field, "duplicate channel");
    }
  }
  return channels;
}

}  // namespace

Json ValueLineToJson(const ValueLine& line, Dialect dialect) {
  Json json = Json::object();
  json["kind"] = "value";
  json["thread"] = TextToJson(line.thread);
  json["ns"] = TextToJson(line.ns);
  json["channel"] = TextToJson(line.channel);
  json["version"] = VersionToJson(line.version);
  if (line.empty) {
    json["empty"] = true;
    return json;
  }
  PayloadToJson(line.value, dialect, json);
  return json;
}

Json CheckpointLineToJson(const CheckpointLine& line) {
  const Checkpoint& checkpoint = line.checkpoint;
  Json json = Json::object();
  json["kind"] = "checkpoint";
  json["thread"] = TextToJson(line.thread);
  json["ns"] = TextToJson(line.ns);
  json["id"] = TextToJson(checkpoint.id);
  if (line.hidden) json["hidden"] = true;
  json["parent"] = line.parent_id ? TextToJson(*line.parent_id) : Json();
  json["v"] = checkpoint.v;
  json["ts"] = TextToJson(checkpoint.ts);
  json["channel_versions"] = VersionsToJson(checkpoint.channel_versions);
  Json seen = Json::array();
  for (const auto& [node, versions] : checkpoint.versions_seen) {
    seen.push_back(Json::array({TextToJson(node), VersionsToJson(versions)}));
  }
  json["versions_seen"] = std::move(seen);
  if (checkpoint.updated_channels) {
    json["updated_channels"] = TextsToJson(*checkpoint.updated_channels);
  }
  if (checkpoint.pending_sends) {
    Json sends = Json::array();
    for (const TypedValue& send : *checkpoint.pending_sends) {
      sends.push_back(TypedToJson(send));
    }
    json["pending_sends"] = std::move(sends);
  }
  if (line.stored) json["stored"] = TextsToJson(*line.stored);
  json["metadata"] = ValueToJson(line.metadata);
  return json;
}

Json WriteLineToJson(const WriteLine& line, Dialect dialect) {
  Json json = Json::object();
  json["kind"] = "write";
  json["thread"] = TextToJson(line.thread);
  json["ns"] = TextToJson(line.ns);
  json["checkpoint"] = TextToJson(line.checkpoint_id);
  json["task_path"] = TextToJson(line.write.task_path);
  json["task_id"] = TextToJson(line.write.task_id);
  json["idx"] = line.write.idx;
  json["channel"] = TextToJson(line.write.channel);
  PayloadToJson(line.write.value, dialect, json);
  return json;
}

Result<ValueLine> ValueLineFromJson(const Json& json, Dialect dialect) {
  LineFields fields(json, "value");
  ValueLine line;
  RP_ASSIGN_OR_RETURN(line.thread, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(line.ns, fields.Text("ns"));
  RP_ASSIGN_OR_RETURN(line.channel, fields.Text("channel"));
  RP_ASSIGN_OR_RETURN(const Json* version, fields.Required("version"));
  RP_ASSIGN_OR_RETURN(line.version,
                      VersionFromJson(*version, fields.Path("version")));
  if (const Json* empty =
          dialect == Dialect::kJournal ? fields.Optional("empty") : nullptr) {
    if (*empty != true) return BadField(fields.Path("empty"), "expected true");
    line.empty = true;
    RP_RETURN_IF_ERROR(fields.NoOthers());
    return line;
  }
  RP_ASSIGN_OR_RETURN(line.value, PayloadFromJson(fields, dialect));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return line;
}

Result<CheckpointLine> CheckpointLineFromJson(const Json& json,
                                              Dialect dialect) {
  LineFields fields(json, "checkpoint");
  CheckpointLine line;
  Checkpoint& checkpoint = line.checkpoint;
  RP_ASSIGN_OR_RETURN(line.thread, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(line.ns, fields.Text("ns"));
  RP_ASSIGN_OR_RETURN(checkpoint.id, fields.Text("id"));
  if (const Json* hidden = fields.Optional("hidden")) {
    if (!hidden->is_boolean()) {
      return BadField(fields.Path("hidden"), "expected true or false");
    }
    line.hidden = hidden->get<bool>();
  }
  RP_ASSIGN_OR_RETURN(const Json* parent, fields.Required("parent"));
  if (!parent->is_null()) {
    RP_ASSIGN_OR_RETURN(line.parent_id,
                        TextFromJson(*parent, fields.Path("parent")));
  }
  RP_ASSIGN_OR_RETURN(checkpoint.v, fields.Int("v"));
  RP_ASSIGN_OR_RETURN(checkpoint.ts, fields.Text("ts"));
  RP_ASSIGN_OR_RETURN(const Json* versions,
                      fields.Required("channel_versions"));
  RP_ASSIGN_OR_RETURN(
      checkpoint.channel_versions,
      VersionsFromJson(*versions, fields.Path("channel_versions")));
  RP_ASSIGN_OR_RETURN(const Json* seen, fields.Required("versions_seen"));
  if (!seen->is_array()) {
    return BadField(fields.Path("versions_seen"),
                    "expected [[node, [...]], ...]");
  }
  for (size_t i = 0; i < seen->size(); ++i) {
    const Json& pair = (*seen)[i];
    const std::string item =
        fields.Path("versions_seen") + "[" + std::to_string(i) + "]";
    if (!pair.is_array() || pair.size() != 2) {
      return BadField(item, "expected [node, versions]");
    }
    RP_ASSIGN_OR_RETURN(std::string node, TextFromJson(pair[0], item));
    RP_ASSIGN_OR_RETURN(ChannelVersions node_versions,
                        VersionsFromJson(pair[1], item));
    if (!checkpoint.versions_seen.emplace(node, std::move(node_versions))
             .second) {
      return BadField(item, "duplicate node");
    }
  }
  if (const Json* updated = fields.Optional("updated_channels")) {
    RP_ASSIGN_OR_RETURN(
        checkpoint.updated_channels,
        TextsFromJson(*updated, fields.Path("updated_channels")));
  }
  if (const Json* sends = fields.Optional("pending_sends")) {
    if (!sends->is_array()) {
      return BadField(fields.Path("pending_sends"), "expected an array");
    }
    checkpoint.pending_sends.emplace();
    for (const Json& send : *sends) {
      RP_ASSIGN_OR_RETURN(TypedValue value,
                          TypedFromJson(send, fields.Path("pending_sends")));
      checkpoint.pending_sends->push_back(std::move(value));
    }
  }
  if (dialect == Dialect::kJournal) {
    RP_ASSIGN_OR_RETURN(const Json* stored, fields.Required("stored"));
    RP_ASSIGN_OR_RETURN(line.stored,
                        ChannelSetFromJson(*stored, fields.Path("stored")));
  }
  RP_ASSIGN_OR_RETURN(const Json* metadata, fields.Required("metadata"));
  RP_ASSIGN_OR_RETURN(line.metadata,
                      ValueFromJson(*metadata, fields.Path("metadata")));
  if (!line.metadata.is_map()) {
    return BadField(fields.Path("metadata"), "must be an object");
  }
  RP_RETURN_IF_ERROR(fields.NoOthers());
  return line;
}

Result<WriteLine> WriteLineFromJson(const Json& json, Dialect dialect) {
  LineFields fields(json, "write");
  WriteLine line;
  RP_ASSIGN_OR_RETURN(line.thread, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(line.ns, fields.Text("ns"));
  RP_ASSIGN_OR_RETURN(line.checkpoint_id, fields.Text("checkpoint"));
  RP_ASSIGN_OR_RETURN(line.write.task_path, fields.Text("task_path"));
  RP_ASSIGN_OR_RETURN(line.write.task_id, fields.Text("task_id"));
  RP_ASSIGN_OR_RETURN(line.write.idx, fields.Int("idx"));
  RP_ASSIGN_OR_RETURN(line.write.channel, fields.Text("channel"));
  RP_ASSIGN_OR_RETURN(line.write.value, PayloadFromJson(fields, dialect));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  line.write.checkpoint_id = line.checkpoint_id;
  return line;
}

}  // namespace rockpoint::formats
