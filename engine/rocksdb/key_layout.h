// The keys of the RocksDB layout, built with the keys/ tuple codec. Every
// key is a tuple whose first element is a short ASCII tag. The tags, their
// column families, tuple layouts and values are specified in
// engine/rocksdb/FORMAT.md (tests/engine/rocksdb/format_doc_test.cpp checks
// that its tag table lists exactly kAllTags).
//
// A prefix function returns the encoding of a prefix tuple;
// [prefix, keys::TuplePrefixUpperBound(prefix)) holds exactly the keys of
// the tuples that extend it (keys/FORMAT.md "Prefix scans").
//
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/record_names.h"
#include "rockpoint/status.h"
#include "rockpoint/typed_value.h"

namespace rockpoint::rocksdb_layout {

// The record keys are the records' names (engine/record_names.h).
inline constexpr std::string_view kCheckpointTag = record_names::kCheckpointTag;
inline constexpr std::string_view kBlobTag = record_names::kBlobTag;
inline constexpr std::string_view kWriteTag = record_names::kWriteTag;
inline constexpr std::string_view kThreadTag = "th";
inline constexpr std::string_view kRunTag = "run";
inline constexpr std::string_view kTimestampTag = "ts";
inline constexpr std::string_view kHiddenTag = "hd";
inline constexpr std::string_view kHiddenCountTag = "hc";
// Every tag above, in the order of engine/rocksdb/FORMAT.md's tag table.
inline constexpr std::array<std::string_view, 8> kAllTags = {
    kCheckpointTag, kBlobTag,      kWriteTag,  kThreadTag,
    kRunTag,        kTimestampTag, kHiddenTag, kHiddenCountTag};

// ("tag") and ("tag", thread): every key of one kind, of one thread.
std::string TagPrefix(std::string_view tag);
std::string ThreadPrefix(std::string_view tag, std::string_view thread);
// ("tag", thread, ns): the cp, bl, wr, th and hd keys of one namespace.
std::string NamespacePrefix(std::string_view tag, std::string_view thread,
                            std::string_view ns);

std::string CheckpointKey(std::string_view thread, std::string_view ns,
                          std::string_view checkpoint_id);
std::string BlobKey(std::string_view thread, std::string_view ns,
                    std::string_view channel,
                    const serde::ChannelVersion& version);
// ("wr", thread, ns, checkpoint_id): the writes of one checkpoint.
std::string WritePrefix(std::string_view thread, std::string_view ns,
                        std::string_view checkpoint_id);
std::string WriteKey(std::string_view thread, std::string_view ns,
                     std::string_view checkpoint_id, std::string_view task_path,
                     std::string_view task_id, int64_t idx);
std::string ThreadKey(std::string_view thread, std::string_view ns);
std::string RunPrefix(std::string_view run_id);
std::string RunKey(std::string_view run_id, std::string_view thread,
                   std::string_view ns, std::string_view checkpoint_id);
std::string TimestampKey(std::string_view checkpoint_id,
                         std::string_view thread, std::string_view ns);
std::string HiddenKey(std::string_view thread, std::string_view ns,
                      std::string_view checkpoint_id);
// ("hc", thread, ns): the number of hd entries of the namespace, present
// when it is not 0.
std::string HiddenCountKey(std::string_view thread, std::string_view ns);
std::string MetaKey(std::string_view name);
// The names of the meta column family's entries (MetaKey(name)).
inline constexpr std::string_view kFormatVersionMeta = "format_version";
inline constexpr std::string_view kCreatedByMeta = "created_by";
inline constexpr std::string_view kStoreIdMeta = "store_id";
inline constexpr std::string_view kKeyCheckMeta = "key_check";

// Decoded keys. Each Parse* returns Corruption naming the key (rendered with
// keys::Describe) when it is not a well-formed key of that kind.
struct CheckpointKeyParts {
  std::string thread, ns, checkpoint_id;
};
struct BlobKeyParts {
  std::string thread, ns, channel;
  serde::ChannelVersion version;
};
struct WriteKeyParts {
  std::string thread, ns, checkpoint_id, task_path, task_id;
  int64_t idx = 0;
};
struct ThreadKeyParts {
  std::string thread, ns;
};
struct RunKeyParts {
  std::string run_id, thread, ns, checkpoint_id;
};
struct TimestampKeyParts {
  std::string checkpoint_id, thread, ns;
};

Result<CheckpointKeyParts> ParseCheckpointKey(std::string_view key);
// The trailing elements (task_path, task_id, idx) of a write key. Cheaper
// than ParseWriteKey when the caller knows the key's prefix.
// REQUIRES: key starts with WritePrefix(...) of length prefix_length.
struct WriteTaskParts {
  std::string task_path, task_id;
  int64_t idx = 0;
};
Result<WriteTaskParts> ParseWriteKeyTask(std::string_view key,
                                         size_t prefix_length);
Result<BlobKeyParts> ParseBlobKey(std::string_view key);
Result<WriteKeyParts> ParseWriteKey(std::string_view key);
Result<ThreadKeyParts> ParseThreadKey(std::string_view key);
Result<RunKeyParts> ParseRunKey(std::string_view key);
Result<TimestampKeyParts> ParseTimestampKey(std::string_view key);
// Hidden keys have the shape of checkpoint keys, hidden-count keys that of
// thread keys.
Result<CheckpointKeyParts> ParseHiddenKey(std::string_view key);
Result<ThreadKeyParts> ParseHiddenCountKey(std::string_view key);

// The value of a hidden-count entry: the count in decimal ASCII. Decode
// returns Corruption naming `key` for anything but a decimal number >= 1.
std::string EncodeHiddenCount(uint64_t count);
Result<uint64_t> DecodeHiddenCount(std::string_view key,
                                   std::string_view value);

// The byte length of the first `count` elements of an encoded tuple, or
// nullopt if `key` holds fewer whole elements. No allocation; used by the
// prefix extractor.
std::optional<size_t> TuplePrefixLength(std::string_view key, int count);

// `key` (a cp, bl, wr, th or hd key of thread `from`) re-addressed to thread
// `to`. REQUIRES: key starts with ThreadPrefix(tag, from).
std::string WithThread(std::string_view key, std::string_view tag,
                       std::string_view from, std::string_view to);

// "Corruption: <what> at <Describe(key)>: <detail>".
Status CorruptionAt(std::string_view what, std::string_view key,
                    const Status& detail);

}  // namespace rockpoint::rocksdb_layout
