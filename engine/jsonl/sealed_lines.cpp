// Sealing and opening the record lines of an encrypted journal
// (sealed_lines.h).
#include "engine/jsonl/sealed_lines.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "engine/jsonl/json_forms.h"
#include "engine/record_names.h"
#include "keys/tuple.h"

namespace rockpoint::jsonl {
namespace {

constexpr const char* kSealedMember = "sealed";

// The members of a record line that stay in the clear: its name's elements
// (and a checkpoint's parent id). Every other member but "kind" is sealed.
bool IsClearMember(std::string_view kind, std::string_view member) {
  static constexpr std::array<std::string_view, 4> kValue = {
      "thread", "ns", "channel", "version"};
  static constexpr std::array<std::string_view, 4> kCheckpoint = {
      "thread", "ns", "id", "parent"};
  static constexpr std::array<std::string_view, 6> kWrite = {
      "thread", "ns", "checkpoint", "task_path", "task_id", "idx"};
  const auto in = [member](const auto& members) {
    return std::find(members.begin(), members.end(), member) != members.end();
  };
  if (kind == "value") return in(kValue);
  if (kind == "checkpoint") return in(kCheckpoint);
  return kind == "write" && in(kWrite);
}

// The record name (record_names.h) of the record line `line` of `kind`,
// from its clear members.
Result<std::string> RecordName(const Json& line, const std::string& kind) {
  LineFields fields(line, kind);
  RP_ASSIGN_OR_RETURN(std::string thread, fields.Text("thread"));
  RP_ASSIGN_OR_RETURN(std::string ns, fields.Text("ns"));
  if (kind == "value") {
    RP_ASSIGN_OR_RETURN(std::string channel, fields.Text("channel"));
    RP_ASSIGN_OR_RETURN(const Json* version_json, fields.Required("version"));
    RP_ASSIGN_OR_RETURN(ChannelVersion version,
                        VersionFromJson(*version_json, fields.Path("version")));
    return record_names::Blob(thread, ns, channel, version);
  }
  if (kind == "checkpoint") {
    RP_ASSIGN_OR_RETURN(std::string id, fields.Text("id"));
    return record_names::Checkpoint(thread, ns, id);
  }
  RP_ASSIGN_OR_RETURN(std::string checkpoint, fields.Text("checkpoint"));
  RP_ASSIGN_OR_RETURN(std::string task_path, fields.Text("task_path"));
  RP_ASSIGN_OR_RETURN(std::string task_id, fields.Text("task_id"));
  RP_ASSIGN_OR_RETURN(int64_t idx, fields.Int("idx"));
  return record_names::Write(thread, ns, checkpoint, task_path, task_id, idx);
}

std::string KindOf(const Json& line) {
  const auto kind = line.find("kind");
  return kind != line.end() && kind->is_string() ? kind->get<std::string>()
                                                 : std::string();
}

Status SealedCorruption(const std::string& kind, const std::string& name,
                        std::string_view why) {
  return Status::Corruption(kind + " at " + keys::Describe(name) + ": " +
                            std::string(why));
}

}  // namespace

bool IsRecordKind(std::string_view kind) {
  return kind == "value" || kind == "checkpoint" || kind == "write";
}

Result<Json> SealLine(Json line, const RecordCipher& cipher) {
  const std::string kind = KindOf(line);
  if (!IsRecordKind(kind)) {
    return Status::InvalidArgument("not a record line: \"" + kind + "\"");
  }
  RP_ASSIGN_OR_RETURN(const std::string name, RecordName(line, kind));
  Json clear = Json::object();
  Json content = Json::object();
  for (auto& [member, value] : line.items()) {
    Json& to =
        member == "kind" || IsClearMember(kind, member) ? clear : content;
    to[member] = std::move(value);
  }
  std::string sealed;
  RP_RETURN_IF_ERROR(cipher.Seal(name, content.dump(), &sealed));
  clear[kSealedMember] = Base64Encode(sealed);
  return clear;
}

Result<Json> OpenLine(const Json& line, const RecordCipher& cipher) {
  const std::string kind = KindOf(line);
  if (!IsRecordKind(kind)) {
    return Status::InvalidArgument("not a record line: \"" + kind + "\"");
  }
  RP_ASSIGN_OR_RETURN(const std::string name, RecordName(line, kind));
  const auto sealed = line.find(kSealedMember);
  if (sealed == line.end()) {
    return SealedCorruption(kind, name,
                            "not sealed (a plaintext record in an encrypted "
                            "journal)");
  }
  Json plain = Json::object();
  for (const auto& [member, value] : line.items()) {
    if (member == kSealedMember) continue;
    if (member != "kind" && !IsClearMember(kind, member)) {
      return SealedCorruption(
          kind, name,
          "member \"" + member + "\" is in the clear in an encrypted journal");
    }
    plain[member] = value;
  }
  Result<std::string> bytes = Status::Corruption("");
  if (sealed->is_string()) bytes = Base64Decode(sealed->get<std::string>());
  if (!bytes.ok()) {
    return SealedCorruption(kind, name, "\"sealed\" is not base64 text");
  }
  std::string text;
  RP_RETURN_IF_ERROR(cipher.Open(name, *bytes, kind, &text));
  RP_RETURN_IF_ERROR(CheckJsonNesting(text));
  Json content = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (content.is_discarded() || !content.is_object()) {
    return SealedCorruption(kind, name, "sealed content is not a JSON object");
  }
  for (auto& [member, value] : content.items()) {
    if (plain.contains(member) || member == kSealedMember) {
      return SealedCorruption(kind, name,
                              "sealed content repeats \"" + member + "\"");
    }
    plain[member] = std::move(value);
  }
  return plain;
}

Json EncryptionToJson(const StoredEncryption& stored) {
  Json json = Json::object();
  json["cipher"] = kJournalCipherName;
  json["store_id"] = Base64Encode(stored.store_id);
  json["key_check"] = Base64Encode(stored.key_check);
  return json;
}

Result<StoredEncryption> EncryptionFromJson(const Json& json,
                                            std::string_view field) {
  if (!json.is_object()) {
    return BadField(field, "expected {cipher, store_id, key_check}");
  }
  LineFields fields(json, field);
  RP_ASSIGN_OR_RETURN(const Json* cipher, fields.Required("cipher"));
  if (*cipher != kJournalCipherName) {
    return BadField(fields.Path("cipher"),
                    "expected \"" + std::string(kJournalCipherName) + "\"");
  }
  StoredEncryption stored;
  RP_ASSIGN_OR_RETURN(stored.store_id, fields.Base64("store_id"));
  RP_ASSIGN_OR_RETURN(stored.key_check, fields.Base64("key_check"));
  RP_RETURN_IF_ERROR(fields.NoOthers());
  if (stored.store_id.size() != kStoreIdBytes) {
    return BadField(fields.Path("store_id"),
                    "expected " + std::to_string(kStoreIdBytes) + " bytes");
  }
  if (stored.key_check.empty()) {
    return BadField(fields.Path("key_check"), "is empty");
  }
  return stored;
}

}  // namespace rockpoint::jsonl
