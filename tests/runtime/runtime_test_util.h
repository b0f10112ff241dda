// Shared pieces of the runtime tests: the storage harnesses every scenario
// runs on (memory and RocksDB), a recording / fault-injecting Checkpointer
// wrapper, and small helpers to read a thread's history.
//
// Thread-safety: RecordingCheckpointer may be called from many threads (the
// runtime's storage pool); the rest is test code for one thread.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"
#include "rockpoint/forwarding_checkpointer.h"
#include "rockpoint/memory_checkpointer.h"
#include "rockpoint/runtime/runtime.h"

namespace rockpoint::testing {

using runtime::ChannelSpec;
using runtime::CompiledGraph;
using runtime::NodeContext;
using runtime::NodeUpdate;
using runtime::RunConfig;
using runtime::State;
using runtime::StateGraph;

// REQUIREs `result` ok and returns its value.
template <typename T>
T Must(Result<T> result) {
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  return std::move(result).value();
}

#define RT_REQUIRE_OK(expr)                                  \
  do {                                                       \
    ::rockpoint::Status rt_status_ = (expr);                 \
    REQUIRE_MESSAGE(rt_status_.ok(), rt_status_.ToString()); \
  } while (0)

struct MemoryHarness {
  static constexpr const char* kName = "memory";
  Checkpointer& store() { return store_; }

 private:
  MemoryCheckpointer store_;
};

// A RocksDB store in a fresh temporary directory (removed afterwards).
// Without fsync: the runtime tests check semantics, not durability.
struct RocksHarness {
  static constexpr const char* kName = "rocksdb";
  RocksHarness() {
    std::string pattern = "/tmp/rockpoint-runtime-XXXXXX";
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir_ = pattern;
    RocksDbOptions options;
    options.path = dir_ + "/store";
    options.sync_writes = false;
    store_ = Must(RocksDbCheckpointer::Open(options));
  }
  ~RocksHarness() {
    store_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  Checkpointer& store() { return *store_; }

 private:
  std::string dir_;
  std::unique_ptr<RocksDbCheckpointer> store_;
};

#define RUNTIME_HARNESSES \
  ::rockpoint::testing::MemoryHarness, ::rockpoint::testing::RocksHarness

// Every checkpoint of (thread, ns), newest first.
inline std::vector<CheckpointTuple> History(Checkpointer& store,
                                            const std::string& thread,
                                            const std::string& ns = "") {
  ListOptions options;
  options.config = CheckpointConfig{thread, ns, std::nullopt};
  return Must(store.ListAll(options));
}

inline std::string MetaString(const CheckpointTuple& tuple,
                              std::string_view key) {
  const Value* value = tuple.metadata.Find(key);
  return value != nullptr && value->is_string() ? value->as_string() : "";
}

inline int64_t MetaStep(const CheckpointTuple& tuple) {
  const Value* value = tuple.metadata.Find("step");
  REQUIRE(value != nullptr);
  REQUIRE(value->is_int());
  return value->as_int();
}

inline RunConfig Thread(std::string thread) {
  RunConfig config;
  config.thread_id = std::move(thread);
  return config;
}

// The config that runs `thread` from its checkpoint `checkpoint_id`.
inline RunConfig At(const std::string& thread,
                    const std::string& checkpoint_id) {
  RunConfig config = Thread(thread);
  config.checkpoint_id = checkpoint_id;
  return config;
}

// An array of strings, as a log channel holds them.
inline serde::Value Log(std::initializer_list<const char*> items) {
  serde::Value::Array out;
  for (const char* item : items) out.push_back(serde::Value(item));
  return serde::Value(out);
}

// Counts calls per node, safely from the task pool.
class CallCounter {
 public:
  void Hit(const std::string& node) {
    std::lock_guard<std::mutex> lock(mu_);
    ++counts_[node];
  }
  int Count(const std::string& node) {
    std::lock_guard<std::mutex> lock(mu_);
    return counts_[node];
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> counts_;
};

// A node that records its call and appends `text` to the "log" channel.
inline runtime::NodeFn Append(std::string text, CallCounter* counter,
                              std::string name) {
  return [text, counter, name](const State&, NodeContext&) -> NodeUpdate {
    if (counter != nullptr) counter->Hit(name);
    return State{{"log", Value(Value::Array{Value(text)})}};
  };
}

// Wraps a Checkpointer: records the order of calls ("put <id>",
// "writes <checkpoint> <task>"), optionally sleeps in each write call, and
// can fail the n-th write call with IOError.
class RecordingCheckpointer final : public ForwardingCheckpointer {
 public:
  // REQUIRES: base outlives the recorder.
  explicit RecordingCheckpointer(Checkpointer* base)
      : ForwardingCheckpointer(base) {}

  void set_delay(std::chrono::microseconds delay) { delay_ = delay; }
  // Write calls (put or put_writes) numbered from 1; 0 disables.
  void fail_write_call(int n) { fail_at_ = n; }
  std::vector<std::string> calls() {
    base::MutexLock lock(&mu_);
    return calls_;
  }
  int in_flight_max() const { return in_flight_max_.load(); }

 private:
  Result<CheckpointConfig> DoPut(const CheckpointConfig& config,
                                 const Checkpoint& checkpoint,
                                 const Metadata& metadata,
                                 const ChannelVersions& new_versions) override {
    Scope scope(this);
    if (Status failed = Record("put " + checkpoint.id); !failed.ok()) {
      return failed;
    }
    return ForwardingCheckpointer::DoPut(config, checkpoint, metadata,
                                         new_versions);
  }
  Status DoPutWrites(const CheckpointConfig& config,
                     const std::vector<ChannelWrite>& writes,
                     std::string_view task_id,
                     std::string_view task_path) override {
    Scope scope(this);
    RP_RETURN_IF_ERROR(Record("writes " + config.checkpoint_id.value_or("") +
                              " " + std::string(task_id)));
    return ForwardingCheckpointer::DoPutWrites(config, writes, task_id,
                                               task_path);
  }

  struct Scope {
    explicit Scope(RecordingCheckpointer* owner) : owner_(owner) {
      int now = ++owner_->in_flight_;
      int seen = owner_->in_flight_max_.load();
      while (now > seen &&
             !owner_->in_flight_max_.compare_exchange_weak(seen, now)) {
      }
    }
    ~Scope() { --owner_->in_flight_; }
    RecordingCheckpointer* owner_;
  };

  Status Record(std::string call) {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    base::MutexLock lock(&mu_);
    calls_.push_back(std::move(call));
    if (fail_at_ > 0 && static_cast<int>(calls_.size()) == fail_at_) {
      return Status::IOError("injected failure of write call " +
                             std::to_string(fail_at_));
    }
    return Status::OK();
  }

  std::chrono::microseconds delay_{0};
  int fail_at_ = 0;
  base::Mutex mu_;
  std::vector<std::string> calls_ GUARDED_BY(mu_);
  std::atomic<int> in_flight_{0};
  std::atomic<int> in_flight_max_{0};
};

}  // namespace rockpoint::testing
