// Durability::kAsync: every operation is queued on the run's ordered writer
// and stored in the background while the loop goes on.
//
// Contract:
// - A hook returns once its operation is queued (OnTaskWrites for the
//   task's writes or __error__ / __interrupt__ record, OnResumeWrites,
//   OnCheckpoint for the put); nothing is known to be durable until the
//   writer is flushed, which the caller of RunLoop does whatever the
//   outcome. A crash may lose the operations still queued.
// - Order: operations are stored one at a time in the order they were
//   queued, so a checkpoint's writes follow its put and precede its child's
//   put; storage always holds a prefix of what the run produced.
// - Memory: at most the writer's capacity (CompileOptions::
//   async_queue_capacity) operations are pending; a hook waits for a free
//   slot, which slows the loop down to storage's pace (backpressure).
// - Errors: a hook returns the first storage error seen so far; once one
//   failed, nothing more is written. OnFinish returns the first error.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <utility>

#include "runtime/async_util.h"
#include "runtime/persistence.h"

namespace rockpoint::runtime {
namespace {

class AsyncPersistence final : public Persistence {
 public:
  AsyncPersistence(LoopState& state, OrderedWriter& writer)
      : Persistence(state), writer_(writer) {}

  Awaitable<Status> OnCheckpoint() override {
    RP_CO_ASSIGN_OR_RETURN(PutRequest put, state().BuildPut());
    OrderedWriter::Op op = PutCheckpointOp(std::move(put));
    co_return co_await writer_.Enqueue(std::move(op));
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
    co_return co_await writer_.Enqueue(std::move(op));
  }

  OrderedWriter& writer_;
};

}  // namespace

std::unique_ptr<Persistence> MakeAsyncPersistence(LoopState& state,
                                                  OrderedWriter& writer) {
  return std::make_unique<AsyncPersistence>(state, writer);
}

}  // namespace rockpoint::runtime
