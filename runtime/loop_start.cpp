// How a Loop starts: restoring the checkpoint, then new input (an "input"
// checkpoint) or a resume (answers to interrupts, Command update/goto).
#include <utility>

#include "runtime/async_util.h"
#include "runtime/ids.h"
#include "runtime/loop_impl.h"

namespace rockpoint::runtime {

Awaitable<Status> Loop::Start() {
  if (env_.storage != nullptr && !request_.fresh) {
    RP_CO_ASSIGN_OR_RETURN(
        bool found,
        co_await state_.Load(*env_.storage, request_.checkpoint_id));
    if (request_.checkpoint_id && !found) {
      co_return Status::NotFound(
          "checkpoint '" + *request_.checkpoint_id + "' not found in thread '" +
          request_.thread_id + "' namespace '" + request_.ns + "'");
    }
  }
  replaying_ = request_.checkpoint_id.has_value();
  RunInput::Kind kind = request_.input.kind;
  if (request_.subgraph && state_.has_checkpoint()) {
    // The parent reruns this subgraph task: continue where it stopped.
    kind = request_.input.command.resume_by_id.empty()
               ? RunInput::Kind::kContinue
               : RunInput::Kind::kCommand;
  }
  switch (kind) {
    case RunInput::Kind::kValues:
      co_return co_await StartWithInput(request_.input.values);
    case RunInput::Kind::kCommand:
    case RunInput::Kind::kContinue:
      if (env_.storage == nullptr) {
        co_return Status::InvalidArgument(
            "resuming needs a graph compiled with a checkpointer");
      }
      if (!state_.has_checkpoint()) {
        co_return Status::InvalidArgument("thread '" + request_.thread_id +
                                          "' has no checkpoint to resume");
      }
      co_return co_await Resume(
          kind == RunInput::Kind::kCommand ? &request_.input.command : nullptr);
  }
  co_return Status::InvalidArgument("unknown input kind");
}

Awaitable<Status> Loop::StartWithInput(const State& values) {
  for (const auto& [key, unused] : values) {
    if (!spec_.IsUserChannel(key)) {
      co_return Status::InvalidArgument("input key '" + key +
                                        "' is not a channel of the graph");
    }
  }
  std::vector<TaskWrites> writes;
  if (state_.has_checkpoint()) {
    // New input supersedes what was pending at the checkpoint: those tasks
    // are marked seen and their stored writes are not applied.
    RP_CO_ASSIGN_OR_RETURN(std::vector<Task> discarded, PrepareTasks(state_));
    for (const Task& task : discarded) {
      writes.push_back(TaskWrites{
          task.path, task.id, task.pull ? task.node : "", task.triggers, {}});
    }
    state_.MarkWritesNotStored();
  }
  writes.push_back(
      TaskWrites{"", "input", "", {}, {{std::string(kStart), Value(values)}}});
  RP_CO_RETURN_IF_ERROR(state_.Apply(std::move(writes), /*end_of_step=*/true));
  state_.BeginCheckpoint("input", state_.step() + 1, RunMetadata());
  co_return co_await SaveCheckpoint();
}

Status Loop::CollectCommandWrites(
    const Command& command, std::vector<std::pair<std::string, Value>>& out) {
  for (const auto& [key, value] : command.update) {
    if (!spec_.IsUserChannel(key)) {
      return Status::InvalidArgument("Command.update key '" + key +
                                     "' is not a channel of the graph");
    }
    out.emplace_back(key, value);
  }
  auto check_node = [&](const std::string& node) {
    if (node != kStart && spec_.FindNode(node) != nullptr) return Status::OK();
    return Status::InvalidArgument("Command.goto: unknown node '" + node + "'");
  };
  for (const std::string& node : command.goto_nodes) {
    if (node == kEnd) continue;
    RP_RETURN_IF_ERROR(check_node(node));
    out.emplace_back(TriggerChannel(node), Value());
  }
  for (const Send& send : command.goto_sends) {
    RP_RETURN_IF_ERROR(check_node(send.node));
    out.emplace_back(std::string(kTasksChannel), SendValue(send));
  }
  return Status::OK();
}

namespace {

// What the stored writes of one task at the checkpoint say.
struct StoredTask {
  std::string path;
  bool finished = false;      // it stored regular writes.
  Value::Array interrupts;    // its __interrupt__ records.
  std::vector<Value> resume;  // its __resume__ answers.
};

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

}  // namespace

Awaitable<Status> Loop::Resume(const Command* command) {
  resuming_ = !replaying_;
  std::map<std::string, StoredTask> stored;
  std::vector<
      std::pair<std::string, std::vector<std::pair<std::string, Value>>>>
      command_writes;  // earlier Commands' writes, in stored order.
  for (const PendingWrite& write : state_.loaded_writes()) {
    if (write.task_path == kCommandTaskPath) {
      if (command_writes.empty() ||
          command_writes.back().first != write.task_id) {
        command_writes.emplace_back(
            write.task_id, std::vector<std::pair<std::string, Value>>{});
      }
      RP_CO_ASSIGN_OR_RETURN(
          Value value,
          DecodeTyped(write.value, "Command write " + write.task_id));
      command_writes.back().second.emplace_back(write.channel,
                                                std::move(value));
      continue;
    }
    StoredTask& task = stored[write.task_id];
    task.path = write.task_path;
    if (write.channel == kInterruptChannel) {
      RP_CO_ASSIGN_OR_RETURN(task.interrupts, DecodeArray(write));
    } else if (write.channel == kResumeChannel) {
      RP_CO_ASSIGN_OR_RETURN(Value::Array answers, DecodeArray(write));
      task.resume.assign(answers.begin(), answers.end());
    } else if (!SpecialWriteIndex(write.channel)) {
      task.finished = true;
    }
  }
  for (const auto& [task_id, task] : stored) {
    if (!task.resume.empty()) resume_[task_id] = task.resume;
  }

  if (command != nullptr) {
    // Interrupts still pending: of tasks that did not finish.
    std::vector<std::pair<std::string, Interrupt>> pending;  // owner task.
    for (const auto& [task_id, task] : stored) {
      if (task.finished) continue;
      for (const Value& record : task.interrupts) {
        pending.emplace_back(task_id, InterruptFromRecord(record));
      }
    }
    std::map<std::string, Value> answers = command->resume_by_id;
    if (command->resume) {
      if (pending.size() != 1) {
        co_return Status::InvalidArgument(
            pending.empty()
                ? "Command.resume: no interrupt is pending at checkpoint " +
                      state_.checkpoint_id()
                : "Command.resume: " + std::to_string(pending.size()) +
                      " interrupts are pending; answer each with resume_by_id");
      }
      answers[pending.front().second.id] = *command->resume;
    }
    for (const auto& [interrupt_id, answer] : answers) {
      const std::pair<std::string, Interrupt>* found = nullptr;
      for (const auto& entry : pending) {
        if (entry.second.id == interrupt_id) found = &entry;
      }
      if (found == nullptr) {
        co_return Status::InvalidArgument(
            "Command.resume_by_id: no pending interrupt has id '" +
            interrupt_id + "'");
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
      RP_CO_RETURN_IF_ERROR(
          co_await StoreWrites(owner, stored[owner].path, std::move(write)));
    }

    std::vector<std::pair<std::string, Value>> writes;
    RP_CO_RETURN_IF_ERROR(CollectCommandWrites(*command, writes));
    if (!writes.empty()) {
      std::string task_id = CommandTaskId();
      std::vector<ChannelWrite> encoded;
      for (const auto& [channel, value] : writes) {
        encoded.push_back(ChannelWrite{channel, EncodeTyped(value)});
      }
      if (!WritesSkipped() && durability() != Durability::kExit) {
        state_.NoteStoredWrites(encoded);
      }
      std::string path(kCommandTaskPath);
      RP_CO_RETURN_IF_ERROR(
          co_await StoreWrites(task_id, std::move(path), std::move(encoded)));
      command_writes.emplace_back(task_id, std::move(writes));
    }
  }
  // Command writes act before the pending tasks run, one Command at a time.
  for (auto& [task_id, writes] : command_writes) {
    std::vector<TaskWrites> batch{TaskWrites{
        std::string(kCommandTaskPath), task_id, "", {}, std::move(writes)}};
    RP_CO_RETURN_IF_ERROR(
        state_.Apply(std::move(batch), /*end_of_step=*/false));
  }
  if (WritesSkipped() && !command_writes.empty()) state_.MarkWritesNotStored();
  co_return Status::OK();
}

}  // namespace rockpoint::runtime
