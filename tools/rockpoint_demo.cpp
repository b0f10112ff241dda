// rockpoint-demo: writes a short conversation thread into an embedded
// RocksDB store (sync writes), reopens the store, and prints the thread's
// history and the latest state read back from disk.
//
// Usage: rockpoint-demo [STORE_DIR]   (default: ./demo.rpdb, recreated)
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "serde/msgpack_codec.h"

namespace rp = rockpoint;

namespace {

rp::TypedValue Encode(const rp::serde::Value& value) {
  return {std::string(rp::serde::kMsgpackType),
          rp::serde::EncodeMsgpack(value)};
}

std::string Decode(const rp::TypedValue& typed) {
  auto value = rp::serde::DecodeMsgpack(typed.bytes);
  return value.ok() ? value->DebugString() : value.status().ToString();
}

int Fail(const rp::Status& status) {
  std::fprintf(stderr, "rockpoint-demo: %s\n", status.ToString().c_str());
  return 1;
}

// Writes `turns` checkpoints on one thread; each adds a message.
rp::Status WriteConversation(rp::Checkpointer& store, const std::string& thread,
                             int turns) {
  rp::serde::Value::Array messages;
  std::optional<std::string> parent;
  for (int step = -1; step < turns - 1; ++step) {
    messages.push_back(rp::serde::Value("message " + std::to_string(step + 1)));
    rp::Checkpoint checkpoint;
    char id[32];
    std::snprintf(id, sizeof(id), "demo-%06d", step + 1);
    checkpoint.id = id;
    checkpoint.ts = "2026-11-22T00:00:" + std::to_string(10 + step) + "Z";
    checkpoint.channel_values["messages"] = Encode(rp::serde::Value(messages));
    checkpoint.channel_versions["messages"] = int64_t{step + 2};
    rp::serde::Value::Map metadata{
        {"source", rp::serde::Value(step < 0 ? "input" : "loop")},
        {"step", rp::serde::Value(int64_t{step})}};
    rp::CheckpointConfig config{thread, "", parent};
    auto stored = store.Put(config, checkpoint, rp::serde::Value(metadata),
                            {{"messages", int64_t{step + 2}}});
    if (!stored.ok()) return stored.status();
    RP_RETURN_IF_ERROR(store.PutWrites(
        *stored, {{"messages", Encode(rp::serde::Value("reply"))}}, "task-1"));
    parent = checkpoint.id;
  }
  return rp::Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "demo.rpdb";
  std::filesystem::remove_all(path);
  rp::RocksDbOptions options;
  options.path = path;
  {
    auto store = rp::RocksDbCheckpointer::Open(options);
    if (!store.ok()) return Fail(store.status());
    if (auto s = WriteConversation(**store, "demo-thread", 5); !s.ok()) {
      return Fail(s);
    }
  }  // closed: everything below is read back from disk.
  auto store = rp::RocksDbCheckpointer::Open(options);
  if (!store.ok()) return Fail(store.status());
  std::printf("store: %s\n\nhistory of demo-thread (newest first):\n",
              path.c_str());
  rp::ListOptions list;
  list.config = rp::CheckpointConfig{"demo-thread", std::nullopt, std::nullopt};
  auto history = (*store)->ListAll(list);
  if (!history.ok()) return Fail(history.status());
  for (const auto& tuple : *history) {
    std::printf(
        "  %s  parent=%-12s metadata=%s writes=%zu\n",
        tuple.config.checkpoint_id->c_str(),
        tuple.parent_config ? tuple.parent_config->checkpoint_id->c_str() : "-",
        tuple.metadata.DebugString().c_str(), tuple.pending_writes.size());
  }
  auto latest = (*store)->GetTuple({"demo-thread", std::nullopt, std::nullopt});
  if (!latest.ok()) return Fail(latest.status());
  if (!latest->has_value()) return Fail(rp::Status::NotFound("no checkpoint"));
  std::printf("\nlatest state (%s):\n",
              (*latest)->config.checkpoint_id->c_str());
  for (const auto& [channel, value] : (*latest)->checkpoint.channel_values) {
    std::printf("  %s = %s\n", channel.c_str(), Decode(value).c_str());
  }
  return 0;
}
