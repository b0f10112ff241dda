#include "engine/rocksdb/key_layout.h"

#include <charconv>
#include <variant>

#include "engine/record_names.h"
#include "keys/tuple.h"

namespace rockpoint::rocksdb_layout {
namespace {

using keys::TupleReader;
using keys::TupleWriter;

TupleWriter Tagged(std::string_view tag) {
  TupleWriter writer;
  writer.AddString(tag);
  return writer;
}

// Reads the tag and checks it; Corruption naming the key otherwise.
Status ExpectTag(TupleReader& reader, std::string_view tag,
                 std::string_view key) {
  std::string found;
  Status status = reader.ReadString(&found);
  if (!status.ok()) return CorruptionAt("key", key, status);
  if (found != tag) {
    return Status::Corruption("key " + keys::Describe(key) +
                              ": expected tag \"" + std::string(tag) + "\"");
  }
  return Status::OK();
}

Status ReadStrings(TupleReader& reader, std::string_view key,
                   std::initializer_list<std::string*> outs) {
  for (std::string* out : outs) {
    Status status = reader.ReadString(out);
    if (!status.ok()) return CorruptionAt("key", key, status);
  }
  return Status::OK();
}

Status ExpectEnd(const TupleReader& reader, std::string_view key) {
  if (reader.done()) return Status::OK();
  return Status::Corruption("key " + keys::Describe(key) +
                            ": trailing bytes after the last element");
}

}  // namespace

std::string TagPrefix(std::string_view tag) { return Tagged(tag).Release(); }

std::string ThreadPrefix(std::string_view tag, std::string_view thread) {
  TupleWriter writer = Tagged(tag);
  writer.AddString(thread);
  return writer.Release();
}

std::string NamespacePrefix(std::string_view tag, std::string_view thread,
                            std::string_view ns) {
  TupleWriter writer = Tagged(tag);
  writer.AddString(thread).AddString(ns);
  return writer.Release();
}

std::string CheckpointKey(std::string_view thread, std::string_view ns,
                          std::string_view checkpoint_id) {
  return record_names::Checkpoint(thread, ns, checkpoint_id);
}

std::string BlobKey(std::string_view thread, std::string_view ns,
                    std::string_view channel,
                    const serde::ChannelVersion& version) {
  return record_names::Blob(thread, ns, channel, version);
}

std::string WritePrefix(std::string_view thread, std::string_view ns,
                        std::string_view checkpoint_id) {
  TupleWriter writer = Tagged(kWriteTag);
  writer.AddString(thread).AddString(ns).AddString(checkpoint_id);
  return writer.Release();
}

std::string WriteKey(std::string_view thread, std::string_view ns,
                     std::string_view checkpoint_id, std::string_view task_path,
                     std::string_view task_id, int64_t idx) {
  return record_names::Write(thread, ns, checkpoint_id, task_path, task_id,
                             idx);
}

std::string ThreadKey(std::string_view thread, std::string_view ns) {
  return NamespacePrefix(kThreadTag, thread, ns);
}

std::string RunPrefix(std::string_view run_id) {
  return ThreadPrefix(kRunTag, run_id);
}

std::string RunKey(std::string_view run_id, std::string_view thread,
                   std::string_view ns, std::string_view checkpoint_id) {
  TupleWriter writer = Tagged(kRunTag);
  writer.AddString(run_id).AddString(thread).AddString(ns).AddString(
      checkpoint_id);
  return writer.Release();
}

std::string TimestampKey(std::string_view checkpoint_id,
                         std::string_view thread, std::string_view ns) {
  TupleWriter writer = Tagged(kTimestampTag);
  writer.AddString(checkpoint_id).AddString(thread).AddString(ns);
  return writer.Release();
}

std::string HiddenKey(std::string_view thread, std::string_view ns,
                      std::string_view checkpoint_id) {
  TupleWriter writer = Tagged(kHiddenTag);
  writer.AddString(thread).AddString(ns).AddString(checkpoint_id);
  return writer.Release();
}

std::string HiddenCountKey(std::string_view thread, std::string_view ns) {
  return NamespacePrefix(kHiddenCountTag, thread, ns);
}

std::string MetaKey(std::string_view name) { return Tagged(name).Release(); }

namespace {

Result<CheckpointKeyParts> ParseThreeIds(std::string_view key,
                                         std::string_view tag) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, tag, key));
  CheckpointKeyParts parts;
  RP_RETURN_IF_ERROR(ReadStrings(
      reader, key, {&parts.thread, &parts.ns, &parts.checkpoint_id}));
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

}  // namespace

Result<CheckpointKeyParts> ParseCheckpointKey(std::string_view key) {
  return ParseThreeIds(key, kCheckpointTag);
}

Result<CheckpointKeyParts> ParseHiddenKey(std::string_view key) {
  return ParseThreeIds(key, kHiddenTag);
}

Result<BlobKeyParts> ParseBlobKey(std::string_view key) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, kBlobTag, key));
  BlobKeyParts parts;
  RP_RETURN_IF_ERROR(
      ReadStrings(reader, key, {&parts.thread, &parts.ns, &parts.channel}));
  if (reader.done()) {
    return Status::Corruption("key " + keys::Describe(key) +
                              ": missing the version element");
  }
  if (reader.PeekTypeCode() == static_cast<uint8_t>(keys::TypeCode::kString)) {
    std::string text;
    RP_RETURN_IF_ERROR(ReadStrings(reader, key, {&text}));
    parts.version = std::move(text);
  } else {
    int64_t number = 0;
    Status status = reader.ReadInt(&number);
    if (!status.ok()) return CorruptionAt("key", key, status);
    parts.version = number;
  }
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

Result<WriteKeyParts> ParseWriteKey(std::string_view key) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, kWriteTag, key));
  WriteKeyParts parts;
  RP_RETURN_IF_ERROR(
      ReadStrings(reader, key,
                  {&parts.thread, &parts.ns, &parts.checkpoint_id,
                   &parts.task_path, &parts.task_id}));
  Status status = reader.ReadInt(&parts.idx);
  if (!status.ok()) return CorruptionAt("key", key, status);
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

Result<WriteTaskParts> ParseWriteKeyTask(std::string_view key,
                                         size_t prefix_length) {
  TupleReader reader(key.substr(prefix_length));
  WriteTaskParts parts;
  RP_RETURN_IF_ERROR(
      ReadStrings(reader, key, {&parts.task_path, &parts.task_id}));
  Status status = reader.ReadInt(&parts.idx);
  if (!status.ok()) return CorruptionAt("key", key, status);
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

namespace {

Result<ThreadKeyParts> ParseTwoIds(std::string_view key, std::string_view tag) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, tag, key));
  ThreadKeyParts parts;
  RP_RETURN_IF_ERROR(ReadStrings(reader, key, {&parts.thread, &parts.ns}));
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

}  // namespace

Result<ThreadKeyParts> ParseThreadKey(std::string_view key) {
  return ParseTwoIds(key, kThreadTag);
}

Result<ThreadKeyParts> ParseHiddenCountKey(std::string_view key) {
  return ParseTwoIds(key, kHiddenCountTag);
}

std::string EncodeHiddenCount(uint64_t count) { return std::to_string(count); }

Result<uint64_t> DecodeHiddenCount(std::string_view key,
                                   std::string_view value) {
  uint64_t count = 0;
  const char* end = value.data() + value.size();
  const auto [stop, error] = std::from_chars(value.data(), end, count);
  const bool canonical = !value.empty() && value[0] != '0';
  if (error != std::errc() || stop != end || !canonical) {
    return Status::Corruption("hidden count at " + keys::Describe(key) +
                              " is not a decimal number >= 1 (" +
                              std::to_string(value.size()) + " bytes)");
  }
  return count;
}

Result<RunKeyParts> ParseRunKey(std::string_view key) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, kRunTag, key));
  RunKeyParts parts;
  RP_RETURN_IF_ERROR(ReadStrings(
      reader, key,
      {&parts.run_id, &parts.thread, &parts.ns, &parts.checkpoint_id}));
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

Result<TimestampKeyParts> ParseTimestampKey(std::string_view key) {
  TupleReader reader(key);
  RP_RETURN_IF_ERROR(ExpectTag(reader, kTimestampTag, key));
  TimestampKeyParts parts;
  RP_RETURN_IF_ERROR(ReadStrings(
      reader, key, {&parts.checkpoint_id, &parts.thread, &parts.ns}));
  RP_RETURN_IF_ERROR(ExpectEnd(reader, key));
  return parts;
}

std::optional<size_t> TuplePrefixLength(std::string_view key, int count) {
  size_t pos = 0;
  for (int element = 0; element < count; ++element) {
    if (pos >= key.size()) return std::nullopt;
    const auto code = static_cast<uint8_t>(key[pos++]);
    if (code == static_cast<uint8_t>(keys::TypeCode::kNull)) continue;
    if (code == static_cast<uint8_t>(keys::TypeCode::kBytes) ||
        code == static_cast<uint8_t>(keys::TypeCode::kString)) {
      // Escaped bytes: 0x00 0xFF is a NUL, a lone 0x00 terminates.
      while (true) {
        const size_t zero = key.find('\0', pos);
        if (zero == std::string_view::npos) return std::nullopt;
        pos = zero + 1;
        if (pos < key.size() && static_cast<uint8_t>(key[pos]) == 0xFF) {
          ++pos;
          continue;
        }
        break;
      }
      continue;
    }
    const int zero = static_cast<int>(keys::TypeCode::kIntZero);
    const int length = code >= zero ? code - zero : zero - code;
    if (length > 8) return std::nullopt;
    if (pos + length > key.size()) return std::nullopt;
    pos += length;
  }
  return pos;
}

std::string WithThread(std::string_view key, std::string_view tag,
                       std::string_view from, std::string_view to) {
  const size_t old_prefix = ThreadPrefix(tag, from).size();
  std::string result = ThreadPrefix(tag, to);
  result.append(key.substr(old_prefix));
  return result;
}

Status CorruptionAt(std::string_view what, std::string_view key,
                    const Status& detail) {
  return Status::Corruption(std::string(what) + " at " + keys::Describe(key) +
                            ": " + detail.message());
}

}  // namespace rockpoint::rocksdb_layout
