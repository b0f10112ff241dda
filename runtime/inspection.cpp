// CompiledGraph inspection and time travel: get_state, get_state_history,
// update_state / bulk_update_state, fork_state.
#include <set>
#include <utility>

#include "runtime/async_util.h"
#include "runtime/compiled_graph_impl.h"
#include "runtime/ids.h"
#include "runtime/loop_state.h"
#include "runtime/tasks.h"

namespace rockpoint::runtime {

namespace {

Status CheckInspectable(const CompiledGraph::Impl::Activity& activity,
                        const AsyncCheckpointer* storage,
                        const RunConfig& config) {
  if (!activity.admitted()) {
    return Status::Aborted("the graph is shutting down");
  }
  if (storage == nullptr) {
    return Status::InvalidArgument(
        "state inspection needs a graph compiled with a checkpointer");
  }
  if (!config.thread_id)
    return Status::InvalidArgument("config.thread_id is missing");
  return Status::OK();
}

// The snapshot of a restored state: values, next tasks and what the stored
// writes say about them. Like LangGraph, `next` lists every task scheduled
// at the checkpoint, except that for the thread's current state
// (`current`) tasks whose writes are stored are left out: they will not run
// again.
Result<StateSnapshot> Snapshot(const LoopState& state, bool current) {
  StateSnapshot snapshot;
  snapshot.values = state.UserState();
  snapshot.config =
      CheckpointConfig{state.thread_id(), state.ns(), state.checkpoint_id()};
  snapshot.metadata = state.metadata();
  snapshot.created_at = state.ts();
  snapshot.parent_config = state.loaded_parent();
  RP_ASSIGN_OR_RETURN(std::vector<Task> tasks, PrepareTasks(state));
  for (const Task& task : tasks) {
    TaskInfo info;
    info.id = task.id;
    info.name = task.node;
    info.path = task.path;
    for (const PendingWrite& write : state.loaded_writes()) {
      if (write.task_id != task.id) continue;
      if (write.channel == kErrorChannel) {
        RP_ASSIGN_OR_RETURN(Value error,
                            DecodeTyped(write.value, "__error__ write"));
        const Value* message = error.Find("message");
        info.error = message != nullptr && message->is_string()
                         ? message->as_string()
                         : error.DebugString();
      } else if (write.channel == kInterruptChannel) {
        RP_ASSIGN_OR_RETURN(Value records,
                            DecodeTyped(write.value, "__interrupt__ write"));
        if (records.is_array()) {
          for (const Value& record : records.as_array()) {
            info.interrupts.push_back(InterruptFromRecord(record));
          }
        }
      } else if (!SpecialWriteIndex(write.channel)) {
        info.done = true;
      }
    }
    if (!current || !info.done) snapshot.next.push_back(task.node);
    if (!info.done) {
      snapshot.interrupts.insert(snapshot.interrupts.end(),
                                 info.interrupts.begin(),
                                 info.interrupts.end());
    }
    snapshot.tasks.push_back(std::move(info));
  }
  return snapshot;
}

// The node an update acts as when none is given: the one that ran last
// (START when none ran). InvalidArgument when several ran last.
Result<std::string> DefaultAsNode(const LoopState& state) {
  std::optional<ChannelVersion> latest;
  std::vector<std::string> nodes;
  for (const auto& [node, seen] : state.versions_seen()) {
    auto version = seen.find(TriggerChannel(node));
    if (version == seen.end()) continue;
    if (!latest || VersionLess(*latest, version->second)) {
      latest = version->second;
      nodes = {node};
    } else if (!VersionLess(version->second, *latest)) {
      nodes.push_back(node);
    }
  }
  if (nodes.empty()) return std::string(kStart);
  if (nodes.size() > 1) {
    std::string names;
    for (const std::string& node : nodes) {
      names += (names.empty() ? "" : ", ") + node;
    }
    return Status::InvalidArgument("ambiguous update: nodes " + names +
                                   " ran last; pass as_node");
  }
  return nodes.front();
}

// Metadata of an update or fork checkpoint: the base's parents, the run id
// if the caller gave one.
Value::Map DerivedMetadata(const LoopState& state, const RunConfig& config) {
  Value::Map extra;
  const Value* parents = state.metadata().Find("parents");
  extra["parents"] =
      parents != nullptr && parents->is_map() ? *parents : Value::MakeMap();
  if (!config.run_id.empty()) extra["run_id"] = Value(config.run_id);
  return extra;
}

}  // namespace

Awaitable<Result<StateSnapshot>> CompiledGraph::GetStateAsync(
    RunConfig config) {
  Impl::Activity activity(impl_.get());
  RP_CO_RETURN_IF_ERROR(
      CheckInspectable(activity, impl_->storage.get(), config));
  RP_CO_ASSIGN_OR_RETURN(const GraphSpec* spec,
                         ResolveSpec(*spec_, config.checkpoint_ns));
  LoopState state(spec, *config.thread_id, config.checkpoint_ns);
  RP_CO_ASSIGN_OR_RETURN(
      bool found, co_await state.Load(*impl_->storage, config.checkpoint_id));
  if (!found) {
    co_return Status::NotFound(config.checkpoint_id
                                   ? "checkpoint '" + *config.checkpoint_id +
                                         "' not found"
                                   : "thread '" + *config.thread_id +
                                         "' has no checkpoint in "
                                         "namespace '" +
                                         config.checkpoint_ns + "'");
  }
  co_return Snapshot(state, /*current=*/!config.checkpoint_id.has_value());
}

Awaitable<Result<std::vector<StateSnapshot>>>
CompiledGraph::GetStateHistoryAsync(RunConfig config, HistoryOptions options) {
  Impl::Activity activity(impl_.get());
  RP_CO_RETURN_IF_ERROR(
      CheckInspectable(activity, impl_->storage.get(), config));
  RP_CO_ASSIGN_OR_RETURN(const GraphSpec* spec,
                         ResolveSpec(*spec_, config.checkpoint_ns));
  ListOptions list;
  list.config =
      CheckpointConfig{config.thread_id, config.checkpoint_ns, std::nullopt};
  list.filter = options.filter;
  if (options.before) {
    list.before = CheckpointConfig{config.thread_id, config.checkpoint_ns,
                                   options.before};
  }
  list.limit = options.limit;
  RP_CO_ASSIGN_OR_RETURN(std::vector<CheckpointTuple> tuples,
                         co_await impl_->storage->ListAll(list));
  std::vector<StateSnapshot> history;
  history.reserve(tuples.size());
  for (const CheckpointTuple& tuple : tuples) {
    LoopState state(spec, *config.thread_id, config.checkpoint_ns);
    RP_CO_RETURN_IF_ERROR(co_await state.Restore(*impl_->storage, tuple));
    RP_CO_ASSIGN_OR_RETURN(StateSnapshot snapshot,
                           Snapshot(state, /*current=*/false));
    history.push_back(std::move(snapshot));
  }
  co_return history;
}

Awaitable<Result<CheckpointConfig>> CompiledGraph::BulkUpdateStateAsync(
    RunConfig config, std::vector<std::vector<StateUpdate>> supersteps) {
  Impl::Activity activity(impl_.get());
  RP_CO_RETURN_IF_ERROR(
      CheckInspectable(activity, impl_->storage.get(), config));
  if (supersteps.empty()) {
    co_return Status::InvalidArgument("bulk update has no supersteps");
  }
  RP_CO_ASSIGN_OR_RETURN(const GraphSpec* spec,
                         ResolveSpec(*spec_, config.checkpoint_ns));
  LoopState state(spec, *config.thread_id, config.checkpoint_ns);
  RP_CO_ASSIGN_OR_RETURN(
      bool found, co_await state.Load(*impl_->storage, config.checkpoint_id));
  if (config.checkpoint_id && !found) {
    co_return Status::NotFound("checkpoint '" + *config.checkpoint_id +
                               "' not found");
  }
  CheckpointConfig last;
  for (size_t i = 0; i < supersteps.size(); ++i) {
    if (supersteps[i].empty()) {
      co_return Status::InvalidArgument("bulk update superstep " +
                                        std::to_string(i) + " is empty");
    }
    std::vector<TaskWrites> batch;
    std::set<std::string> acting;
    for (const StateUpdate& update : supersteps[i]) {
      std::string as_node;
      if (update.as_node) {
        as_node = *update.as_node;
      } else {
        RP_CO_ASSIGN_OR_RETURN(as_node, DefaultAsNode(state));
      }
      const NodeSpec* node = spec->FindNode(as_node);
      if (node == nullptr) {
        co_return Status::InvalidArgument("as_node '" + as_node +
                                          "' is not a node of the graph");
      }
      if (!acting.insert(as_node).second) {
        co_return Status::InvalidArgument(
            "two updates of one superstep act as node '" + as_node + "'");
      }
      for (const auto& [key, unused] : update.values) {
        if (!spec->IsUserChannel(key)) {
          co_return Status::InvalidArgument("update key '" + key +
                                            "' is not a channel of the graph");
        }
      }
      TaskWrites writes;
      writes.path = PullTaskPath(as_node);
      writes.id = TaskId(state.checkpoint_id(), state.ns(), state.step() + 1,
                         as_node, writes.path);
      writes.node = as_node;
      writes.triggers = {TriggerChannel(as_node)};
      Status appended;
      try {
        appended = AppendNodeWrites(state, *node, NodeUpdate(update.values),
                                    writes.writes);
      } catch (const std::exception& e) {
        appended =
            Status::InvalidArgument(std::string("router threw: ") + e.what());
      }
      RP_CO_RETURN_IF_ERROR(appended);
      batch.push_back(std::move(writes));
    }
    // The update's writes are not stored as pending writes of the base
    // (that would change what its existing children read): the update
    // checkpoint holds full values instead.
    state.MarkWritesNotStored();
    RP_CO_RETURN_IF_ERROR(state.Apply(std::move(batch), /*end_of_step=*/true));
    state.BeginCheckpoint("update", state.step() + 1,
                          DerivedMetadata(state, config));
    RP_CO_ASSIGN_OR_RETURN(PutRequest put, state.BuildPut());
    RP_CO_ASSIGN_OR_RETURN(
        last, co_await impl_->storage->Put(put.config, put.checkpoint,
                                           put.metadata, put.new_versions));
  }
  co_return last;
}

Awaitable<Result<CheckpointConfig>> CompiledGraph::ForkStateAsync(
    RunConfig config) {
  Impl::Activity activity(impl_.get());
  RP_CO_RETURN_IF_ERROR(
      CheckInspectable(activity, impl_->storage.get(), config));
  RP_CO_ASSIGN_OR_RETURN(const GraphSpec* spec,
                         ResolveSpec(*spec_, config.checkpoint_ns));
  LoopState state(spec, *config.thread_id, config.checkpoint_ns);
  RP_CO_ASSIGN_OR_RETURN(
      bool found, co_await state.Load(*impl_->storage, config.checkpoint_id));
  if (!found) co_return Status::NotFound("no checkpoint to fork");
  state.MarkWritesNotStored();
  state.BeginCheckpoint("fork", state.step() + 1,
                        DerivedMetadata(state, config));
  RP_CO_ASSIGN_OR_RETURN(PutRequest put, state.BuildPut());
  co_return co_await impl_->storage->Put(put.config, put.checkpoint,
                                         put.metadata, put.new_versions);
}

Result<StateSnapshot> CompiledGraph::GetState(const RunConfig& config) {
  return impl_->Block(GetStateAsync(config));
}

Result<std::vector<StateSnapshot>> CompiledGraph::GetStateHistory(
    const RunConfig& config, const HistoryOptions& options) {
  return impl_->Block(GetStateHistoryAsync(config, options));
}

Result<CheckpointConfig> CompiledGraph::UpdateState(
    const RunConfig& config, const State& values,
    std::optional<std::string> as_node) {
  std::vector<std::vector<StateUpdate>> supersteps{
      {StateUpdate{values, std::move(as_node)}}};
  return impl_->Block(BulkUpdateStateAsync(config, std::move(supersteps)));
}

Result<CheckpointConfig> CompiledGraph::BulkUpdateState(
    const RunConfig& config,
    const std::vector<std::vector<StateUpdate>>& supersteps) {
  return impl_->Block(BulkUpdateStateAsync(config, supersteps));
}

Result<CheckpointConfig> CompiledGraph::ForkState(const RunConfig& config) {
  return impl_->Block(ForkStateAsync(config));
}

}  // namespace rockpoint::runtime
