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

#include "runtime/persistence.h"

namespace rockpoint::runtime {
namespace {

class SyncPersistence final : public StoringPersistence {
 public:
  using StoringPersistence::StoringPersistence;

 private:
  // Every operation is stored before it returns.
  Awaitable<Status> Submit(OrderedWriter::Op op) override {
    co_return co_await writer().Execute(std::move(op));
  }
};

}  // namespace

std::unique_ptr<Persistence> MakeSyncPersistence(LoopState& state,
                                                 OrderedWriter& writer) {
  return std::make_unique<SyncPersistence>(state, writer);
}

}  // namespace rockpoint::runtime
