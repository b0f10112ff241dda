// A checkpoint workload whose every field derives from (chain, n), so that a
// process that did not write it (the crash-test parent, a concurrent reader)
// can check what it reads back without being told what was written.
//
// A chain is one writer's sequence of checkpoints n = 1, 2, ... in one
// (thread_id, ns), each the child of n - 1. Checkpoint ids and channel
// versions carry the chain index, so several chains can share a (thread, ns)
// without sharing a (channel, version). Per checkpoint n:
//   counter  int version n*16+index, a value, new in every put;
//   slow     string version "<32-digit base>.<16-digit index>" with base
//            1, 5, 9, ...: new every 4th put, inherited in between;
//   big      from n = 5 on, version (n/5*5)*16+index, a value of ~5 KB,
//            new every 5th put, inherited in between;
//   marker   every 3rd put, version n*16+index, no value ("empty"): named
//            in channel_versions, never in channel_values.
// Writes of checkpoint n (one put_writes call, task "task-<n>"): two
// regular writes (idx 0, 1) and, every 4th, an __interrupt__ write (-3).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/types.h"

namespace rockpoint::testing {

struct Chain {
  int index = 0;  // 0..15, unique among chains sharing a store.
  std::string thread_id;
  std::string ns;
};

inline constexpr std::string_view kChainTaskPath = "~0";

// "<12-digit n>.c<2-digit index>": string order is n order within a chain.
inline std::string ChainCheckpointId(const Chain& chain, int64_t n) {
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%012lld.c%02d",
                static_cast<long long>(n), chain.index);
  return buffer;
}

// (index, n) of an id made by ChainCheckpointId, nullopt for any other id.
inline std::optional<std::pair<int, int64_t>> ParseChainCheckpointId(
    std::string_view id) {
  if (id.size() != 16 || id[12] != '.' || id[13] != 'c') return std::nullopt;
  int64_t n = 0;
  for (char c : id.substr(0, 12)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  int index = 0;
  for (char c : id.substr(14)) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  if (n < 1) return std::nullopt;
  return std::make_pair(index, n);
}

// The config addressing checkpoint n (n = 0: the (thread, ns) only).
inline CheckpointConfig ChainConfig(const Chain& chain, int64_t n) {
  CheckpointConfig config{chain.thread_id, chain.ns, std::nullopt};
  if (n > 0) config.checkpoint_id = ChainCheckpointId(chain, n);
  return config;
}

inline int64_t ChainSlowBase(int64_t n) { return (n - 1) / 4 * 4 + 1; }
inline int64_t ChainBigBase(int64_t n) { return n / 5 * 5; }

inline ChannelVersion ChainIntVersion(const Chain& chain, int64_t base) {
  return base * 16 + chain.index;
}

inline ChannelVersion ChainSlowVersion(const Chain& chain, int64_t base) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%032lld.%016d",
                static_cast<long long>(base), chain.index);
  return std::string(buffer);
}

inline TypedValue ChainCounterValue(const Chain& chain, int64_t n) {
  return {"bytes",
          "counter:" + std::to_string(chain.index) + ":" + std::to_string(n)};
}

inline TypedValue ChainSlowValue(const Chain& chain, int64_t base) {
  return {"json", "\"slow-" + std::to_string(chain.index) + "-" +
                      std::to_string(base) + "\""};
}

inline TypedValue ChainBigValue(const Chain& chain, int64_t base) {
  std::string bytes(5000 + static_cast<size_t>(base % 7), '\0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<char>((i * 31 + static_cast<size_t>(base) * 7 +
                                  static_cast<size_t>(chain.index)) %
                                 251);
  }
  return {"bytes", std::move(bytes)};
}

// Checkpoint n as handed to put; also exactly what reading it back yields.
inline Checkpoint ChainCheckpoint(const Chain& chain, int64_t n) {
  Checkpoint cp;
  cp.id = ChainCheckpointId(chain, n);
  cp.ts = "2024-05-01T00:00:00." + std::to_string(n) + "Z";
  cp.channel_values["counter"] = ChainCounterValue(chain, n);
  cp.channel_versions["counter"] = ChainIntVersion(chain, n);
  int64_t slow = ChainSlowBase(n);
  cp.channel_values["slow"] = ChainSlowValue(chain, slow);
  cp.channel_versions["slow"] = ChainSlowVersion(chain, slow);
  if (int64_t big = ChainBigBase(n); big > 0) {
    cp.channel_values["big"] = ChainBigValue(chain, big);
    cp.channel_versions["big"] = ChainIntVersion(chain, big);
  }
  if (n % 3 == 0) cp.channel_versions["marker"] = ChainIntVersion(chain, n);
  if (n > 1) {
    cp.versions_seen["writer"]["counter"] = ChainIntVersion(chain, n - 1);
  }
  cp.updated_channels = std::vector<std::string>{"counter"};
  return cp;
}

// The new_versions of put n: the channels whose version changes at n.
inline ChannelVersions ChainNewVersions(const Chain& chain, int64_t n) {
  ChannelVersions versions;
  versions["counter"] = ChainIntVersion(chain, n);
  if (ChainSlowBase(n) == n) versions["slow"] = ChainSlowVersion(chain, n);
  if (ChainBigBase(n) == n) versions["big"] = ChainIntVersion(chain, n);
  if (n % 3 == 0) versions["marker"] = ChainIntVersion(chain, n);
  return versions;
}

inline Metadata ChainMetadata(const Chain& chain, int64_t n) {
  Value::Map map;
  map["source"] = Value(n == 1 ? "input" : "loop");
  map["step"] = Value(n - 2);
  map["parents"] = Value::MakeMap();
  map["chain"] = Value(chain.index);
  map["run_id"] = Value("chain-run-" + std::to_string(chain.index));
  return Value(std::move(map));
}

inline std::string ChainTaskId(int64_t n) {
  return "task-" + std::to_string(n);
}

// The writes of put_writes for checkpoint n, in call order.
inline std::vector<ChannelWrite> ChainWrites(const Chain& chain, int64_t n) {
  std::string tag = std::to_string(chain.index) + ":" + std::to_string(n);
  std::vector<ChannelWrite> writes = {
      {"counter", {"bytes", "w0:" + tag}},
      {"log", {"bytes", "w1:" + tag}},
  };
  if (n % 4 == 0) {
    writes.push_back(
        {std::string(kInterruptChannel), {"json", "\"i" + tag + "\""}});
  }
  return writes;
}

// ChainWrites(n) as get_tuple returns them: ordered by (task_path, task_id,
// idx).
inline std::vector<PendingWrite> ChainPendingWrites(const Chain& chain,
                                                    int64_t n) {
  std::vector<ChannelWrite> writes = ChainWrites(chain, n);
  std::vector<PendingWrite> out;
  std::string id = ChainCheckpointId(chain, n);
  std::string task = ChainTaskId(n);
  std::string path(kChainTaskPath);
  if (writes.size() == 3) {
    out.push_back({task, writes[2].channel, writes[2].value, path, -3, id});
  }
  out.push_back({task, writes[0].channel, writes[0].value, path, 0, id});
  out.push_back({task, writes[1].channel, writes[1].value, path, 1, id});
  return out;
}

// "" if `got` is checkpoint n of `chain` with every value and either all of
// its writes or (unless `writes_required`) none; otherwise what differs.
inline std::string CheckChainTuple(const Chain& chain, int64_t n,
                                   const CheckpointTuple& got,
                                   bool writes_required) {
  std::string where =
      "chain " + std::to_string(chain.index) + " n " + std::to_string(n) + ": ";
  if (got.config != ChainConfig(chain, n)) return where + "config differs";
  std::optional<CheckpointConfig> parent;
  if (n > 1) parent = ChainConfig(chain, n - 1);
  if (got.parent_config != parent) return where + "parent_config differs";
  Checkpoint want = ChainCheckpoint(chain, n);
  for (const auto& [channel, value] : want.channel_values) {
    auto it = got.checkpoint.channel_values.find(channel);
    if (it == got.checkpoint.channel_values.end()) {
      return where + "channel value '" + channel + "' is missing";
    }
    if (it->second != value) {
      return where + "channel value '" + channel + "' differs";
    }
  }
  if (got.checkpoint.channel_values.size() != want.channel_values.size()) {
    return where + "unexpected channel values (e.g. the empty marker)";
  }
  if (got.checkpoint.channel_versions != want.channel_versions) {
    return where + "channel_versions differ";
  }
  if (got.checkpoint != want) return where + "checkpoint fields differ";
  if (got.metadata != ChainMetadata(chain, n)) {
    return where + "metadata differs: " + got.metadata.DebugString();
  }
  if (got.pending_writes.empty() && !writes_required) return "";
  if (got.pending_writes != ChainPendingWrites(chain, n)) {
    return where + "pending_writes differ (" +
           std::to_string(got.pending_writes.size()) + " found, " +
           (writes_required ? "all required)" : "all or none allowed)");
  }
  return "";
}

// list_threads as {thread_id: {ns: (checkpoint_count, latest_checkpoint_id)}}.
using ThreadSummary =
    std::map<std::string,
             std::map<std::string, std::pair<uint64_t, std::string>>>;

// Every page of store->ListThreads, summarized.
inline Result<ThreadSummary> SummarizeThreads(Checkpointer* store) {
  ThreadSummary summary;
  ListThreadsOptions options;
  while (true) {
    RP_ASSIGN_OR_RETURN(ThreadPage page, store->ListThreads(options));
    for (const ThreadInfo& thread : page.threads) {
      for (const NamespaceInfo& ns : thread.namespaces) {
        summary[thread.thread_id][ns.checkpoint_ns] = {ns.checkpoint_count,
                                                       ns.latest_checkpoint_id};
      }
    }
    if (!page.next_after) return summary;
    options.after = page.next_after;
  }
}

// For messages: "thread/ns: count latest; ..." (bytes below 0x20 escaped).
inline std::string DescribeThreadSummary(const ThreadSummary& summary) {
  auto printable = [](const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      if (c < 0x20 || c >= 0x7f) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\x%02x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
    }
    return out;
  };
  std::string out;
  for (const auto& [thread, namespaces] : summary) {
    for (const auto& [ns, info] : namespaces) {
      out += printable(thread) + "/" + printable(ns) + ": " +
             std::to_string(info.first) + " " + info.second + "; ";
    }
  }
  return out;
}

}  // namespace rockpoint::testing
