// The superstep cycle of Loop and running its tasks.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <boost/asio/co_spawn.hpp>
#include <exception>

#include "runtime/async_util.h"
#include "runtime/loop_impl.h"

namespace rockpoint::runtime {

namespace {

std::string Describe(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

Awaitable<Result<RunOutcome>> RunLoop(const GraphSpec& spec, const RunEnv& env,
                                      LoopRequest request) {
  Loop loop(spec, env, std::move(request));
  co_return co_await loop.Run();
}

Loop::Loop(const GraphSpec& spec, const RunEnv& env, LoopRequest request)
    : spec_(spec),
      env_(env),
      request_(std::move(request)),
      state_(&spec, request_.thread_id, request_.ns),
      persistence_(MakePersistence(env, state_)) {}

Value::Map Loop::RunMetadata() const {
  return Value::Map{{"parents", Value(request_.parents)},
                    {"run_id", Value(request_.run_id)}};
}

Awaitable<Result<RunOutcome>> Loop::Run() {
  Status status = co_await Start();
  if (!status.ok()) co_return status;
  std::vector<Interrupt> interrupts;
  bool done = false;
  while (status.ok() && !done && interrupts.empty()) {
    status = co_await Superstep(interrupts, done);
  }
  Status finished = co_await persistence_->OnFinish();
  if (status.ok()) status = finished;
  if (!status.ok()) co_return status;
  co_return Outcome(std::move(interrupts));
}

Awaitable<Status> Loop::Superstep(std::vector<Interrupt>& interrupts,
                                  bool& done) {
  if (env_.stopping != nullptr && env_.stopping->load()) {
    co_return Status::Aborted("the runtime is shutting down");
  }
  RP_CO_ASSIGN_OR_RETURN(std::vector<Task> tasks, PrepareTasks(state_));
  if (tasks.empty()) {
    done = true;
    co_return Status::OK();
  }
  if (supersteps_ >= request_.recursion_limit) {
    co_return Status::Aborted("recursion limit of " +
                              std::to_string(request_.recursion_limit) +
                              " supersteps reached without reaching END");
  }
  std::vector<TaskOutcome> outcomes(tasks.size());
  RP_CO_RETURN_IF_ERROR(PrepareOutcomes(tasks, outcomes));
  co_await RunStep(tasks, outcomes);
  persistence_->OnStepWrites(tasks, outcomes);
  RP_CO_RETURN_IF_ERROR(StepStatus(tasks, outcomes, interrupts));
  if (!interrupts.empty()) co_return Status::OK();

  RP_CO_RETURN_IF_ERROR(ApplyStep(tasks, outcomes));
  state_.BeginCheckpoint("loop", state_.step() + 1, RunMetadata());
  Status saved = co_await persistence_->OnCheckpoint();
  persistence_->set_replaying(false);
  resuming_ = false;
  ++supersteps_;
  co_return saved;
}

Status Loop::StepStatus(const std::vector<Task>& tasks,
                        const std::vector<TaskOutcome>& outcomes,
                        std::vector<Interrupt>& interrupts) const {
  Status status;
  size_t failed = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!outcomes[i].storage.ok() && status.ok()) status = outcomes[i].storage;
    if (outcomes[i].kind == TaskOutcome::Kind::kError) {
      if (failed++ == 0 && status.ok()) {
        status = Status::Aborted("node '" + tasks[i].node +
                                 "' failed: " + outcomes[i].error);
      }
    } else if (outcomes[i].kind == TaskOutcome::Kind::kInterrupted) {
      for (const Value& record : outcomes[i].interrupts) {
        interrupts.push_back(InterruptFromRecord(record));
      }
    }
  }
  if (failed > 1 && status.IsAborted()) {
    status =
        Status::Aborted(status.message() + " (and " +
                        std::to_string(failed - 1) + " more failed tasks)");
  }
  return status;
}

Status Loop::ApplyStep(const std::vector<Task>& tasks,
                       std::vector<TaskOutcome>& outcomes) {
  std::vector<TaskWrites> writes;
  writes.reserve(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    writes.push_back(TaskWrites{
        tasks[i].path, tasks[i].id, tasks[i].pull ? tasks[i].node : "",
        tasks[i].triggers, std::move(outcomes[i].writes)});
  }
  return state_.Apply(std::move(writes), /*end_of_step=*/true);
}

RunOutcome Loop::Outcome(std::vector<Interrupt> interrupts) const {
  RunOutcome outcome;
  outcome.values = state_.UserState();
  outcome.interrupts = std::move(interrupts);
  outcome.config =
      CheckpointConfig{request_.thread_id, request_.ns, std::nullopt};
  if (env_.storage != nullptr && state_.has_checkpoint()) {
    outcome.config.checkpoint_id = state_.checkpoint_id();
  }
  outcome.run_id = request_.run_id;
  outcome.supersteps = supersteps_;
  return outcome;
}

Status Loop::PrepareOutcomes(const std::vector<Task>& tasks,
                             std::vector<TaskOutcome>& outcomes) {
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (auto it = resume_.find(tasks[i].id); it != resume_.end()) {
      outcomes[i].resume = it->second;
    }
    if (auto it = child_resume_.find(tasks[i].id); it != child_resume_.end()) {
      outcomes[i].child_resume = it->second;
    }
  }
  if (!resuming_) return Status::OK();
  // Tasks whose writes are stored finished before: reuse, do not rerun.
  for (size_t i = 0; i < tasks.size(); ++i) {
    TaskOutcome& outcome = outcomes[i];
    for (const PendingWrite& write : state_.loaded_writes()) {
      if (write.task_id != tasks[i].id || SpecialWriteIndex(write.channel)) {
        continue;
      }
      outcome.kind = TaskOutcome::Kind::kDone;
      outcome.restored = true;
      if (write.channel == kNoWritesChannel) continue;
      RP_ASSIGN_OR_RETURN(
          Value value,
          DecodeTyped(write.value, "stored write of task " + write.task_id));
      outcome.writes.emplace_back(write.channel, std::move(value));
    }
  }
  return Status::OK();
}

Awaitable<void> Loop::RunStep(const std::vector<Task>& tasks,
                              std::vector<TaskOutcome>& outcomes) {
  auto input = std::make_shared<const State>(state_.UserState());
  WaitGroup group;
  size_t to_run = 0;
  for (const TaskOutcome& outcome : outcomes) {
    if (outcome.kind == TaskOutcome::Kind::kPending) ++to_run;
  }
  group.Add(to_run);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (outcomes[i].kind != TaskOutcome::Kind::kPending) continue;
    TaskOutcome& outcome = outcomes[i];
    boost::asio::co_spawn(env_.tasks, RunTask(tasks[i], input, outcome),
                          [&group, &outcome](std::exception_ptr error) {
                            if (error) {
                              outcome.kind = TaskOutcome::Kind::kError;
                              outcome.error = "task threw: " + Describe(error);
                            }
                            group.Done();
                          });
  }
  co_await group.Wait();
}

Awaitable<void> Loop::RunTask(const Task& task,
                              std::shared_ptr<const State> input,
                              TaskOutcome& outcome) {
  const NodeSpec& node = *spec_.FindNode(task.node);
  if (node.subgraph) {
    co_await RunSubgraphTask(task, *input, outcome);
  } else {
    RunNodeTask(state_, task, *input, outcome);
  }
  outcome.storage = co_await persistence_->OnTaskWrites(task, outcome);
}

Awaitable<void> Loop::RunSubgraphTask(const Task& task, const State& input,
                                      TaskOutcome& outcome) {
  const NodeSpec& node = *spec_.FindNode(task.node);
  const GraphSpec& child = *node.subgraph;
  LoopRequest request;
  request.thread_id = request_.thread_id;
  request.ns = (state_.ns().empty() ? "" : state_.ns() + "|") + task.node +
               ":" + task.id;
  request.run_id = request_.run_id;
  request.recursion_limit = request_.recursion_limit;
  request.parents = request_.parents;
  request.parents[state_.ns()] = Value(state_.checkpoint_id());
  request.subgraph = true;
  // What the namespace stores belongs to the history being replayed.
  request.fresh = persistence_->replaying();
  State child_input;
  for (const auto& [key, value] : task.pull ? input : task.arg) {
    if (child.IsUserChannel(key)) child_input.emplace(key, value);
  }
  request.input = RunInput::Values(std::move(child_input));
  request.input.command.resume_by_id = outcome.child_resume;

  Result<RunOutcome> result = co_await RunLoop(child, env_, std::move(request));
  if (!result.ok()) {
    outcome.kind = TaskOutcome::Kind::kError;
    outcome.error = "subgraph: " + result.status().ToString();
    co_return;
  }
  if (!result->interrupts.empty()) {
    outcome.kind = TaskOutcome::Kind::kInterrupted;
    for (const Interrupt& interrupt : result->interrupts) {
      outcome.interrupts.push_back(InterruptRecord(interrupt));
    }
    co_return;
  }
  NodeUpdate update;
  for (const auto& [key, value] : result->values) {
    if (spec_.IsUserChannel(key)) update.Write(key, value);
  }
  std::vector<std::pair<std::string, Value>> writes;
  Status status;
  try {
    status = AppendNodeWrites(state_, node, std::move(update), writes);
  } catch (const std::exception& e) {
    status = Status::InvalidArgument(std::string("router threw: ") + e.what());
  }
  if (!status.ok()) {
    outcome.kind = TaskOutcome::Kind::kError;
    outcome.error = status.message();
    co_return;
  }
  outcome.kind = TaskOutcome::Kind::kDone;
  outcome.writes = std::move(writes);
}

}  // namespace rockpoint::runtime
