// The item store's export lines (store_export.h).
#include "formats/store_export.h"

#include <bit>
#include <cstring>

#include "formats/value_json.h"

namespace rockpoint::formats {
namespace {

static_assert(std::endian::native == std::endian::little,
              "vectors are exported as little-endian float32");

Json VectorToJson(const FieldVector& field) {
  std::string bytes(field.vector.size() * sizeof(float), '\0');
  if (!bytes.empty()) {
    std::memcpy(bytes.data(), field.vector.data(), bytes.size());
  }
  Json json = Json::object();
  json["field"] = TextToJson(field.field);
  json["f32"] = Base64Encode(bytes);
  return json;
}

Result<FieldVector> VectorFromJson(const Json& json) {
  if (!json.is_object() || !json.contains("field") || !json.contains("f32") ||
      !json["f32"].is_string()) {
    return Status::InvalidArgument(
        "vectors: each entry needs \"field\" and \"f32\" (base64)");
  }
  FieldVector field;
  RP_ASSIGN_OR_RETURN(field.field,
                      TextFromJson(json["field"], "vectors.field"));
  auto bytes = Base64Decode(json["f32"].get<std::string>());
  if (!bytes.ok()) {
    return Status::InvalidArgument("vectors.f32: " + bytes.status().message());
  }
  if (bytes->size() % sizeof(float) != 0) {
    return Status::InvalidArgument(
        "vectors.f32: not a whole number of float32s");
  }
  field.vector.resize(bytes->size() / sizeof(float));
  if (!bytes->empty()) {
    std::memcpy(field.vector.data(), bytes->data(), bytes->size());
  }
  return field;
}

Result<int64_t> IntField(const Json& json, const char* name) {
  if (!json.contains(name) || !json[name].is_number_integer()) {
    return Status::InvalidArgument(std::string(name) +
                                   ": an integer is required");
  }
  return json[name].get<int64_t>();
}

}  // namespace

Json StoreExportHeader() {
  Json header = Json::object();
  header["format"] = std::string(kStoreExportFormat);
  header["version"] = kStoreExportVersion;
  return header;
}

Status CheckStoreExportHeader(const Json& json) {
  if (!json.is_object() || !json.contains("format") ||
      json["format"] != std::string(kStoreExportFormat)) {
    return Status::InvalidArgument(
        "not an item store export: the first line must be "
        "{\"format\":\"rockpoint-store-export\",...}");
  }
  if (!json.contains("version") || !json["version"].is_number_integer() ||
      json["version"].get<int64_t>() != kStoreExportVersion) {
    return Status::InvalidArgument(
        "item store export version " +
        (json.contains("version") ? json["version"].dump() : "missing") +
        " is not one this build reads (" + std::to_string(kStoreExportVersion) +
        ")");
  }
  return Status::OK();
}

Json StoredItemToJson(const StoredItem& item) {
  Json json = Json::object();
  Json ns = Json::array();
  for (const std::string& label : item.ns) ns.push_back(TextToJson(label));
  json["ns"] = std::move(ns);
  json["key"] = TextToJson(item.key);
  json["value"] = ValueToJson(item.value);
  json["created_at_us"] = item.created_at_us;
  json["updated_at_us"] = item.updated_at_us;
  json["expires_at_us"] =
      item.expires_at_us ? Json(*item.expires_at_us) : Json();
  json["ttl_minutes"] = item.ttl_minutes ? Json(*item.ttl_minutes) : Json();
  Json vectors = Json::array();
  for (const FieldVector& field : item.vectors) {
    vectors.push_back(VectorToJson(field));
  }
  json["vectors"] = std::move(vectors);
  return json;
}

Result<StoredItem> StoredItemFromJson(const Json& json) {
  if (!json.is_object()) {
    return Status::InvalidArgument("an item line must be a JSON object");
  }
  for (const char* name : {"ns", "key", "value", "vectors"}) {
    if (!json.contains(name)) {
      return Status::InvalidArgument(std::string(name) + " is missing");
    }
  }
  if (!json["ns"].is_array() || !json["vectors"].is_array()) {
    return Status::InvalidArgument("ns and vectors must be arrays");
  }
  StoredItem item;
  for (const Json& label : json["ns"]) {
    RP_ASSIGN_OR_RETURN(std::string text, TextFromJson(label, "ns"));
    item.ns.push_back(std::move(text));
  }
  RP_ASSIGN_OR_RETURN(item.key, TextFromJson(json["key"], "key"));
  RP_ASSIGN_OR_RETURN(item.value, ValueFromJson(json["value"], "value"));
  RP_ASSIGN_OR_RETURN(item.created_at_us, IntField(json, "created_at_us"));
  RP_ASSIGN_OR_RETURN(item.updated_at_us, IntField(json, "updated_at_us"));
  if (json.contains("expires_at_us") && !json["expires_at_us"].is_null()) {
    RP_ASSIGN_OR_RETURN(int64_t expires, IntField(json, "expires_at_us"));
    item.expires_at_us = expires;
  }
  if (json.contains("ttl_minutes") && !json["ttl_minutes"].is_null()) {
    if (!json["ttl_minutes"].is_number()) {
      return Status::InvalidArgument("ttl_minutes: a number is required");
    }
    item.ttl_minutes = json["ttl_minutes"].get<double>();
  }
  for (const Json& vector : json["vectors"]) {
    RP_ASSIGN_OR_RETURN(FieldVector field, VectorFromJson(vector));
    item.vectors.push_back(std::move(field));
  }
  return item;
}

}  // namespace rockpoint::formats
