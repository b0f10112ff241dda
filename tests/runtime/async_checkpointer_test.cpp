// AsyncCheckpointer: calls run on the storage pool (never on the awaiting
// executor), results and errors come back as values, exceptions thrown by a
// storage call become IOError, and awaiting keeps an io_context alive.
#include "rockpoint/runtime/async_checkpointer.h"

#include <doctest/doctest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <stdexcept>
#include <thread>

#include "rockpoint/memory_checkpointer.h"

namespace asio = boost::asio;
using namespace rockpoint;
using namespace rockpoint::runtime;

namespace {

// Coroutine bodies below keep every argument of an awaited call in a named
// variable: g++ 12 destroys lambda and aggregate temporaries of a co_await
// full-expression twice.

// Runs `coro` to completion on a fresh io_context driven by this thread;
// REQUIREs that it did not throw.
template <typename Coro>
void RunOnIoContext(Coro coro) {
  asio::io_context io;
  bool finished = false;
  asio::co_spawn(io, std::move(coro), [&](std::exception_ptr error) {
    REQUIRE_FALSE(error);
    finished = true;
  });
  io.run();
  REQUIRE(finished);
}

Checkpoint MakeCheckpoint(std::string id) {
  Checkpoint checkpoint;
  checkpoint.id = std::move(id);
  checkpoint.ts = "2024-01-01T00:00:00Z";
  checkpoint.channel_values["a"] = TypedValue{"json", "1"};
  checkpoint.channel_versions["a"] = int64_t{1};
  return checkpoint;
}

}  // namespace

TEST_CASE("async checkpointer: put, put_writes and get_tuple round trip") {
  MemoryCheckpointer memory;
  AsyncCheckpointer store(&memory, 2);
  RunOnIoContext([&]() -> Awaitable<void> {
    CheckpointConfig config{"t1", "", std::nullopt};
    // Braced temporaries live in named variables: g++ 12 cannot keep an
    // initializer_list's array alive across a co_await.
    ChannelVersions new_versions{{"a", int64_t{1}}};
    Checkpoint checkpoint = MakeCheckpoint("c1");
    Metadata metadata = Value::MakeMap();
    Result<CheckpointConfig> stored =
        co_await store.Put(config, checkpoint, metadata, new_versions);
    REQUIRE(stored.ok());
    CHECK(stored->checkpoint_id == std::optional<std::string>("c1"));

    std::vector<ChannelWrite> writes{
        ChannelWrite{"a", TypedValue{"json", "2"}}};
    Status written = co_await store.PutWrites(*stored, writes, "task-1");
    CHECK(written.ok());

    CheckpointConfig latest{"t1", "", std::nullopt};
    Result<std::optional<CheckpointTuple>> tuple =
        co_await store.GetTuple(latest);
    REQUIRE(tuple.ok());
    REQUIRE(tuple->has_value());
    CHECK((*tuple)->checkpoint.channel_values.at("a") ==
          TypedValue{"json", "1"});
    REQUIRE((*tuple)->pending_writes.size() == 1);
    CHECK((*tuple)->pending_writes[0].task_id == "task-1");

    ListOptions everything;
    Result<std::vector<CheckpointTuple>> listed =
        co_await store.ListAll(everything);
    REQUIRE(listed.ok());
    CHECK(listed->size() == 1);
  });
}

TEST_CASE("async checkpointer: errors are values") {
  MemoryCheckpointer memory;
  AsyncCheckpointer store(&memory);
  RunOnIoContext([&]() -> Awaitable<void> {
    // Missing thread_id: InvalidArgument, nothing stored.
    CheckpointConfig no_thread;
    Checkpoint checkpoint = MakeCheckpoint("c1");
    Metadata metadata = Value::MakeMap();
    ChannelVersions none;
    Result<CheckpointConfig> stored =
        co_await store.Put(no_thread, checkpoint, metadata, none);
    CHECK(stored.status().IsInvalidArgument());
    CheckpointConfig no_checkpoint{"t", "", std::nullopt};
    std::vector<ChannelWrite> no_writes;
    Status written = co_await store.PutWrites(no_checkpoint, no_writes, "task");
    CHECK(written.IsInvalidArgument());
    ListThreadsOptions first_page;
    Result<ThreadPage> page = co_await store.ListThreads(first_page);
    REQUIRE(page.ok());
    CHECK(page->threads.empty());
  });
}

TEST_CASE("async checkpointer: calls run on the storage pool") {
  MemoryCheckpointer memory;
  AsyncCheckpointer store(&memory);
  RunOnIoContext([&]() -> Awaitable<void> {
    std::thread::id caller = std::this_thread::get_id();
    auto where = [](Checkpointer&) -> Result<std::thread::id> {
      return std::this_thread::get_id();
    };
    Result<std::thread::id> worker = co_await store.Run(where);
    REQUIRE(worker.ok());
    CHECK(*worker != caller);
    // The coroutine resumes on its own executor (the io_context thread).
    CHECK(std::this_thread::get_id() == caller);
  });
}

TEST_CASE("async checkpointer: an exception from a call becomes IOError") {
  MemoryCheckpointer memory;
  AsyncCheckpointer store(&memory);
  RunOnIoContext([&]() -> Awaitable<void> {
    auto failing = [](Checkpointer&) -> Status {
      throw std::runtime_error("disk on fire");
    };
    Status status = co_await store.Run(failing);
    CHECK(status.IsIOError());
    CHECK(status.message().find("disk on fire") != std::string::npos);
  });
}

TEST_CASE("async checkpointer: copy, delta history, prune, delete") {
  MemoryCheckpointer memory;
  AsyncCheckpointer store(&memory);
  RunOnIoContext([&]() -> Awaitable<void> {
    CheckpointConfig root{"src", "", std::nullopt};
    ChannelVersions new_versions{{"a", int64_t{1}}};
    Checkpoint c1 = MakeCheckpoint("c1");
    Checkpoint c2 = MakeCheckpoint("c2");
    Metadata metadata = Value::MakeMap();
    Result<CheckpointConfig> first =
        co_await store.Put(root, c1, metadata, new_versions);
    REQUIRE(first.ok());
    ChannelVersions unchanged;
    Result<CheckpointConfig> second =
        co_await store.Put(*first, c2, metadata, unchanged);
    REQUIRE(second.ok());
    Status copied = co_await store.CopyThread("src", "dst");
    CHECK(copied.ok());
    std::vector<std::string> channels{"a"};
    Result<DeltaHistory> history =
        co_await store.GetDeltaChannelHistory(*second, channels);
    REQUIRE(history.ok());
    REQUIRE(history->count("a") == 1);
    CHECK(history->at("a").seed ==
          std::optional<TypedValue>(TypedValue{"json", "1"}));
    std::vector<std::string> pruned{"src"};
    Status pruned_status =
        co_await store.Prune(pruned, PruneStrategy::kKeepLatest, 1);
    CHECK(pruned_status.ok());
    Status deleted = co_await store.DeleteThread("dst");
    CHECK(deleted.ok());
    std::vector<std::string> runs{"nope"};
    Status deleted_runs = co_await store.DeleteForRuns(runs);
    CHECK(deleted_runs.ok());
    ListOptions everything;
    Result<std::vector<CheckpointTuple>> left =
        co_await store.ListAll(everything);
    REQUIRE(left.ok());
    REQUIRE(left->size() == 1);
    CHECK(left->front().config.thread_id == std::optional<std::string>("src"));
  });
}
