// How a Loop starts: restoring the checkpoint, then new input (an "input"
// checkpoint) or a resume (loop_resume.cpp), and the writes of a Command.
#include <utility>

#include "runtime/async_util.h"
#include "runtime/ids.h"
#include "runtime/loop_impl.h"

namespace rockpoint::runtime {
namespace {

// Every value of `command` is stored, and must then nest at most kMaxDepth
// deep (value.h): updates as writes, answers in the list of their task's
// answers, Sends as {node, arg} packets. Checked before any of it is.
Status CheckCommandNesting(const Command& command) {
  constexpr int kMaxAnswerDepth = serde::kMaxDepth - 1;
  if (command.resume) {
    RP_RETURN_IF_ERROR(serde::CheckNesting(*command.resume, "Command.resume",
                                           kMaxAnswerDepth));
  }
  for (const auto& [id, answer] : command.resume_by_id) {
    RP_RETURN_IF_ERROR(serde::CheckNesting(
        answer, "Command.resume_by_id['" + id + "']", kMaxAnswerDepth));
  }
  for (const auto& [key, value] : command.update) {
    RP_RETURN_IF_ERROR(
        serde::CheckNesting(value, "Command.update['" + key + "']"));
  }
  for (const Send& send : command.goto_sends) {
    RP_RETURN_IF_ERROR(serde::CheckNesting(
        SendValue(send), "Command.goto Send to '" + send.node + "'"));
  }
  return Status::OK();
}

}  // namespace

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
  // A replay reruns from history: its first superstep stores nothing.
  persistence_->set_replaying(request_.checkpoint_id.has_value());
  RunInput::Kind kind = request_.input.kind;
  if (request_.subgraph && state_.has_checkpoint()) {
    // The parent reruns this subgraph task: continue where it stopped.
    kind = request_.input.command.resume_by_id.empty()
               ? RunInput::Kind::kContinue
               : RunInput::Kind::kCommand;
  }
  if (kind == RunInput::Kind::kCommand) {
    RP_CO_RETURN_IF_ERROR(CheckCommandNesting(request_.input.command));
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
  for (const auto& [key, value] : values) {
    if (!spec_.IsUserChannel(key)) {
      co_return Status::InvalidArgument("input key '" + key +
                                        "' is not a channel of the graph");
    }
    // START's value holds the input map: one level more.
    RP_CO_RETURN_IF_ERROR(serde::CheckNesting(
        value, "input value of '" + key + "'", serde::kMaxDepth - 1));
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
  co_return co_await persistence_->OnCheckpoint();
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

}  // namespace rockpoint::runtime
