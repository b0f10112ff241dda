// The rules every durability mode shares, the factory, and the policy of a
// run without a checkpointer.
//
// Replay (all modes): the first superstep of a replay reruns from a stored
// checkpoint and must leave it as it is, so while Persistence::replaying()
// no write reaches storage, not even buffered for later. The writes that
// superstep applies are then not stored on the parent of its checkpoint,
// so the state is told (LoopState::MarkWritesNotStored) and that
// checkpoint stores full values of the delta channels they may touch.
//
// No checkpointer: nothing is stored, whatever the mode; OnFinish is OK.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include "runtime/persistence.h"

#include <utility>

#include "runtime/async_util.h"

namespace rockpoint::runtime {

Awaitable<Status> Persistence::OnTaskWrites(const Task& task,
                                            const TaskOutcome& outcome) {
  if (replaying_) co_return Status::OK();
  co_return co_await StoreTaskWrites(task, outcome);
}

void Persistence::OnStepWrites(const std::vector<Task>& tasks,
                               const std::vector<TaskOutcome>& outcomes) {
  if (replaying_) {
    state_.MarkWritesNotStored();
    return;
  }
  KeepStepWrites(tasks, outcomes);
}

Awaitable<Status> Persistence::OnResumeWrites(
    std::string task_id, std::string path, std::vector<ChannelWrite> writes) {
  if (replaying_) {
    state_.MarkWritesNotStored();
    co_return Status::OK();
  }
  co_return co_await StoreResumeWrites(std::move(task_id), std::move(path),
                                       std::move(writes));
}

namespace {

class NothingStored final : public Persistence {
 public:
  using Persistence::Persistence;
  Awaitable<Status> OnCheckpoint() override { co_return Status::OK(); }
  Awaitable<Status> OnFinish() override { co_return Status::OK(); }

 private:
  Awaitable<Status> StoreTaskWrites(const Task&, const TaskOutcome&) override {
    co_return Status::OK();
  }
  void KeepStepWrites(const std::vector<Task>&,
                      const std::vector<TaskOutcome>&) override {}
  Awaitable<Status> StoreResumeWrites(std::string, std::string,
                                      std::vector<ChannelWrite>) override {
    co_return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Persistence> MakePersistence(const RunEnv& env,
                                             LoopState& state) {
  if (env.storage == nullptr) return std::make_unique<NothingStored>(state);
  switch (env.durability) {
    case Durability::kSync:
      return MakeSyncPersistence(state, *env.writer);
    case Durability::kAsync:
      return MakeAsyncPersistence(state, *env.writer);
    case Durability::kExit:
      return MakeExitPersistence(state, *env.writer);
  }
  return MakeAsyncPersistence(state, *env.writer);  // the documented default.
}

OrderedWriter::Op PutCheckpointOp(PutRequest request) {
  auto put = std::make_shared<const PutRequest>(std::move(request));
  return [put](Checkpointer& store) {
    return store
        .Put(put->config, put->checkpoint, put->metadata, put->new_versions)
        .status();
  };
}

OrderedWriter::Op PutWritesOp(const LoopState& state, std::string task_id,
                              std::string path,
                              std::vector<ChannelWrite> writes) {
  CheckpointConfig config{state.thread_id(), state.ns(), state.checkpoint_id()};
  return [config = std::move(config), writes = std::move(writes),
          task_id = std::move(task_id),
          path = std::move(path)](Checkpointer& store) {
    return store.PutWrites(config, writes, task_id, path);
  };
}

bool RanThisStep(const TaskOutcome& outcome) {
  return !outcome.restored && outcome.kind != TaskOutcome::Kind::kPending;
}

void NoteWritesOfTasksThatRan(LoopState& state,
                              const std::vector<TaskOutcome>& outcomes) {
  if (!state.current_is_persisted()) return;
  for (const TaskOutcome& outcome : outcomes) {
    if (RanThisStep(outcome)) state.NoteStoredWrites(StoredWrites(outcome));
  }
}

Awaitable<Status> StoringPersistence::OnCheckpoint() {
  RP_CO_ASSIGN_OR_RETURN(PutRequest put, state().BuildPut());
  co_return co_await Submit(PutCheckpointOp(std::move(put)));
}

Awaitable<Status> StoringPersistence::StoreTaskWrites(
    const Task& task, const TaskOutcome& outcome) {
  std::vector<ChannelWrite> writes = StoredWrites(outcome);
  co_return co_await Store(task.id, task.path, std::move(writes));
}

void StoringPersistence::KeepStepWrites(
    const std::vector<Task>&, const std::vector<TaskOutcome>& outcomes) {
  NoteWritesOfTasksThatRan(state(), outcomes);
}

Awaitable<Status> StoringPersistence::StoreResumeWrites(
    std::string task_id, std::string path, std::vector<ChannelWrite> writes) {
  state().NoteStoredWrites(writes);
  co_return co_await Store(std::move(task_id), std::move(path),
                           std::move(writes));
}

Awaitable<Status> StoringPersistence::Store(std::string task_id,
                                            std::string path,
                                            std::vector<ChannelWrite> writes) {
  if (writes.empty()) co_return Status::OK();
  co_return co_await Submit(PutWritesOp(state(), std::move(task_id),
                                        std::move(path), std::move(writes)));
}

}  // namespace rockpoint::runtime
