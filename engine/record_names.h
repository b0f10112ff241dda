// The name of every stored record: a tuple (keys/FORMAT.md) of a short tag
// and the identifiers that locate the record. RocksDB stores each record
// under its name (engine/rocksdb/FORMAT.md); every backend seals a record
// of an encrypted store under it (docs/ENCRYPTION.md), so a record moved to
// any other place no longer authenticates.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rockpoint/typed_value.h"

namespace rockpoint::record_names {

inline constexpr std::string_view kCheckpointTag = "cp";
inline constexpr std::string_view kBlobTag = "bl";
inline constexpr std::string_view kWriteTag = "wr";

// ("cp", thread, ns, checkpoint_id)
std::string Checkpoint(std::string_view thread, std::string_view ns,
                       std::string_view checkpoint_id);
// ("bl", thread, ns, channel, version): an int version is an integer
// element, a string version a text element.
std::string Blob(std::string_view thread, std::string_view ns,
                 std::string_view channel,
                 const serde::ChannelVersion& version);
// ("wr", thread, ns, checkpoint_id, task_path, task_id, idx)
std::string Write(std::string_view thread, std::string_view ns,
                  std::string_view checkpoint_id, std::string_view task_path,
                  std::string_view task_id, int64_t idx);

}  // namespace rockpoint::record_names
