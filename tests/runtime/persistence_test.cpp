// The durability policies (runtime/persistence.h) driven hook by hook as a
// loop drives them, on a recording store: when each mode's operations reach
// storage, in what order, and what a replayed superstep leaves out.
#include "runtime/persistence.h"

#include <doctest/doctest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>

#include "runtime/ids.h"
#include "runtime/runtime_test_util.h"

using namespace rockpoint;
using namespace rockpoint::runtime;
using namespace rockpoint::testing;

namespace {

using Calls = std::vector<std::string>;

// Runs `coro` to completion on an io_context driven by this thread.
template <typename Coro>
void RunOnIoContext(Coro coro) {
  boost::asio::io_context io;
  bool finished = false;
  boost::asio::co_spawn(io, std::move(coro), [&](std::exception_ptr error) {
    REQUIRE_FALSE(error);
    finished = true;
  });
  io.run();
  REQUIRE(finished);
}

// START -> a -> b -> END over one delta channel "log".
std::shared_ptr<const GraphSpec> LogSpec() {
  StateGraph graph;
  auto unused = [](const State&, NodeContext&) { return NodeUpdate(); };
  graph.AddChannel("log", ChannelSpec::Delta(AppendReducer(), 100))
      .AddNode("a", unused)
      .AddNode("b", unused)
      .AddEdge(kStart, "a")
      .AddEdge("a", "b")
      .AddEdge("b", kEnd);
  return Must(graph.BuildSpec());
}

// One loop's persistence on a memory store behind a recorder. The storage
// pool has one thread, which `CloseGate` can hold.
struct Rig {
  explicit Rig(Durability mode) {
    env.storage = &storage;
    env.writer = OrderedWriter::Create(&storage, /*capacity=*/8);
    env.durability = mode;
    persistence = MakePersistence(env, state);
  }
  ~Rig() { OpenGate(); }

  // Until OpenGate, no storage operation runs.
  void CloseGate() {
    boost::asio::post(storage.executor(),
                      [opened = gate.get_future().share()] { opened.wait(); });
    gate_closed = true;
  }
  void OpenGate() {
    if (gate_closed) gate.set_value();
    gate_closed = false;
  }
  void Flush() {
    RunOnIoContext([this]() -> Awaitable<void> {
      Status flushed = co_await env.writer->Flush();
      REQUIRE(flushed.ok());
    });
  }
  // The stored checkpoint `id` holds a value of "log" (a snapshot, not a
  // delta rebuilt from writes).
  bool StoresLogValue(const std::string& id) {
    std::optional<CheckpointTuple> tuple =
        Must(memory.GetTuple(CheckpointConfig{"t", "", id}));
    REQUIRE(tuple.has_value());
    return tuple->checkpoint.channel_values.count("log") == 1;
  }

  MemoryCheckpointer memory;
  RecordingCheckpointer recorder{&memory};
  AsyncCheckpointer storage{&recorder, 1};
  std::promise<void> gate;
  bool gate_closed = false;
  std::shared_ptr<const GraphSpec> spec = LogSpec();
  LoopState state{spec.get(), "t", ""};
  RunEnv env;
  std::unique_ptr<Persistence> persistence;
};

// What storage had recorded after each event of a run.
struct Seen {
  std::string input_id;  // the input checkpoint
  std::string step_id;   // the checkpoint after task-a's superstep
  Calls after_input, after_task_a, after_step, after_task_b;
  size_t pending_before_finish = 0;  // most operations ever queued
};

Task TaskOf(const std::string& node) {
  Task task;
  task.id = "task-" + node;
  task.node = node;
  task.path = PullTaskPath(node);
  task.triggers = {TriggerChannel(node)};
  return task;
}

// Drives `rig` through a run: the input checkpoint; a superstep whose task
// "a" appends "x" to "log" (replayed if `replaying`), and its checkpoint; a
// superstep whose task "b" fails; the end of the run.
Seen DriveRun(Rig& rig, bool replaying) {
  Seen seen;
  RunOnIoContext([&]() -> Awaitable<void> {
    Persistence& hooks = *rig.persistence;
    rig.state.BeginCheckpoint("input", -1, {});
    seen.input_id = rig.state.checkpoint_id();
    Status status = co_await hooks.OnCheckpoint();
    REQUIRE(status.ok());
    seen.after_input = rig.recorder.calls();

    hooks.set_replaying(replaying);
    std::vector<Task> step{TaskOf("a")};
    std::vector<TaskOutcome> done(1);
    done[0].kind = TaskOutcome::Kind::kDone;
    done[0].writes = {{"log", Value(Value::Array{Value("x")})}};
    status = co_await hooks.OnTaskWrites(step[0], done[0]);
    REQUIRE(status.ok());
    seen.after_task_a = rig.recorder.calls();
    hooks.OnStepWrites(step, done);
    std::vector<TaskWrites> writes{TaskWrites{
        step[0].path, step[0].id, "a", step[0].triggers, done[0].writes}};
    REQUIRE(rig.state.Apply(std::move(writes), /*end_of_step=*/true).ok());
    rig.state.BeginCheckpoint("loop", 0, {});
    seen.step_id = rig.state.checkpoint_id();
    status = co_await hooks.OnCheckpoint();
    REQUIRE(status.ok());
    hooks.set_replaying(false);
    seen.after_step = rig.recorder.calls();

    std::vector<Task> failing{TaskOf("b")};
    std::vector<TaskOutcome> failed(1);
    failed[0].kind = TaskOutcome::Kind::kError;
    failed[0].error = "b broke";
    status = co_await hooks.OnTaskWrites(failing[0], failed[0]);
    REQUIRE(status.ok());
    seen.after_task_b = rig.recorder.calls();
    hooks.OnStepWrites(failing, failed);
    seen.pending_before_finish = rig.env.writer->max_pending();
    status = co_await hooks.OnFinish();
    REQUIRE(status.ok());
  });
  return seen;
}

}  // namespace

TEST_CASE("sync: each operation is stored when its hook returns") {
  Rig rig(Durability::kSync);
  Seen seen = DriveRun(rig, /*replaying=*/false);
  std::string put_input = "put " + seen.input_id;
  std::string writes_a = "writes " + seen.input_id + " task-a";
  std::string put_step = "put " + seen.step_id;
  std::string writes_b = "writes " + seen.step_id + " task-b";
  CHECK(seen.after_input == Calls{put_input});
  CHECK(seen.after_task_a == Calls{put_input, writes_a});
  CHECK(seen.after_step == Calls{put_input, writes_a, put_step});
  CHECK(seen.after_task_b == Calls{put_input, writes_a, put_step, writes_b});
  rig.Flush();
  CHECK(rig.recorder.calls() == seen.after_task_b);
  // task-a's writes are stored on the input checkpoint: "log" is left to
  // be rebuilt from them.
  CHECK_FALSE(rig.StoresLogValue(seen.step_id));
}

TEST_CASE("async: hooks only queue; storage gets the operations in order") {
  Rig rig(Durability::kAsync);
  rig.CloseGate();
  Seen seen = DriveRun(rig, /*replaying=*/false);
  CHECK(seen.after_input.empty());
  CHECK(seen.after_task_b.empty());
  CHECK(seen.pending_before_finish == 4);
  CHECK(rig.recorder.calls().empty());
  rig.OpenGate();
  rig.Flush();
  CHECK(rig.recorder.calls() ==
        Calls{"put " + seen.input_id, "writes " + seen.input_id + " task-a",
              "put " + seen.step_id, "writes " + seen.step_id + " task-b"});
  CHECK_FALSE(rig.StoresLogValue(seen.step_id));
}

TEST_CASE("exit: nothing is queued before finish, then the last checkpoint") {
  Rig rig(Durability::kExit);
  Seen seen = DriveRun(rig, /*replaying=*/false);
  CHECK(seen.after_task_b.empty());
  CHECK(seen.pending_before_finish == 0);
  rig.Flush();
  // Only the last checkpoint, then the writes made on it; task-a's writes
  // are never stored, so "log" is stored in full.
  CHECK(rig.recorder.calls() ==
        Calls{"put " + seen.step_id, "writes " + seen.step_id + " task-b"});
  CHECK(rig.StoresLogValue(seen.step_id));
}

TEST_CASE("every mode: a replayed superstep stores no writes") {
  for (Durability mode :
       {Durability::kSync, Durability::kAsync, Durability::kExit}) {
    CAPTURE(static_cast<int>(mode));
    Rig rig(mode);
    Seen seen = DriveRun(rig, /*replaying=*/true);
    rig.Flush();
    for (const std::string& call : rig.recorder.calls()) {
      CHECK(call.rfind("writes " + seen.input_id, 0) != 0);
    }
    // The state was told: the step's checkpoint stores "log" in full.
    CHECK(rig.StoresLogValue(seen.step_id));
    if (mode != Durability::kExit) {
      CHECK(rig.recorder.calls() ==
            Calls{"put " + seen.input_id, "put " + seen.step_id,
                  "writes " + seen.step_id + " task-b"});
    }
  }
}
