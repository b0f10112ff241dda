// Durability::kSync: every operation is stored before the hook returns.
//
// Contract:
// - OnTaskWrites returns once the task's writes (its channel writes, or its
//   __error__ / __interrupt__ record) are stored on the current checkpoint,
//   with the Status of that store. OnResumeWrites likewise.
// - OnCheckpoint returns once the checkpoint is stored, so a checkpoint is
//   durable before any write of the next superstep is submitted, and a
//   crash loses at most the writes of the tasks still running.
// - Order: a task's writes follow the put of their checkpoint; the writes
//   of tasks finishing together are stored in the order they finish.
// - Memory: nothing is held beyond the operations being stored (at most the
//   writer's capacity; a finishing task waits for a slot).
// - OnFinish has nothing left to store; it returns the first storage error.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <utility>

#include "runtime/async_util.h"
#include "runtime/persistence.h"

namespace rockpoint::runtime {
namespace {

class SyncPersistence final : public Persistence {
 public:
  SyncPersistence(LoopState& state, OrderedWriter& writer)
      : Persistence(state), writer_(writer) {}

  Awaitable<Status> OnCheckpoint() override {
    RP_CO_ASSIGN_OR_RETURN(PutRequest put, state().BuildPut());
    OrderedWriter::Op op = PutCheckpointOp(std::move(put));
    co_return co_await writer_.Execute(std::move(op));
  }

  Awaitable<Status> OnFinish() override { co_return writer_.first_error(); }

 private:
  Awaitable<Status> StoreTaskWrites(const Task& task,
                                    const TaskOutcome& outcome) override {
    std::vector<ChannelWrite> writes = StoredWrites(outcome);
    co_return co_await Store(task.id, task.path, std::move(writes));
  }

  void KeepStepWrites(const std::vector<Task>&,
                      const std::vector<TaskOutcome>& outcomes) override {
    NoteWritesOfTasksThatRan(state(), outcomes);
  }

  Awaitable<Status> StoreResumeWrites(
      std::string task_id, std::string path,
      std::vector<ChannelWrite> writes) override {
    state().NoteStoredWrites(writes);
    co_return co_await Store(std::move(task_id), std::move(path),
                             std::move(writes));
  }

  Awaitable<Status> Store(std::string task_id, std::string path,
                          std::vector<ChannelWrite> writes) {
    if (writes.empty()) co_return Status::OK();
    OrderedWriter::Op op = PutWritesOp(state(), std::move(task_id),
                                       std::move(path), std::move(writes));
    co_return co_await writer_.Execute(std::move(op));
  }

  OrderedWriter& writer_;
};

}  // namespace

std::unique_ptr<Persistence> MakeSyncPersistence(LoopState& state,
                                                 OrderedWriter& writer) {
  return std::make_unique<SyncPersistence>(state, writer);
}

}  // namespace rockpoint::runtime
