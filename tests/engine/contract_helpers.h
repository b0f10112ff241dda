// Small builders and checks shared by the contract suite (contract_suite.h)
// and the backend tests: typed values, checkpoints, configs, metadata, puts,
// listing into vectors, and a temporary directory for persistent harnesses.
// The builders that need no test framework are in store_builders.h.
//
// Every helper that calls the store REQUIREs success, so a test reads as the
// scenario it checks. Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>

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

#include "engine/store_builders.h"
#include "rockpoint/checkpointer.h"
#include "rockpoint/encryption.h"
#include "rockpoint/types.h"
#include "temp_dir.h"

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
  // The checkpoint's ts; empty: MakeCheckpoint's default.
  std::string ts;
};

// Puts `spec`, REQUIRing success; returns the normalized config.
inline CheckpointConfig DoPut(Checkpointer& store, const PutSpec& spec) {
  Checkpoint checkpoint =
      MakeCheckpoint(spec.id, spec.values, spec.versions, spec.ts);
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

// A key of 32 bytes of `fill`.
inline std::string KeyOf(char fill) {
  return std::string(kEncryptionKeyBytes, fill);
}

// `status` is Corruption whose message holds each of `parts`.
inline void CheckCorruption(const Status& status,
                            const std::vector<std::string>& parts) {
  INFO(status.ToString());
  CHECK(status.IsCorruption());
  for (const std::string& part : parts) {
    CAPTURE(part);
    CHECK(status.message().find(part) != std::string::npos);
  }
}

// Threads "t" and "u", each with cp0001 (value a@1, metadata: owner and
// run_id "run-<thread>", a write of task "task") and cp0002 (value a@2),
// so that records can be swapped between them.
inline void PutTwinThreads(Checkpointer& store) {
  for (const std::string thread : {"t", "u"}) {
    DoPut(store, {.thread = thread,
                  .id = CpId(1),
                  .values = {{"a", Val(thread + "-1")}},
                  .versions = {{"a", int64_t{1}}},
                  .metadata = Meta({{"owner", Value(thread)},
                                    {"run_id", Value("run-" + thread)}})});
    DoWrites(store, thread, CpId(1), {W("a", thread + "-w")}, "task");
    DoPut(store, {.thread = thread,
                  .id = CpId(2),
                  .parent = CpId(1),
                  .values = {{"a", Val(thread + "-2")}},
                  .versions = {{"a", int64_t{2}}}});
  }
}

// What a Harness may declare about its backend's keys (absent: false):
//   static constexpr bool kTextIds = true;
//     identifiers are text keys: valid UTF-8 without NUL, at most
//     kTextIdBytes bytes; a write naming another id is InvalidArgument and
//     writes nothing, a read of one finds nothing (PostgreSQL's TEXT keys).
//   static constexpr bool kWritesKeyedByTask = true;
//     a write's key is (checkpoint, task_id, idx), without task_path, so a
//     regular write of a task under another task_path with an idx already
//     stored is ignored like a repeat (LangGraph's PostgreSQL key).
template <typename H>
constexpr bool kTextIds = requires { requires H::kTextIds; };
template <typename H>
constexpr bool kWritesKeyedByTask =
    requires { requires H::kWritesKeyedByTask; };
// The longest id of a kTextIds backend.
inline constexpr size_t kTextIdBytes = 512;

}  // namespace rockpoint::testing

// First statement of every contract test body: the suite's cases are defined
// at global scope (RP_CONTRACT_CASE defines doctest cases there).
#define RP_CONTRACT_USING      \
  using namespace ::rockpoint; \
  using namespace ::rockpoint::testing
