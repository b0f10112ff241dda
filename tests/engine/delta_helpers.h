// Builders and readers of delta-channel histories, shared by the contract
// cases (contract_delta.h, contract_delta_safety.h) and the tests that check
// that maintenance, encryption or a crash changes no reading: a delta step,
// a whole delta thread, its history rendered as text, and every reading of
// a thread.
#pragma once

#include <functional>

#include "engine/contract_helpers.h"

namespace rockpoint::testing {

// One step of a delta channel "msgs": version `version`, the full value
// `snapshot` stored if given (else an "empty" version bump), and writes
// to "msgs" by task "k" on the new checkpoint.
inline void PutDeltaStep(Checkpointer& store, const std::string& thread,
                         const std::string& id,
                         std::optional<std::string> parent,
                         ChannelVersion version,
                         std::optional<std::string> snapshot,
                         std::vector<std::string> writes,
                         const std::string& ns = "") {
  std::map<std::string, TypedValue> values;
  if (snapshot) values.emplace("msgs", Val(*snapshot));
  DoPut(store, {.thread = thread,
                .id = id,
                .parent = std::move(parent),
                .values = std::move(values),
                .versions = {{"msgs", std::move(version)}},
                .ns = ns});
  std::vector<ChannelWrite> list;
  for (std::string& text : writes) list.push_back(W("msgs", std::move(text)));
  if (!list.empty()) DoWrites(store, thread, id, list, "k", "", ns);
}

// "S1: cp0001/k#0=w1 cp0002/k#0=w2"; "-" when there is no seed.
inline std::string Describe(const DeltaChannelHistory& history) {
  std::string out = history.seed ? history.seed->bytes : "-";
  out += ":";
  for (const PendingWrite& write : history.writes) {
    out += " " + write.checkpoint_id + "/" + write.task_path +
           (write.task_path.empty() ? "" : "/") + write.task_id + "#" +
           std::to_string(write.idx) + "=" + write.value.bytes;
  }
  return out;
}

inline DeltaHistory History(Checkpointer& store, const CheckpointConfig& config,
                            const std::vector<std::string>& channels) {
  return Unwrap(store.GetDeltaChannelHistory(config, channels));
}

// Describe() of one channel's history at `config`.
inline std::string HistoryOf(Checkpointer& store,
                             const CheckpointConfig& config,
                             const std::string& channel = "msgs") {
  DeltaHistory history = History(store, config, {channel});
  REQUIRE(history.size() == 1);
  REQUIRE(history.count(channel) == 1);
  return Describe(history.at(channel));
}

// A chain cp0000..cp(n-1) in (thread, ns) with a delta channel "msgs" (full
// value every `every` steps, otherwise an "empty" version bump), a plain
// channel "plain" stored each step, writes to both on every checkpoint, and
// metadata run_id "<thread>/run-<i / 3>"; checkpoint i's ts is ts_of(i)
// when given.
inline void PutDeltaThread(
    Checkpointer& store, const std::string& thread, const std::string& ns = "",
    int n = 12, int every = 4,
    const std::function<std::string(int)>& ts_of = nullptr) {
  for (int i = 0; i < n; ++i) {
    std::string step = std::to_string(i);
    std::map<std::string, TypedValue> values{{"plain", Val("p" + step)}};
    if (i % every == 0) values.emplace("msgs", Val("snapshot@" + step));
    std::optional<std::string> parent;
    if (i > 0) parent = CpId(i - 1);
    DoPut(store, {.thread = thread,
                  .id = CpId(i),
                  .parent = parent,
                  .values = values,
                  .versions = {{"msgs", int64_t{i + 1}},
                               {"plain", std::to_string(i + 1)}},
                  .metadata = Meta({{"run_id", Value(thread + "/run-" +
                                                     std::to_string(i / 3))},
                                    {"step", Value(i)}}),
                  .ns = ns,
                  .ts = ts_of ? ts_of(i) : ""});
    DoWrites(store, thread, CpId(i),
             {W("msgs", "m" + step + "a"), W("msgs", "m" + step + "b"),
              W("plain", "pw" + step)},
             "task" + step, "", ns);
    if (i % 2 == 1) {
      DoWrites(store, thread, CpId(i), {W("msgs", "side" + step)}, "side", "p",
               ns);
    }
  }
}

// What one checkpoint reads: its tuple, and its "msgs" value (own value, or
// seed + writes of the delta history).
struct Reading {
  CheckpointTuple tuple;
  std::string msgs;
};
using Readings = std::map<std::pair<std::string, std::string>, Reading>;

// Readings of every visible checkpoint of `thread`, keyed by (ns, id).
inline Readings ReadThread(Checkpointer& store, const std::string& thread) {
  Readings out;
  for (CheckpointTuple& tuple :
       Collect(store, ListOf(Cfg(thread, std::nullopt, std::nullopt)))) {
    std::string msgs;
    auto own = tuple.checkpoint.channel_values.find("msgs");
    if (own != tuple.checkpoint.channel_values.end()) {
      msgs = "value " + own->second.bytes;
    } else {
      msgs = "delta " + HistoryOf(store, tuple.config);
    }
    auto key = std::make_pair(*tuple.config.checkpoint_ns,
                              *tuple.config.checkpoint_id);
    out.emplace(key, Reading{std::move(tuple), std::move(msgs)});
  }
  return out;
}

// REQUIREs that every reading in `after` equals the one in `before` (read
// from thread `before_thread`).
inline void CheckSameReadings(const Readings& before, const Readings& after,
                              const std::string& after_thread) {
  for (const auto& [key, reading] : after) {
    INFO("ns '" << key.first << "' checkpoint " << key.second);
    auto old = before.find(key);
    REQUIRE(old != before.end());
    CHECK(reading.msgs == old->second.msgs);
    CHECK(reading.tuple == InThread(old->second.tuple, after_thread));
  }
}

// "ns/id ..." of the readings, for checking which survived.
inline std::string ReadingKeys(const Readings& readings) {
  std::string out;
  for (const auto& [key, reading] : readings) {
    if (!out.empty()) out += " ";
    out += key.first + "/" + key.second;
  }
  return out;
}

}  // namespace rockpoint::testing
