#include "engine/record_names.h"

#include <variant>

#include "keys/tuple.h"

namespace rockpoint::record_names {

std::string Checkpoint(std::string_view thread, std::string_view ns,
                       std::string_view checkpoint_id) {
  keys::TupleWriter writer;
  writer.AddString(kCheckpointTag).AddString(thread).AddString(ns);
  writer.AddString(checkpoint_id);
  return writer.Release();
}

std::string Blob(std::string_view thread, std::string_view ns,
                 std::string_view channel,
                 const serde::ChannelVersion& version) {
  keys::TupleWriter writer;
  writer.AddString(kBlobTag).AddString(thread).AddString(ns);
  writer.AddString(channel);
  if (const auto* number = std::get_if<int64_t>(&version)) {
    writer.AddInt(*number);
  } else {
    writer.AddString(std::get<std::string>(version));
  }
  return writer.Release();
}

std::string Write(std::string_view thread, std::string_view ns,
                  std::string_view checkpoint_id, std::string_view task_path,
                  std::string_view task_id, int64_t idx) {
  keys::TupleWriter writer;
  writer.AddString(kWriteTag).AddString(thread).AddString(ns);
  writer.AddString(checkpoint_id).AddString(task_path).AddString(task_id);
  writer.AddInt(idx);
  return writer.Release();
}

}  // namespace rockpoint::record_names
