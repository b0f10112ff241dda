// The store lock across processes: one read-write opener at a time (Busy,
// "locked", for the second), read-only opens beside it, and the lock gone
// when the holder closes or is killed. The second process is
// lock_holder_main.
#include <doctest/doctest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/rocksdb/process_helpers.h"
#include "engine/rocksdb/rocksdb_checkpointer.h"

namespace rockpoint::testing {
namespace {

using std::chrono::milliseconds;

// Guards against a hung child; not a performance threshold.
constexpr milliseconds kHangGuard{30000};

const std::string kHolderBinary =
    std::string(ROCKPOINT_TEST_BINARY_DIR) + "/lock_holder_main";

ChildProcess SpawnHolder(const std::vector<std::string>& args,
                         bool pipe_stdin = false) {
  std::string error;
  auto child = ChildProcess::Spawn(kHolderBinary, args, pipe_stdin, &error);
  REQUIRE_MESSAGE(child.has_value(), error);
  return std::move(*child);
}

// Every line of a child that runs to completion, after checking it exited 0.
std::vector<std::string> RunHolder(const std::vector<std::string>& args) {
  ChildProcess child = SpawnHolder(args);
  std::vector<std::string> lines = child.ReadRemainingLines(kHangGuard);
  int status = child.Wait();
  CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0),
                "lock_holder_main " << DescribeWaitStatus(status));
  return lines;
}

// The next line of a running child. REQUIRES it to come.
std::string NextLine(ChildProcess* child) {
  auto line = child->ReadLine(kHangGuard);
  // Not REQUIRE_MESSAGE: its message may be rendered for a passing check
  // (-s), and waiting for a live child would never return.
  if (!line.has_value()) {
    child->Kill(SIGKILL);
    FAIL("lock_holder_main stopped: " << DescribeWaitStatus(child->Wait()));
  }
  return *line;
}

bool IsLockedBusy(const std::string& open_line) {
  return open_line.rfind("OPEN Busy: ", 0) == 0 &&
         open_line.find("locked") != std::string::npos;
}

std::unique_ptr<RocksDbCheckpointer> OpenUnsynced(const std::string& path,
                                                  bool read_only = false) {
  RocksDbOptions options;
  options.path = path;
  options.read_only = read_only;
  options.sync_writes = false;
  auto opened = RocksDbCheckpointer::Open(options);
  REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
  return std::move(opened).value();
}

Status PutRoot(Checkpointer* store, const std::string& thread_id,
               const std::string& id) {
  Checkpoint checkpoint;
  checkpoint.id = id;
  checkpoint.ts = "2024-05-01T00:00:00Z";
  return store
      ->Put({thread_id, "", std::nullopt}, checkpoint, Value::MakeMap(), {})
      .status();
}

std::optional<std::string> LatestId(Checkpointer* store,
                                    const std::string& thread_id) {
  auto latest = store->GetTuple({thread_id, "", std::nullopt});
  REQUIRE_MESSAGE(latest.ok(), latest.status().ToString());
  if (!latest->has_value()) return std::nullopt;
  return (*latest)->config.checkpoint_id;
}

TEST_CASE("another process cannot open a store this process holds") {
  TempDir dir("lock-parent");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store");
  const std::string thread = "lock-parent-thread";
  auto store = OpenUnsynced(path);
  REQUIRE(PutRoot(store.get(), thread, "parent-1").ok());

  std::vector<std::string> open = RunHolder({"open", path});
  REQUIRE(open.size() == 1);
  CHECK_MESSAGE(IsLockedBusy(open[0]), open[0]);

  // A read-only open beside the holder sees its data and cannot write.
  std::vector<std::string> read = RunHolder({"read", path, thread});
  REQUIRE(read.size() == 3);
  CHECK(read[0] == "OPEN OK");
  CHECK(read[1] == "LATEST parent-1");
  CHECK_MESSAGE(read[2].rfind("PUT InvalidArgument: ", 0) == 0, read[2]);

  // The holder still works after the refused opens.
  REQUIRE(PutRoot(store.get(), thread, "parent-2").ok());
  store.reset();

  std::vector<std::string> after = RunHolder({"open", path});
  REQUIRE(after.size() == 1);
  CHECK(after[0] == "OPEN OK");
  // The refused and read-only processes wrote nothing.
  auto reopened = OpenUnsynced(path);
  CHECK(LatestId(reopened.get(), thread) == "parent-2");
  auto listed = reopened->ListAll(ListOptions{});
  REQUIRE(listed.ok());
  CHECK(listed->size() == 2);
}

TEST_CASE("this process cannot open a store another process holds") {
  TempDir dir("lock-child");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store");
  const std::string thread = "lock-child-thread";
  ChildProcess holder = SpawnHolder({"hold", path, thread}, true);
  CHECK(NextLine(&holder) == "OPEN OK");
  CHECK(NextLine(&holder) == "PUT OK");
  REQUIRE(NextLine(&holder) == "HELD");

  RocksDbOptions options;
  options.path = path;
  auto refused = RocksDbCheckpointer::Open(options);
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(refused.status().IsBusy(), refused.status().ToString());
  CHECK_MESSAGE(refused.status().message().find("locked") != std::string::npos,
                refused.status().ToString());

  {
    auto reader = OpenUnsynced(path, /*read_only=*/true);
    CHECK(LatestId(reader.get(), thread) == "held-1");
    Status put = PutRoot(reader.get(), thread, "from-reader");
    CHECK_MESSAGE(put.IsInvalidArgument(), put.ToString());
  }

  holder.CloseStdin();
  CHECK(NextLine(&holder) == "RELEASED");
  int status = holder.Wait();
  CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0),
                DescribeWaitStatus(status));

  auto store = OpenUnsynced(path);
  CHECK(LatestId(store.get(), thread) == "held-1");
  CHECK(PutRoot(store.get(), thread, "held-2").ok());
}

TEST_CASE("a SIGKILLed holder leaves the store openable") {
  TempDir dir("lock-killed");
  REQUIRE(dir.ok());
  const std::string path = dir.Sub("store");
  const std::string thread = "lock-killed-thread";
  ChildProcess holder = SpawnHolder({"hold", path, thread}, true);
  CHECK(NextLine(&holder) == "OPEN OK");
  CHECK(NextLine(&holder) == "PUT OK");
  REQUIRE(NextLine(&holder) == "HELD");
  holder.Kill(SIGKILL);
  int status = holder.Wait();
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));

  auto store = OpenUnsynced(path);
  CHECK(LatestId(store.get(), thread) == "held-1");
  std::vector<std::string> open = RunHolder({"open", path});
  REQUIRE(open.size() == 1);
  CHECK_MESSAGE(IsLockedBusy(open[0]), open[0]);
}

TEST_CASE("rocksdb lock: Close releases it within the process") {
  TempDir dir("lock-close");
  const std::string path = dir.Sub("store");
  auto first = OpenUnsynced(path);
  REQUIRE(PutRoot(first.get(), "t", "closed-1").ok());
  RocksDbOptions options;
  options.path = path;
  CHECK_FALSE(RocksDbCheckpointer::Open(options).ok());

  Status closed = first->Close();
  CHECK_MESSAGE(closed.ok(), closed.ToString());
  auto second = OpenUnsynced(path);
  CHECK(LatestId(second.get(), "t") == "closed-1");
  CHECK(first->GetTuple(CheckpointConfig{"t", "", std::nullopt})
            .status()
            .IsAborted());
}

TEST_CASE("rocksdb lock: Close is Busy while a cursor lives, then closes") {
  TempDir dir("lock-close-busy");
  auto store = OpenUnsynced(dir.Sub("store"));
  REQUIRE(PutRoot(store.get(), "t", "c1").ok());
  auto cursor = store->List(ListOptions{});
  REQUIRE(cursor.ok());
  Status busy = store->Close();
  CHECK_MESSAGE(busy.IsBusy(), busy.ToString());
  CHECK(LatestId(store.get(), "t") == "c1");  // still open.
  cursor->reset();
  Status closed = store->Close();
  CHECK_MESSAGE(closed.ok(), closed.ToString());
}

}  // namespace
}  // namespace rockpoint::testing
