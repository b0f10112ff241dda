// Small builders and checks shared by the contract suite (contract_suite.h)
// and the backend tests: typed values, checkpoints, configs, metadata, puts,
// listing into vectors, and a temporary directory for persistent harnesses.
//
// Every helper that calls the store REQUIREs success, so a test reads as the
// scenario it checks. Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rockpoint/checkpointer.h"
#include "rockpoint/types.h"

namespace rockpoint::serde {
inline std::ostream& operator<<(std::ostream& out, const TypedValue& value) {
  return out << value.type << ":" << value.bytes;
}
}  // namespace rockpoint::serde

namespace rockpoint {
inline std::ostream& operator<<(std::ostream& out,
                                const CheckpointConfig& config) {
  return out << "{thread_id=" << config.thread_id.value_or("<none>")
             << ", ns=" << config.checkpoint_ns.value_or("<none>")
             << ", id=" << config.checkpoint_id.value_or("<none>") << "}";
}
inline std::ostream& operator<<(std::ostream& out, const PendingWrite& write) {
  return out << "{" << write.checkpoint_id << " " << write.task_path << "/"
             << write.task_id << "#" << write.idx << " " << write.channel << "="
             << write.value << "}";
}
}  // namespace rockpoint

// REQUIREs that a Status is ok, printing it otherwise.
#define RP_REQUIRE_OK(expr)                                            \
  do {                                                                 \
    ::rockpoint::Status rp_test_status_ = (expr);                      \
    REQUIRE_MESSAGE(rp_test_status_.ok(), rp_test_status_.ToString()); \
  } while (0)

// PutSpec is meant to be built with designated initializers that name only
// what a test cares about.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace rockpoint::testing {

// The value of a Result, REQUIRing that it is ok.
template <typename T>
T Unwrap(Result<T> result) {
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  return std::move(result).value();
}

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

// Everything one put needs; unset parts are empty.
struct PutSpec {
  std::string thread;
  std::string id;
  std::optional<std::string> parent;
  std::map<std::string, TypedValue> values;
  ChannelVersions versions;
  // Channels stored by this put; nullopt: every channel of `versions`.
  std::optional<ChannelVersions> new_versions;
  Value metadata = Value::MakeMap();
  std::string ns;
};

// Puts `spec`, REQUIRing success; returns the normalized config.
inline CheckpointConfig DoPut(Checkpointer& store, const PutSpec& spec) {
  Checkpoint checkpoint = MakeCheckpoint(spec.id, spec.values, spec.versions);
  return Unwrap(store.Put(CheckpointConfig{spec.thread, spec.ns, spec.parent},
                          checkpoint, spec.metadata,
                          spec.new_versions.value_or(spec.versions)));
}

// Puts writes of `task_id` on (thread, ns, id), REQUIRing success.
inline void DoWrites(Checkpointer& store, const std::string& thread,
                     const std::string& id, std::vector<ChannelWrite> writes,
                     std::string task_id, std::string task_path = "",
                     std::string ns = "") {
  RP_REQUIRE_OK(
      store.PutWrites(Cfg(thread, id, ns), writes, task_id, task_path));
}

inline ChannelWrite W(std::string channel, std::string text) {
  return ChannelWrite{std::move(channel), Val(std::move(text))};
}

// get_tuple, REQUIRing success (the optional may be empty).
inline std::optional<CheckpointTuple> Get(Checkpointer& store,
                                          const CheckpointConfig& config) {
  return Unwrap(store.GetTuple(config));
}

// get_tuple, REQUIRing a tuple.
inline CheckpointTuple MustGet(Checkpointer& store,
                               const CheckpointConfig& config) {
  std::optional<CheckpointTuple> tuple = Get(store, config);
  REQUIRE_MESSAGE(tuple.has_value(), "no checkpoint for config");
  return std::move(*tuple);
}

// Every tuple of list(options), collected through the cursor.
inline std::vector<CheckpointTuple> Collect(Checkpointer& store,
                                            const ListOptions& options) {
  std::unique_ptr<TupleCursor> cursor = Unwrap(store.List(options));
  std::vector<CheckpointTuple> tuples;
  while (true) {
    std::optional<CheckpointTuple> next = Unwrap(cursor->Next());
    if (!next) break;
    tuples.push_back(std::move(*next));
  }
  return tuples;
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

// A fresh directory under /tmp, removed recursively on destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern = "/tmp/rockpoint-test-XXXXXX";
    REQUIRE_MESSAGE(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // A path inside the directory.
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace rockpoint::testing

// First statement of every contract test body: the suite's cases are defined
// at global scope (TEST_CASE_TEMPLATE_INVOKE needs their ids there).
#define RP_CONTRACT_USING      \
  using namespace ::rockpoint; \
  using namespace ::rockpoint::testing
