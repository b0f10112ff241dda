// The export's header and trailer lines (grammar in FORMAT_JSONL.md); the
// lines between them are formats/lines.h's.
#include "formats/export_format.h"

namespace rockpoint::formats {

Json HeaderToJson() {
  Json json = Json::object();
  json["kind"] = "header";
  json["format"] = kExportFormatName;
  json["version"] = kExportFormatVersion;
  return json;
}

Json TrailerToJson(const ExportCounts& counts) {
  Json json = Json::object();
  json["kind"] = "end";
  json["checkpoints"] = counts.checkpoints;
  json["values"] = counts.values;
  json["writes"] = counts.writes;
  return json;
}

Status CheckHeader(const Json& json) {
  LineFields fields(json, "header");
  RP_ASSIGN_OR_RETURN(std::string format, fields.Text("format"));
  if (format != kExportFormatName) {
    return BadField("header.format", "expected \"rockpoint-export\"");
  }
  RP_ASSIGN_OR_RETURN(int64_t version, fields.Int("version"));
  if (version > kExportFormatVersion || version < 1) {
    return BadField("header.version",
                    "export format version " + std::to_string(version) +
                        " is not supported by this build (supports " +
                        std::to_string(kExportFormatVersion) + ")");
  }
  return fields.NoOthers();
}

Result<ExportCounts> TrailerFromJson(const Json& json) {
  LineFields fields(json, "end");
  ExportCounts counts;
  RP_ASSIGN_OR_RETURN(int64_t checkpoints, fields.Int("checkpoints"));
  RP_ASSIGN_OR_RETURN(int64_t values, fields.Int("values"));
  RP_ASSIGN_OR_RETURN(int64_t writes, fields.Int("writes"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  counts.checkpoints = static_cast<uint64_t>(checkpoints);
  counts.values = static_cast<uint64_t>(values);
  counts.writes = static_cast<uint64_t>(writes);
  return counts;
}

}  // namespace rockpoint::formats
