// Sealing and opening the rows of an encrypted database (pg_sealed.h).
#include "engine/postgres/pg_sealed.h"

#include <utility>

#include "engine/postgres/pg_codec.h"
#include "engine/record_names.h"
#include "formats/json_text.h"
#include "keys/tuple.h"

namespace rockpoint::pg {
namespace {

constexpr char kSeparator = '\0';

Status RecordCorruption(std::string_view what, std::string_view name,
                        std::string_view why) {
  return Status::Corruption(std::string(what) + " at " + keys::Describe(name) +
                            ": " + std::string(why));
}

// "checkpoint at (cp, ...)" for the messages of pg_codec's decoders.
std::string Where(std::string_view name) {
  return "checkpoint at " + keys::Describe(name);
}

}  // namespace

Result<CheckpointColumns> SealCheckpoint(const RecordCipher& cipher,
                                         std::string_view thread,
                                         std::string_view ns,
                                         std::string_view id,
                                         const CheckpointColumns& plain,
                                         const Value* metadata) {
  const std::string name = record_names::Checkpoint(thread, ns, id);
  std::string record = plain.checkpoint;
  record.push_back(kSeparator);
  record.append(plain.metadata);
  record.push_back(kSeparator);
  if (plain.pending_sends) record.append(*plain.pending_sends);
  std::string sealed;
  RP_RETURN_IF_ERROR(cipher.Seal(name, record, &sealed));
  CheckpointColumns stored;
  RP_ASSIGN_OR_RETURN(
      stored.checkpoint,
      SealedCheckpointColumn(plain.checkpoint, formats::Base64Encode(sealed),
                             Where(name)));
  if (metadata != nullptr) {
    stored.metadata = RunIdJson(*metadata);
  } else {
    RP_ASSIGN_OR_RETURN(const Value decoded,
                        MetadataFromJson(plain.metadata, Where(name)));
    stored.metadata = RunIdJson(decoded);
  }
  return stored;
}

Result<CheckpointColumns> OpenCheckpoint(const RecordCipher& cipher,
                                         std::string_view thread,
                                         std::string_view ns,
                                         std::string_view id,
                                         const CheckpointColumns& stored) {
  const std::string name = record_names::Checkpoint(thread, ns, id);
  RP_ASSIGN_OR_RETURN(
      const SealedCheckpointParts parts,
      ReadSealedCheckpointColumn(stored.checkpoint, Where(name)));
  std::string sealed;  // none: Open names a plaintext record.
  if (parts.sealed_base64) {
    Result<std::string> decoded = formats::Base64Decode(*parts.sealed_base64);
    if (!decoded.ok()) {
      return RecordCorruption("checkpoint", name,
                              "the sealed record is not base64");
    }
    sealed = std::move(decoded).value();
  }
  std::string record;
  RP_RETURN_IF_ERROR(cipher.Open(name, sealed, "checkpoint", &record));
  const size_t first = record.find(kSeparator);
  const size_t second = first == std::string::npos
                            ? std::string::npos
                            : record.find(kSeparator, first + 1);
  if (second == std::string::npos) {
    return RecordCorruption("checkpoint", name,
                            "the sealed record has no three parts");
  }
  CheckpointColumns plain;
  plain.checkpoint = record.substr(0, first);
  plain.metadata = record.substr(first + 1, second - first - 1);
  if (second + 1 < record.size())
    plain.pending_sends = record.substr(second + 1);
  RP_ASSIGN_OR_RETURN(const std::optional<std::string> versions,
                      ChannelVersionsOf(plain.checkpoint, Where(name)));
  if (versions != parts.versions) {
    return RecordCorruption("checkpoint", name,
                            "the channel_versions beside the sealed record "
                            "differ from the sealed ones");
  }
  if (stored.pending_sends) {
    return RecordCorruption("checkpoint", name,
                            "rockpoint_checkpoints.pending_sends holds "
                            "plaintext in an encrypted store");
  }
  return plain;
}

Result<std::string> SealValue(const RecordCipher& cipher, std::string_view name,
                              const TypedValue& value) {
  std::string record = value.type;
  record.push_back(kSeparator);
  record.append(value.bytes);
  std::string sealed;
  RP_RETURN_IF_ERROR(cipher.Seal(name, record, &sealed));
  return sealed;
}

Result<TypedValue> OpenValue(const RecordCipher& cipher, std::string_view name,
                             std::string_view blob, std::string_view what) {
  std::string record;
  RP_RETURN_IF_ERROR(cipher.Open(name, blob, what, &record));
  const size_t separator = record.find(kSeparator);
  if (separator == std::string::npos) {
    return RecordCorruption(what, name, "the sealed record has no type");
  }
  return TypedValue{record.substr(0, separator), record.substr(separator + 1)};
}

}  // namespace rockpoint::pg
