// Builders and renderings of checkpointer inputs and outputs that need no
// test framework: typed values, checkpoint ids, configs, metadata,
// checkpoints, writes, list options, and one-line renderings of what a store
// returns. The doctest helpers (contract_helpers.h) and the fuzz targets
// (fuzz/) share them.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/types.h"

namespace rockpoint::testing {

// A typed value holding `text` (type tag "json" unless given).
inline TypedValue Val(std::string text, std::string type = "json") {
  return TypedValue{std::move(type), std::move(text)};
}

// Time-sortable checkpoint id: "cp0007" for 7.
inline std::string CpId(int n) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "cp%04d", n);
  return buffer;
}

// A config of (thread, ns) with an optional checkpoint id.
inline CheckpointConfig Cfg(std::string thread,
                            std::optional<std::string> id = std::nullopt,
                            std::optional<std::string> ns = std::string()) {
  return CheckpointConfig{std::move(thread), std::move(ns), std::move(id)};
}

// Metadata map from key/value pairs.
inline Value Meta(
    std::initializer_list<std::pair<const std::string, Value>> entries = {}) {
  return Value(Value::Map(entries.begin(), entries.end()));
}

inline Checkpoint MakeCheckpoint(std::string id,
                                 std::map<std::string, TypedValue> values = {},
                                 ChannelVersions versions = {},
                                 std::string ts = "") {
  Checkpoint checkpoint;
  checkpoint.ts = ts.empty() ? "2024-01-01T00:00:00+00:00 " + id : ts;
  checkpoint.id = std::move(id);
  checkpoint.channel_values = std::move(values);
  checkpoint.channel_versions = std::move(versions);
  return checkpoint;
}

inline ChannelWrite W(std::string channel, std::string text) {
  return ChannelWrite{std::move(channel), Val(std::move(text))};
}

inline ListOptions ListOf(std::optional<CheckpointConfig> config,
                          Value filter = Value::MakeMap(),
                          std::optional<std::string> before = std::nullopt,
                          std::optional<size_t> limit = std::nullopt) {
  ListOptions options;
  options.config = std::move(config);
  options.filter = std::move(filter);
  if (before)
    options.before =
        CheckpointConfig{std::nullopt, std::nullopt, std::move(before)};
  options.limit = limit;
  return options;
}

// "cp0003 cp0002": the checkpoint ids of `tuples`, in order.
inline std::string Ids(const std::vector<CheckpointTuple>& tuples) {
  std::string out;
  for (const CheckpointTuple& tuple : tuples) {
    if (!out.empty()) out += " ";
    out += tuple.config.checkpoint_id.value_or("<none>");
  }
  return out;
}

// "a/cp0003 b:ns/cp0002": thread[:ns]/id of `tuples`, in order.
inline std::string Keys(const std::vector<CheckpointTuple>& tuples) {
  std::string out;
  for (const CheckpointTuple& tuple : tuples) {
    if (!out.empty()) out += " ";
    out += tuple.config.thread_id.value_or("<none>");
    if (!tuple.config.checkpoint_ns.value_or("").empty()) {
      out += ":" + *tuple.config.checkpoint_ns;
    }
    out += "/" + tuple.config.checkpoint_id.value_or("<none>");
  }
  return out;
}

// "a=1 b=2": channel names and value bytes of a checkpoint, sorted.
inline std::string ValuesOf(const Checkpoint& checkpoint) {
  std::string out;
  for (const auto& [channel, value] : checkpoint.channel_values) {
    if (!out.empty()) out += " ";
    out += channel + "=" + value.bytes;
  }
  return out;
}

// "task/path#idx:channel=value ...": writes in order.
inline std::string WritesOf(const std::vector<PendingWrite>& writes) {
  std::string out;
  for (const PendingWrite& write : writes) {
    if (!out.empty()) out += " ";
    out += write.task_path + "/" + write.task_id + "#" +
           std::to_string(write.idx) + ":" + write.channel + "=" +
           write.value.bytes;
  }
  return out;
}

// `tuple` as if it lived in `thread` (for comparing copies).
inline CheckpointTuple InThread(CheckpointTuple tuple,
                                const std::string& thread) {
  tuple.config.thread_id = thread;
  if (tuple.parent_config) tuple.parent_config->thread_id = thread;
  return tuple;
}

}  // namespace rockpoint::testing
