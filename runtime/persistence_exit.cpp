// Durability::kExit: nothing is stored while the run goes on; when it ends
// (done, interrupted or failed) its last checkpoint and the writes made on
// that checkpoint are queued on the run's ordered writer.
//
// Contract:
// - No hook but OnFinish stores anything; until the caller of RunLoop has
//   flushed the writer after OnFinish, a crash loses the whole run (the
//   thread keeps what it had before).
// - Only the run's last checkpoint is stored, with full values: the writes
//   that lead to it from its stored parent are never stored, so the state
//   is told (LoopState::MarkWritesNotStored) and snapshots every delta
//   channel those writes touched.
// - Writes made on the current checkpoint (tasks of a superstep that failed
//   or was interrupted, interrupt answers, Command writes) are kept in
//   memory and stored after that checkpoint's put, in the order they were
//   made (a superstep's in task order). A new checkpoint drops them.
// - Memory: the current checkpoint's writes only; the state itself is
//   encoded once, at OnFinish.
// - OnFinish returns the first storage error seen so far (an error of the
//   queued operations surfaces at the flush).

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <utility>

#include "runtime/async_util.h"
#include "runtime/persistence.h"

namespace rockpoint::runtime {
namespace {

class ExitPersistence final : public Persistence {
 public:
  ExitPersistence(LoopState& state, OrderedWriter& writer)
      : Persistence(state), writer_(writer) {}

  Awaitable<Status> OnCheckpoint() override {
    state().MarkWritesNotStored();
    kept_.clear();
    co_return Status::OK();
  }

  Awaitable<Status> OnFinish() override {
    if (state().has_checkpoint() && !state().current_is_persisted()) {
      RP_CO_ASSIGN_OR_RETURN(PutRequest put, state().BuildPut());
      OrderedWriter::Op op = PutCheckpointOp(std::move(put));
      RP_CO_RETURN_IF_ERROR(co_await writer_.Enqueue(std::move(op)));
    }
    for (KeptWrites& kept : kept_) {
      OrderedWriter::Op op =
          PutWritesOp(state(), std::move(kept.task_id), std::move(kept.path),
                      std::move(kept.writes));
      RP_CO_RETURN_IF_ERROR(co_await writer_.Enqueue(std::move(op)));
    }
    kept_.clear();
    co_return writer_.first_error();
  }

 private:
  struct KeptWrites {
    std::string task_id;
    std::string path;
    std::vector<ChannelWrite> writes;
  };

  // Concurrent with the other tasks: kept in task order by KeepStepWrites.
  Awaitable<Status> StoreTaskWrites(const Task&, const TaskOutcome&) override {
    co_return Status::OK();
  }

  void KeepStepWrites(const std::vector<Task>& tasks,
                      const std::vector<TaskOutcome>& outcomes) override {
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (!RanThisStep(outcomes[i])) continue;
      kept_.push_back(
          KeptWrites{tasks[i].id, tasks[i].path, StoredWrites(outcomes[i])});
    }
  }

  Awaitable<Status> StoreResumeWrites(
      std::string task_id, std::string path,
      std::vector<ChannelWrite> writes) override {
    if (!writes.empty()) {
      kept_.push_back(
          KeptWrites{std::move(task_id), std::move(path), std::move(writes)});
    }
    co_return Status::OK();
  }

  OrderedWriter& writer_;
  std::vector<KeptWrites> kept_;  // made on the current checkpoint.
};

}  // namespace

std::unique_ptr<Persistence> MakeExitPersistence(LoopState& state,
                                                 OrderedWriter& writer) {
  return std::make_unique<ExitPersistence>(state, writer);
}

}  // namespace rockpoint::runtime
