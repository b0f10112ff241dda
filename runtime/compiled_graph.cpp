// CompiledGraph: pools, runs and shutdown.
#include "rockpoint/runtime/compiled_graph.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "runtime/compiled_graph_impl.h"
#include "runtime/ids.h"
#include "runtime/loop.h"

namespace rockpoint::runtime {

namespace {

size_t TaskThreads(size_t requested) {
  if (requested != 0) return requested;
  return std::max<size_t>(2, std::thread::hardware_concurrency());
}

}  // namespace

CompiledGraph::Impl::Impl(const CompileOptions& options)
    : options(options), tasks(TaskThreads(options.task_threads)) {
  if (options.checkpointer != nullptr) {
    storage = std::make_unique<AsyncCheckpointer>(options.checkpointer,
                                                  options.storage_threads);
  }
}

CompiledGraph::Impl::Activity::Activity(Impl* impl) : impl_(impl) {
  base::MutexLock lock(&impl_->mu);
  admitted_ = !impl_->stopping.load();
  if (admitted_) ++impl_->active;
}

CompiledGraph::Impl::Activity::~Activity() {
  if (!admitted_) return;
  base::MutexLock lock(&impl_->mu);
  if (--impl_->active == 0) impl_->idle.SignalAll();
}

Result<std::unique_ptr<CompiledGraph>> StateGraph::Compile(
    CompileOptions options) const {
  RP_ASSIGN_OR_RETURN(std::shared_ptr<const GraphSpec> spec, BuildSpec());
  if (options.async_queue_capacity == 0) {
    return Status::InvalidArgument("async_queue_capacity must be >= 1");
  }
  return std::make_unique<CompiledGraph>(std::move(spec), options);
}

CompiledGraph::CompiledGraph(std::shared_ptr<const GraphSpec> spec,
                             CompileOptions options)
    : spec_(std::move(spec)), impl_(std::make_unique<Impl>(options)) {}

CompiledGraph::~CompiledGraph() {
  Status stopped = Shutdown();
  if (!stopped.ok()) impl_->tasks.stop();  // abandon what did not stop.
  impl_->tasks.join();
}

Status CompiledGraph::Shutdown() {
  impl_->stopping.store(true);
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::milliseconds(impl_->options.shutdown_timeout_ms);
  base::MutexLock lock(&impl_->mu);
  while (impl_->active != 0 && impl_->idle.WaitUntil(&impl_->mu, deadline)) {
  }
  if (impl_->active != 0) {
    return Status::Aborted(std::to_string(impl_->active) +
                           " runs did not stop within the shutdown timeout");
  }
  return Status::OK();
}

bool CompiledGraph::shutting_down() const { return impl_->stopping.load(); }

Executor CompiledGraph::executor() { return impl_->tasks.get_executor(); }

Awaitable<Result<RunOutcome>> CompiledGraph::Run(RunInput input,
                                                 RunConfig config) {
  Impl::Activity activity(impl_.get());
  if (!activity.admitted()) {
    co_return Status::Aborted("the graph is shutting down");
  }
  if (impl_->storage != nullptr && !config.thread_id) {
    co_return Status::InvalidArgument(
        "config.thread_id is missing (required with a checkpointer)");
  }
  if (!config.checkpoint_ns.empty()) {
    co_return Status::InvalidArgument(
        "config.checkpoint_ns must be empty for a run (runs start at the "
        "root graph)");
  }
  if (config.recursion_limit < 1) {
    co_return Status::InvalidArgument("config.recursion_limit must be >= 1");
  }
  RunEnv env;
  env.storage = impl_->storage.get();
  if (env.storage != nullptr) {
    env.writer =
        OrderedWriter::Create(env.storage, impl_->options.async_queue_capacity);
  }
  env.tasks = impl_->tasks.get_executor();
  env.durability = config.durability.value_or(impl_->options.durability);
  env.stopping = &impl_->stopping;

  LoopRequest request;
  request.thread_id = config.thread_id.value_or("");
  request.checkpoint_id = config.checkpoint_id;
  request.run_id = config.run_id.empty() ? NewRunId() : config.run_id;
  request.recursion_limit = config.recursion_limit;
  request.input = std::move(input);

  Result<RunOutcome> result = co_await RunLoop(*spec_, env, std::move(request));
  if (env.writer != nullptr) {
    // Whatever the outcome, everything queued reaches storage before the
    // run returns; a storage error wins over a success.
    Status flushed = co_await env.writer->Flush();
    if (result.ok() && !flushed.ok()) co_return flushed;
  }
  co_return result;
}

Result<RunOutcome> CompiledGraph::Invoke(const State& input,
                                         const RunConfig& config) {
  return impl_->Block(Run(RunInput::Values(input), config));
}

Result<RunOutcome> CompiledGraph::Resume(const Command& command,
                                         const RunConfig& config) {
  return impl_->Block(Run(RunInput::Resume(command), config));
}

Result<RunOutcome> CompiledGraph::Continue(const RunConfig& config) {
  return impl_->Block(Run(RunInput::Continue(), config));
}

Result<const GraphSpec*> ResolveSpec(const GraphSpec& root,
                                     std::string_view ns) {
  const GraphSpec* spec = &root;
  if (ns.empty()) return spec;
  size_t begin = 0;
  while (begin <= ns.size()) {
    size_t end = ns.find('|', begin);
    if (end == std::string_view::npos) end = ns.size();
    std::string_view segment = ns.substr(begin, end - begin);
    std::string_view node = segment.substr(0, segment.find(':'));
    const NodeSpec* found = spec->FindNode(node);
    if (found == nullptr || !found->subgraph) {
      return Status::InvalidArgument("checkpoint_ns '" + std::string(ns) +
                                     "': '" + std::string(node) +
                                     "' is not a subgraph node");
    }
    spec = found->subgraph.get();
    begin = end + 1;
  }
  return spec;
}

}  // namespace rockpoint::runtime
