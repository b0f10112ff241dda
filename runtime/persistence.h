// Persistence: what one Loop stores, and when, under the run's durability
// mode (Durability, rockpoint/runtime/graph.h). The loop reports its events
// through the hooks below and never looks at the mode itself; each mode's
// rules are in one file:
//   persistence_sync.cpp   kSync: every write and checkpoint is stored
//                          before the loop goes on.
//   persistence_async.cpp  kAsync: queued on a bounded ordered writer and
//                          stored while the next superstep runs.
//   persistence_exit.cpp   kExit: held in memory; the last checkpoint and
//                          its writes are stored when the run ends.
// persistence.cpp holds the factory, the policy of a run without a
// checkpointer (nothing is stored) and the rule every mode shares: the
// first superstep of a replay stores nothing.
//
// Hooks in the order a run calls them: OnResumeWrites (as a run resumes at
// a stored checkpoint); then per superstep OnTaskWrites for each task that
// ran, OnStepWrites, and OnCheckpoint once the state has begun the step's
// checkpoint (also after the input checkpoint); OnFinish once at the end,
// whatever the outcome.
//
// Every storage operation goes through the run's OrderedWriter (shared by
// the loops of a run, subgraphs included), so in every mode a thread's
// operations reach storage in the order they were submitted, and nothing is
// written after a failed one. The caller of RunLoop flushes the writer.
//
// Thread-safety: OnTaskWrites may run concurrently for the tasks of one
// superstep and only reads the LoopState; every other method is called from
// the loop's coroutine, one at a time.
#pragma once

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <memory>
#include <string>
#include <vector>

#include "runtime/loop.h"
#include "runtime/loop_state.h"
#include "runtime/ordered_writer.h"
#include "runtime/tasks.h"

namespace rockpoint::runtime {

class Persistence {
 public:
  explicit Persistence(LoopState& state) : state_(state) {}
  virtual ~Persistence() = default;
  Persistence(const Persistence&) = delete;
  Persistence& operator=(const Persistence&) = delete;

  // Set while the loop reruns the first superstep of a replay (from the
  // start of the run until that superstep's checkpoint): nothing may be
  // stored on the replayed checkpoint, which is history. While set, the
  // write hooks store nothing and tell the state that its writes are not
  // stored (so its next checkpoint holds full values). Default: unset.
  void set_replaying(bool replaying) { replaying_ = replaying; }
  bool replaying() const { return replaying_; }

  // `task` of the running superstep finished with `outcome` (not restored
  // from storage). Returns the Status of storing its writes when they are
  // stored now, else OK. May run concurrently for the tasks of a superstep.
  Awaitable<Status> OnTaskWrites(const Task& task, const TaskOutcome& outcome);
  // Every task of the superstep finished; outcomes[i] is tasks[i]'s (some
  // may be restored or, after a failure, still pending). Called before the
  // writes are applied, whether or not the superstep failed.
  void OnStepWrites(const std::vector<Task>& tasks,
                    const std::vector<TaskOutcome>& outcomes);
  // Writes the loop makes on the current checkpoint as it resumes:
  // interrupt answers (__resume__) and Command writes.
  Awaitable<Status> OnResumeWrites(std::string task_id, std::string path,
                                   std::vector<ChannelWrite> writes);
  // The state has begun a new current checkpoint (LoopState::
  // BeginCheckpoint) and holds the values it stands for.
  virtual Awaitable<Status> OnCheckpoint() = 0;
  // The run ends (done, interrupted or failed). Returns the first storage
  // error of the run, OK if none; operations may still be queued.
  virtual Awaitable<Status> OnFinish() = 0;

 protected:
  // The write hooks above, called only when not replaying.
  virtual Awaitable<Status> StoreTaskWrites(const Task& task,
                                            const TaskOutcome& outcome) = 0;
  virtual void KeepStepWrites(const std::vector<Task>& tasks,
                              const std::vector<TaskOutcome>& outcomes) = 0;
  virtual Awaitable<Status> StoreResumeWrites(
      std::string task_id, std::string path,
      std::vector<ChannelWrite> writes) = 0;

  LoopState& state() const { return state_; }

 private:
  LoopState& state_;
  bool replaying_ = false;
};

// The shape sync and async share: every task's writes, resume writes and
// checkpoint are stored as they happen, through Submit, on the current
// checkpoint. A subclass decides only what Submit waits for.
class StoringPersistence : public Persistence {
 public:
  StoringPersistence(LoopState& state, OrderedWriter& writer)
      : Persistence(state), writer_(writer) {}

  Awaitable<Status> OnCheckpoint() final;
  Awaitable<Status> OnFinish() final { co_return writer_.first_error(); }

 protected:
  // Hands `op` to the writer; returns what the mode promises of it.
  virtual Awaitable<Status> Submit(OrderedWriter::Op op) = 0;
  OrderedWriter& writer() const { return writer_; }

 private:
  Awaitable<Status> StoreTaskWrites(const Task& task,
                                    const TaskOutcome& outcome) final;
  void KeepStepWrites(const std::vector<Task>& tasks,
                      const std::vector<TaskOutcome>& outcomes) final;
  Awaitable<Status> StoreResumeWrites(std::string task_id, std::string path,
                                      std::vector<ChannelWrite> writes) final;
  Awaitable<Status> Store(std::string task_id, std::string path,
                          std::vector<ChannelWrite> writes);

  OrderedWriter& writer_;
};

// The policy of `env.durability` for a loop on `state`; nothing is stored
// when env.storage is nullptr. REQUIRES: env and state outlive the result.
std::unique_ptr<Persistence> MakePersistence(const RunEnv& env,
                                             LoopState& state);

// One per mode, each in its persistence_<mode>.cpp; use MakePersistence.
std::unique_ptr<Persistence> MakeSyncPersistence(LoopState& state,
                                                 OrderedWriter& writer);
std::unique_ptr<Persistence> MakeAsyncPersistence(LoopState& state,
                                                  OrderedWriter& writer);
std::unique_ptr<Persistence> MakeExitPersistence(LoopState& state,
                                                 OrderedWriter& writer);

// Shared by the modes (persistence.cpp).

// The writer's operation storing `request` (a put of one checkpoint).
OrderedWriter::Op PutCheckpointOp(PutRequest request);
// The writer's operation storing `writes` of one task on `state`'s current
// checkpoint (read now, not when the operation runs).
OrderedWriter::Op PutWritesOp(const LoopState& state, std::string task_id,
                              std::string path,
                              std::vector<ChannelWrite> writes);
// True for a task that ran in this superstep (not restored, not pending):
// its writes are the step's to store.
bool RanThisStep(const TaskOutcome& outcome);
// For modes that store each task's writes on the persisted checkpoint as
// it finishes: records the channels those writes touch (LoopState::
// NoteStoredWrites), which lets the next put leave delta channels empty.
void NoteWritesOfTasksThatRan(LoopState& state,
                              const std::vector<TaskOutcome>& outcomes);

}  // namespace rockpoint::runtime
