#include "runtime/tasks.h"

#include <algorithm>
#include <exception>
#include <tuple>
#include <utility>

#include "runtime/ids.h"

namespace rockpoint::runtime {

Result<std::vector<Task>> PrepareTasks(const LoopState& state) {
  const GraphSpec& spec = state.spec();
  int64_t step = state.step() + 1;
  std::vector<Task> tasks;

  const ChannelState& sends = state.channels().find(kTasksChannel)->second;
  if (sends.has_value() && sends.value().is_array()) {
    const Value::Array& packets = sends.value().as_array();
    for (size_t i = 0; i < packets.size(); ++i) {
      const Value* node = packets[i].Find("node");
      const Value* arg = packets[i].Find("arg");
      if (node == nullptr || !node->is_string() || arg == nullptr ||
          !arg->is_map()) {
        return Status::Corruption("malformed Send #" + std::to_string(i) +
                                  " in __pregel_tasks of checkpoint " +
                                  state.checkpoint_id());
      }
      if (spec.FindNode(node->as_string()) == nullptr) {
        return Status::InvalidArgument("Send to unknown node '" +
                                       node->as_string() + "'");
      }
      Task task;
      task.node = node->as_string();
      task.path = PushTaskPath(i);
      task.pull = false;
      task.arg = arg->as_map();
      task.id =
          TaskId(state.checkpoint_id(), state.ns(), step, task.node, task.path);
      tasks.push_back(std::move(task));
    }
  }

  for (const auto& [name, node] : spec.nodes) {
    std::string trigger = TriggerChannel(name);
    auto channel = state.channels().find(trigger);
    if (channel == state.channels().end() || !channel->second.has_value()) {
      continue;
    }
    auto version = state.versions().find(trigger);
    if (version == state.versions().end()) continue;
    auto seen_node = state.versions_seen().find(name);
    if (seen_node != state.versions_seen().end()) {
      auto seen = seen_node->second.find(trigger);
      if (seen != seen_node->second.end() &&
          !VersionLess(seen->second, version->second)) {
        continue;
      }
    }
    Task task;
    task.node = name;
    task.path = PullTaskPath(name);
    task.triggers = {trigger};
    task.id =
        TaskId(state.checkpoint_id(), state.ns(), step, task.node, task.path);
    tasks.push_back(std::move(task));
  }
  std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) {
    return std::tie(a.path, a.id) < std::tie(b.path, b.id);
  });
  return tasks;
}

Value SendValue(const Send& send) {
  return Value(
      Value::Map{{"node", Value(send.node)}, {"arg", Value(send.arg)}});
}

namespace {

Status CheckTarget(const GraphSpec& spec, const std::string& from,
                   const std::string& to) {
  if (to == kEnd || (to != kStart && spec.FindNode(to) != nullptr)) {
    return Status::OK();
  }
  return Status::InvalidArgument("node '" + from +
                                 "' routed to unknown node '" + to + "'");
}

// `state`'s user values with `writes` applied through the reducers.
Result<State> FreshState(
    const LoopState& state,
    const std::vector<std::pair<std::string, Value>>& writes) {
  std::map<std::string, std::vector<Value>> grouped;
  for (const auto& [channel, value] : writes) {
    if (state.spec().IsUserChannel(channel)) grouped[channel].push_back(value);
  }
  State fresh = state.UserState();
  for (const auto& [channel, values] : grouped) {
    ChannelState copy = state.channels().at(channel);
    RP_ASSIGN_OR_RETURN(bool changed, copy.Update(channel, values));
    if (changed && copy.has_value()) fresh[channel] = copy.value();
  }
  return fresh;
}

void AddRoute(const std::string& target,
              std::vector<std::pair<std::string, Value>>& out) {
  if (target != kEnd) out.emplace_back(TriggerChannel(target), Value());
}

// A write is stored as its value's msgpack, which does not read back
// nested deeper than kMaxDepth (value.h): refused before anything is.
Status CheckWriteNesting(const NodeSpec& node, const std::string& channel,
                         const Value& value) {
  if (serde::NestingDepth(value) <= serde::kMaxDepth) return Status::OK();
  return Status::InvalidArgument("node '" + node.name + "' wrote to '" +
                                 channel + "' a value nesting deeper than " +
                                 std::to_string(serde::kMaxDepth) +
                                 " maps and arrays");
}

}  // namespace

Status AppendNodeWrites(const LoopState& state, const NodeSpec& node,
                        NodeUpdate update,
                        std::vector<std::pair<std::string, Value>>& out) {
  const GraphSpec& spec = state.spec();
  size_t first = out.size();
  for (auto& [channel, value] : update.writes) {
    if (!spec.IsUserChannel(channel)) {
      return Status::InvalidArgument("node '" + node.name + "' wrote '" +
                                     channel + "', which is not a channel");
    }
    RP_RETURN_IF_ERROR(CheckWriteNesting(node, channel, value));
    out.emplace_back(std::move(channel), std::move(value));
  }
  for (const std::string& target : update.goto_nodes) {
    RP_RETURN_IF_ERROR(CheckTarget(spec, node.name, target));
    AddRoute(target, out);
  }
  for (const Send& send : update.sends) {
    RP_RETURN_IF_ERROR(CheckTarget(spec, node.name, send.node));
    Value packet = SendValue(send);
    RP_RETURN_IF_ERROR(CheckWriteNesting(node, "Send to " + send.node, packet));
    out.emplace_back(std::string(kTasksChannel), std::move(packet));
  }
  for (const std::string& target : node.edges) AddRoute(target, out);
  if (!node.branches.empty()) {
    std::vector<std::pair<std::string, Value>> own(out.begin() + first,
                                                   out.end());
    RP_ASSIGN_OR_RETURN(State fresh, FreshState(state, own));
    for (const BranchSpec& branch : node.branches) {
      Route route = branch.router(fresh);
      for (const std::string& target : route.nodes) {
        RP_RETURN_IF_ERROR(CheckTarget(spec, node.name, target));
        if (!branch.targets.empty() &&
            std::find(branch.targets.begin(), branch.targets.end(), target) ==
                branch.targets.end()) {
          return Status::InvalidArgument("router of '" + node.name +
                                         "' returned '" + target +
                                         "', not among its declared targets");
        }
        AddRoute(target, out);
      }
      for (const Send& send : route.sends) {
        RP_RETURN_IF_ERROR(CheckTarget(spec, node.name, send.node));
        out.emplace_back(std::string(kTasksChannel), SendValue(send));
      }
    }
  }
  return Status::OK();
}

void RunNodeTask(const LoopState& state, const Task& task, const State& input,
                 TaskOutcome& outcome) {
  const NodeSpec& node = *state.spec().FindNode(task.node);
  NodeContext ctx(task.node, task.id, state.step() + 1, state.thread_id(),
                  state.ns(), outcome.resume);
  try {
    NodeUpdate update;
    if (task.node == kStart) {
      // The built-in entry node: the run input becomes state writes.
      const ChannelState& start = state.channels().find(kStart)->second;
      if (start.has_value() && start.value().is_map()) {
        update = NodeUpdate(start.value().as_map());
      }
    } else {
      update = node.fn(task.pull ? input : task.arg, ctx);
    }
    std::vector<std::pair<std::string, Value>> writes;
    Status status = AppendNodeWrites(state, node, std::move(update), writes);
    if (!status.ok()) {
      outcome.kind = TaskOutcome::Kind::kError;
      outcome.error = status.message();
      return;
    }
    outcome.kind = TaskOutcome::Kind::kDone;
    outcome.writes = std::move(writes);
  } catch (InterruptSignal& signal) {
    // Stored inside its record, inside the __interrupt__ write's list.
    constexpr int kMaxInterruptDepth = serde::kMaxDepth - 2;
    if (serde::NestingDepth(signal.value, kMaxInterruptDepth) >
        kMaxInterruptDepth) {
      outcome.kind = TaskOutcome::Kind::kError;
      outcome.error = "node '" + task.node +
                      "' interrupted with a value nesting deeper than " +
                      std::to_string(kMaxInterruptDepth) + " maps and arrays";
      return;
    }
    outcome.kind = TaskOutcome::Kind::kInterrupted;
    outcome.interrupts = {InterruptRecord(
        Interrupt{task.id, std::move(signal.value), task.node, state.ns()})};
  } catch (const std::exception& e) {
    outcome.kind = TaskOutcome::Kind::kError;
    outcome.error = e.what();
  } catch (...) {
    outcome.kind = TaskOutcome::Kind::kError;
    outcome.error = "unknown exception";
  }
}

std::vector<ChannelWrite> StoredWrites(const TaskOutcome& outcome) {
  std::vector<ChannelWrite> stored;
  switch (outcome.kind) {
    case TaskOutcome::Kind::kDone:
      for (const auto& [channel, value] : outcome.writes) {
        stored.push_back(ChannelWrite{channel, EncodeTyped(value)});
      }
      if (stored.empty()) {
        stored.push_back(
            ChannelWrite{std::string(kNoWritesChannel), EncodeTyped(Value())});
      }
      break;
    case TaskOutcome::Kind::kError:
      stored.push_back(ChannelWrite{
          std::string(kErrorChannel),
          EncodeTyped(Value(Value::Map{{"message", Value(outcome.error)}}))});
      break;
    case TaskOutcome::Kind::kInterrupted:
      stored.push_back(ChannelWrite{std::string(kInterruptChannel),
                                    EncodeTyped(Value(outcome.interrupts))});
      break;
    case TaskOutcome::Kind::kPending:
      break;
  }
  return stored;
}

Value InterruptRecord(const Interrupt& interrupt) {
  return Value(Value::Map{{"id", Value(interrupt.id)},
                          {"value", interrupt.value},
                          {"node", Value(interrupt.node)},
                          {"ns", Value(interrupt.checkpoint_ns)}});
}

Interrupt InterruptFromRecord(const Value& record) {
  Interrupt interrupt;
  auto text = [&](std::string_view key) {
    const Value* v = record.Find(key);
    return v != nullptr && v->is_string() ? v->as_string() : std::string();
  };
  interrupt.id = text("id");
  interrupt.node = text("node");
  interrupt.checkpoint_ns = text("ns");
  if (const Value* value = record.Find("value")) interrupt.value = *value;
  return interrupt;
}

}  // namespace rockpoint::runtime
