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

#include "runtime/persistence.h"

namespace rockpoint::runtime {
namespace {

class AsyncPersistence final : public StoringPersistence {
 public:
  using StoringPersistence::StoringPersistence;

 private:
  // Every operation is queued, stored in the background.
  Awaitable<Status> Submit(OrderedWriter::Op op) override {
    co_return co_await writer().Enqueue(std::move(op));
  }
};

}  // namespace

std::unique_ptr<Persistence> MakeAsyncPersistence(LoopState& state,
                                                  OrderedWriter& writer) {
  return std::make_unique<AsyncPersistence>(state, writer);
}

}  // namespace rockpoint::runtime
