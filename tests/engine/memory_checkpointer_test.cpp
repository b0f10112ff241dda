// MemoryCheckpointer: the contract suite, plus what only the memory backend
// shows (its limits, concurrent use).
#include "rockpoint/memory_checkpointer.h"

#include <doctest/doctest.h>

#include <thread>

#include "engine/contract_suite.h"

namespace {

struct MemoryHarness {
  static constexpr const char* kName = "memory";
  rockpoint::Checkpointer& store() { return store_; }
  void Reopen() {}

 private:
  rockpoint::MemoryCheckpointer store_;
};

}  // namespace

ROCKPOINT_CONTRACT_SUITE(MemoryHarness);

namespace rockpoint {
namespace {

using testing::CpId;
using testing::DoPut;
using testing::Val;

TEST_CASE("memory: limits reject oversize input and write nothing") {
  CheckpointerLimits limits;
  limits.max_value_bytes = 100;
  limits.max_id_bytes = 8;
  MemoryCheckpointer store(limits);
  Checkpoint checkpoint = testing::MakeCheckpoint(
      CpId(1), {{"x", Val(std::string(300, 'v'))}}, {{"x", int64_t{1}}});
  Status status = store
                      .Put(testing::Cfg("t", std::nullopt), checkpoint,
                           testing::Meta(), checkpoint.channel_versions)
                      .status();
  CHECK(status ==
        Status::InvalidArgument("value of channel 'x' is 300 bytes, over the "
                                "limit of 100 "
                                "(CheckpointerLimits::max_value_bytes)"));
  CHECK(store
            .Put(testing::Cfg("a-long-thread-id", std::nullopt),
                 testing::MakeCheckpoint(CpId(1)), testing::Meta(), {})
            .status()
            .IsInvalidArgument());
  DoPut(store, {.thread = "t", .id = CpId(2)});
  CHECK(store
            .PutWrites(testing::Cfg("t", CpId(2)),
                       {ChannelWrite{"x", Val(std::string(101, 'w'))}}, "k")
            .IsInvalidArgument());
  CHECK(testing::Keys(testing::Collect(store, {})) == "t/cp0002");
  CHECK(testing::MustGet(store, testing::Cfg("t")).pending_writes.empty());
}

TEST_CASE("memory: list_threads rejects limit 0") {
  MemoryCheckpointer store;
  CHECK(store.ListThreads({std::nullopt, 0}).status().IsInvalidArgument());
}

TEST_CASE("memory: concurrent writers on many threads all land") {
  MemoryCheckpointer store;
  constexpr int kWriters = 4;
  constexpr int kSteps = 50;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&store, w] {
      std::string thread = "thread-" + std::to_string(w);
      std::optional<std::string> parent;
      for (int i = 0; i < kSteps; ++i) {
        Checkpoint checkpoint = testing::MakeCheckpoint(
            CpId(i), {{"c", Val(std::to_string(i))}}, {{"c", int64_t{i + 1}}});
        auto put = store.Put(CheckpointConfig{thread, "", parent}, checkpoint,
                             testing::Meta(), checkpoint.channel_versions);
        if (!put.ok()) return;
        if (!store.PutWrites(*put, {ChannelWrite{"c", Val("w")}}, "k").ok()) {
          return;
        }
        parent = checkpoint.id;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  ThreadPage page = testing::Unwrap(store.ListThreads({}));
  REQUIRE(page.threads.size() == kWriters);
  for (const ThreadInfo& info : page.threads) {
    REQUIRE(info.namespaces.size() == 1);
    CHECK(info.namespaces[0].checkpoint_count == kSteps);
    CHECK(info.namespaces[0].latest_checkpoint_id == CpId(kSteps - 1));
  }
  CHECK(testing::Collect(store, {}).size() == kWriters * kSteps);
}

}  // namespace
}  // namespace rockpoint
