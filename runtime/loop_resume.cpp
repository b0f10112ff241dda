// How a Loop resumes at a stored checkpoint: reading what its stored writes
// say (finished tasks, pending interrupts, earlier answers and Commands),
// answering interrupts, and applying Command writes before the pending
// tasks run.

// clang-format off
#include "rockpoint/runtime/asio.h"  // before any Asio header
// clang-format on

#include <utility>

#include "runtime/async_util.h"
#include "runtime/ids.h"
#include "runtime/loop_impl.h"

namespace rockpoint::runtime {

namespace {

// The writes stored at a checkpoint: those of tasks by task id, and those
// of Commands.
struct StoredWritesByTask {
  std::map<std::string, StoredTask> tasks;
  CommandWrites commands;
};

// An interrupt still pending, with its owner task id.
using OwnedInterrupt = std::pair<std::string, Interrupt>;

Result<Value::Array> DecodeArray(const PendingWrite& write) {
  RP_ASSIGN_OR_RETURN(
      Value value,
      DecodeTyped(write.value, std::string(write.channel) + " write of task " +
                                   write.task_id));
  if (!value.is_array()) {
    return Status::Corruption(write.channel + " write of task " +
                              write.task_id + " is not an array");
  }
  return value.as_array();
}

Status ReadCommandWrite(const PendingWrite& write, CommandWrites& commands) {
  if (commands.empty() || commands.back().first != write.task_id) {
    commands.emplace_back(write.task_id,
                          std::vector<std::pair<std::string, Value>>{});
  }
  RP_ASSIGN_OR_RETURN(
      Value value, DecodeTyped(write.value, "Command write " + write.task_id));
  commands.back().second.emplace_back(write.channel, std::move(value));
  return Status::OK();
}

Status ReadTaskWrite(const PendingWrite& write, StoredTask& task) {
  task.path = write.task_path;
  if (write.channel == kInterruptChannel) {
    RP_ASSIGN_OR_RETURN(task.interrupts, DecodeArray(write));
  } else if (write.channel == kResumeChannel) {
    RP_ASSIGN_OR_RETURN(Value::Array answers, DecodeArray(write));
    task.resume.assign(answers.begin(), answers.end());
  } else if (!SpecialWriteIndex(write.channel)) {
    task.finished = true;
  }
  return Status::OK();
}

Result<StoredWritesByTask> ReadStoredWrites(
    const std::vector<PendingWrite>& writes) {
  StoredWritesByTask stored;
  for (const PendingWrite& write : writes) {
    if (write.task_path == kCommandTaskPath) {
      RP_RETURN_IF_ERROR(ReadCommandWrite(write, stored.commands));
    } else {
      RP_RETURN_IF_ERROR(ReadTaskWrite(write, stored.tasks[write.task_id]));
    }
  }
  return stored;
}

// Interrupts of tasks that did not finish.
std::vector<OwnedInterrupt> PendingInterrupts(
    const std::map<std::string, StoredTask>& tasks) {
  std::vector<OwnedInterrupt> pending;
  for (const auto& [task_id, task] : tasks) {
    if (task.finished) continue;
    for (const Value& record : task.interrupts) {
      pending.emplace_back(task_id, InterruptFromRecord(record));
    }
  }
  return pending;
}

// The answers of `command` by interrupt id (Command::resume answers the one
// pending interrupt).
Result<std::map<std::string, Value>> AnswersById(
    const Command& command, const std::vector<OwnedInterrupt>& pending,
    const std::string& checkpoint_id) {
  std::map<std::string, Value> answers = command.resume_by_id;
  if (!command.resume) return answers;
  if (pending.size() != 1) {
    return Status::InvalidArgument(
        pending.empty()
            ? "Command.resume: no interrupt is pending at checkpoint " +
                  checkpoint_id
            : "Command.resume: " + std::to_string(pending.size()) +
                  " interrupts are pending; answer each with resume_by_id");
  }
  answers[pending.front().second.id] = *command.resume;
  return answers;
}

// The last of `pending` with `interrupt_id`, nullptr if none.
const OwnedInterrupt* FindPending(const std::vector<OwnedInterrupt>& pending,
                                  const std::string& interrupt_id) {
  const OwnedInterrupt* found = nullptr;
  for (const OwnedInterrupt& entry : pending) {
    if (entry.second.id == interrupt_id) found = &entry;
  }
  return found;
}

}  // namespace

Awaitable<Status> Loop::Resume(const Command* command) {
  // A replay reruns its first superstep in full.
  resuming_ = !request_.checkpoint_id.has_value();
  RP_CO_ASSIGN_OR_RETURN(StoredWritesByTask stored,
                         ReadStoredWrites(state_.loaded_writes()));
  for (const auto& [task_id, task] : stored.tasks) {
    if (!task.resume.empty()) resume_[task_id] = task.resume;
  }
  if (command != nullptr) {
    RP_CO_RETURN_IF_ERROR(co_await AnswerInterrupts(*command, stored.tasks));
    RP_CO_RETURN_IF_ERROR(
        co_await StoreCommandWrites(*command, stored.commands));
  }
  co_return ApplyCommandWrites(std::move(stored.commands));
}

Awaitable<Status> Loop::AnswerInterrupts(
    const Command& command, const std::map<std::string, StoredTask>& tasks) {
  std::vector<OwnedInterrupt> pending = PendingInterrupts(tasks);
  RP_CO_ASSIGN_OR_RETURN(auto answers,
                         AnswersById(command, pending, state_.checkpoint_id()));
  for (const auto& [interrupt_id, answer] : answers) {
    const OwnedInterrupt* found = FindPending(pending, interrupt_id);
    if (found == nullptr) {
      co_return Status::InvalidArgument(
          "Command.resume_by_id: no pending interrupt has id '" + interrupt_id +
          "'");
    }
    const std::string& owner = found->first;
    if (found->second.checkpoint_ns != state_.ns()) {
      child_resume_[owner][interrupt_id] = answer;  // a subgraph's.
      continue;
    }
    std::vector<Value>& answered = resume_[owner];
    answered.push_back(answer);
    std::vector<ChannelWrite> write{ChannelWrite{
        std::string(kResumeChannel),
        EncodeTyped(Value(Value::Array(answered.begin(), answered.end())))}};
    std::string task_id = owner;
    std::string path = tasks.at(owner).path;
    RP_CO_RETURN_IF_ERROR(co_await persistence_->OnResumeWrites(
        std::move(task_id), std::move(path), std::move(write)));
  }
  co_return Status::OK();
}

Awaitable<Status> Loop::StoreCommandWrites(const Command& command,
                                           CommandWrites& commands) {
  std::vector<std::pair<std::string, Value>> writes;
  RP_CO_RETURN_IF_ERROR(CollectCommandWrites(command, writes));
  if (writes.empty()) co_return Status::OK();
  std::string task_id = CommandTaskId();
  std::vector<ChannelWrite> encoded;
  for (const auto& [channel, value] : writes) {
    encoded.push_back(ChannelWrite{channel, EncodeTyped(value)});
  }
  std::string stored_id = task_id;
  std::string path(kCommandTaskPath);
  RP_CO_RETURN_IF_ERROR(co_await persistence_->OnResumeWrites(
      std::move(stored_id), std::move(path), std::move(encoded)));
  commands.emplace_back(std::move(task_id), std::move(writes));
  co_return Status::OK();
}

Status Loop::ApplyCommandWrites(CommandWrites commands) {
  // Command writes act before the pending tasks run, one Command at a time.
  for (auto& [task_id, writes] : commands) {
    std::vector<TaskWrites> batch{TaskWrites{
        std::string(kCommandTaskPath), task_id, "", {}, std::move(writes)}};
    RP_RETURN_IF_ERROR(state_.Apply(std::move(batch), /*end_of_step=*/false));
  }
  return Status::OK();
}

}  // namespace rockpoint::runtime
