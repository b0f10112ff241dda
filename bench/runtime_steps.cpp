// Runtime supersteps per second per durability mode (RunRuntimeSection).
// Built with the runtime only when its target exists
// (ROCKPOINT_BENCH_RUNTIME); otherwise the section records why it did not
// run.
//
// The graph: one node "agent" looping on itself for `runtime_steps`
// supersteps; each step appends a message (message_bytes of text) to a
// delta channel "messages" (snapshot every 50) and bumps a last-value
// "count". Two node costs: none (the runtime's and storage's own cost) and
// a 1 ms sleep (a stand-in for a model or tool call), so that sync (node +
// persist), async (about max(node, persist)) and exit (node only, one
// persist at the end) can be told apart. Storage: rockpoint with sync_writes
// (every checkpoint fsynced).
#include "bench/operations.h"

#ifdef ROCKPOINT_BENCH_RUNTIME
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <utility>

#include "bench/sink_checkpointer.h"
#include "rockpoint/runtime/runtime.h"
#endif

namespace rockpoint::bench {

#ifndef ROCKPOINT_BENCH_RUNTIME
Status RunRuntimeSection(BenchContext& ctx) {
  ctx.not_done.push_back(
      "runtime steps per second per durability mode: this build has no "
      "runtime target");
  return Status::OK();
}
#else
namespace {

using runtime::Durability;

const char* DurabilityName(Durability durability) {
  switch (durability) {
    case Durability::kSync:
      return "sync";
    case Durability::kAsync:
      return "async";
    case Durability::kExit:
      return "exit";
  }
  return "?";
}

// message_bytes == 0: no message is written (the state stays the same
// size, for the memory run).
Result<std::unique_ptr<runtime::CompiledGraph> > BuildLoop(
    Checkpointer& store, size_t steps, size_t message_bytes,
    std::chrono::microseconds node_work) {
  TextGenerator text(11);
  const Value message(text.Text(message_bytes));
  const bool with_messages = message_bytes > 0;
  runtime::StateGraph graph;
  graph
      .AddChannel("messages",
                  runtime::ChannelSpec::Delta(runtime::AppendReducer(), 50))
      .AddChannel("count", runtime::ChannelSpec::LastValue())
      .AddNode("agent",
               [message, node_work, with_messages](const runtime::State& state,
                                                   runtime::NodeContext&) {
                 if (node_work.count() > 0)
                   std::this_thread::sleep_for(node_work);
                 const auto count = state.find("count");
                 const int64_t n =
                     count != state.end() && count->second.is_int()
                         ? count->second.as_int()
                         : 0;
                 runtime::NodeUpdate update;
                 if (with_messages) update.Write("messages", message);
                 update.Write("count", Value(n + 1));
                 return update;
               })
      .AddEdge(runtime::kStart, "agent")
      .AddConditionalEdges(
          "agent",
          [steps](const runtime::State& state) -> runtime::Route {
            const auto count = state.find("count");
            const bool done =
                count != state.end() && count->second.is_int() &&
                count->second.as_int() >= static_cast<int64_t>(steps);
            return done ? runtime::Route(runtime::kEnd)
                        : runtime::Route("agent");
          },
          {"agent", std::string(runtime::kEnd)});
  runtime::CompileOptions options;
  options.checkpointer = &store;
  return graph.Compile(options);
}

Status MeasureRuntime(BenchContext& ctx);
Status MeasureRuntimeMemory(BenchContext& ctx);

}  // namespace

// A runtime failure is reported (stderr and the report's "Not measured"
// list) without failing the storage benchmark.
Status RunRuntimeSection(BenchContext& ctx) {
  Status status = MeasureRuntime(ctx);
  if (status.ok()) status = MeasureRuntimeMemory(ctx);
  if (!status.ok()) {
    std::fprintf(stderr, "  runtime section failed: %s\n",
                 status.ToString().c_str());
    ctx.not_done.push_back(
        "runtime steps per second per durability mode: the runtime failed: " +
        status.ToString());
  }
  return Status::OK();
}

namespace {

Status MeasureRuntime(BenchContext& ctx) {
  const size_t steps = ctx.options.runtime_steps;
  const int runs = ctx.options.repetitions;
  RP_ASSIGN_OR_RETURN(auto stores,
                      OpenStores(ctx.scratch, "runtime", true, false,
                                 /*with_postgres=*/false));
  for (const auto node_work :
       {std::chrono::microseconds(0), std::chrono::microseconds(1000)}) {
    RP_ASSIGN_OR_RETURN(auto graph,
                        BuildLoop(*stores->rockpoint, steps,
                                  ctx.options.message_bytes, node_work));
    const std::string node =
        node_work.count() == 0
            ? std::string("no-op node")
            : std::to_string(node_work.count() / 1000) + " ms node";
    std::vector<Measurement> measured;
    const Durability modes[] = {Durability::kSync, Durability::kAsync,
                                Durability::kExit};
    for (const Durability mode : modes) {
      measured.push_back(Measurement{"runtime step",
                                     std::string(DurabilityName(mode)) + "; " +
                                         node + "; " + std::to_string(steps) +
                                         " steps per run; fsync",
                                     kRockpoint});
    }
    // Runs interleaved across modes (run r of each mode, then r + 1); run
    // 0 of every mode is a warm-up.
    for (int run = 0; run <= runs; ++run) {
      for (size_t m = 0; m < measured.size(); ++m) {
        runtime::RunConfig config;
        config.thread_id = "run-" + std::to_string(node_work.count()) + "-" +
                           std::to_string(m) + "-" + std::to_string(run);
        config.recursion_limit = static_cast<int64_t>(steps) + 10;
        config.durability = modes[m];
        Stopwatch watch;
        RP_ASSIGN_OR_RETURN(
            runtime::RunOutcome outcome,
            graph->Invoke({{"count", Value(int64_t{0})}}, config));
        const double micros = watch.ElapsedMicros();
        if (outcome.supersteps < static_cast<int64_t>(steps)) {
          return Status::Corruption(
              "bench: runtime ran " + std::to_string(outcome.supersteps) +
              " supersteps, expected " + std::to_string(steps));
        }
        if (run == 0) continue;
        Measurement& out = measured[m];
        const double per_step = micros / outcome.supersteps;
        out.samples_us.push_back(per_step);
        out.rep_medians.push_back(per_step);
        out.wall_seconds += micros / 1e6;
        out.ops += outcome.supersteps;
        out.repetitions += 1;
      }
    }
    for (Measurement& m : measured) ctx.Add(std::move(m));
  }
  return Status::OK();
}

// This process's resident set size in KiB (VmRSS), 0 if unknown.
double ResidentKib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0)
      return std::strtod(line.c_str() + 6, nullptr);
  }
  return 0;
}

// One long async run of the count-only loop on `store`, sampling the
// resident set size every 10 ms; records the RSS at 10%, 50% and 100% of
// the run as facts "<name>_rss_kib_<n>pct" and the step time as a
// measurement.
Status MeasureMemoryOn(BenchContext& ctx, Checkpointer& store,
                       const std::string& name, const std::string& label) {
  const size_t steps = ctx.options.runtime_memory_steps;
  RP_ASSIGN_OR_RETURN(auto graph,
                      BuildLoop(store, steps, 0, std::chrono::microseconds(0)));
  std::vector<std::pair<double, double> > samples;  // (seconds, KiB)
  std::atomic<bool> done{false};
  Stopwatch watch;
  std::thread sampler([&] {
    while (!done) {
      samples.emplace_back(watch.ElapsedMicros() / 1e6, ResidentKib());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  runtime::RunConfig config;
  config.thread_id = "memory-" + name;
  config.recursion_limit = static_cast<int64_t>(steps) + 10;
  config.durability = Durability::kAsync;
  auto outcome = graph->Invoke({{"count", Value(int64_t{0})}}, config);
  const double seconds = watch.ElapsedMicros() / 1e6;
  done = true;
  sampler.join();
  RP_RETURN_IF_ERROR(outcome.status());
  // The largest RSS seen up to a fraction of the run.
  auto peak_until = [&](double fraction) {
    double peak = 0;
    for (const auto& [at, kib] : samples) {
      if (at <= fraction * seconds) peak = std::max(peak, kib);
    }
    return peak;
  };
  ctx.facts[name + "_steps"] = static_cast<double>(outcome->supersteps);
  ctx.facts[name + "_seconds"] = seconds;
  ctx.facts[name + "_rss_kib_10pct"] = peak_until(0.1);
  ctx.facts[name + "_rss_kib_50pct"] = peak_until(0.5);
  ctx.facts[name + "_rss_kib_100pct"] = peak_until(1.0);
  Measurement m{"runtime step",
                "async; no-op node; " + std::to_string(steps) +
                    " steps; count only; " + label,
                kRockpoint};
  const double per_step =
      seconds * 1e6 / std::max<int64_t>(1, outcome->supersteps);
  m.samples_us = {per_step};
  m.rep_medians = {per_step};
  m.wall_seconds = seconds;
  m.ops = outcome->supersteps;
  m.repetitions = 1;
  ctx.Add(std::move(m));
  return Status::OK();
}

// The memory runs: on a sink store (only the runtime's memory; 20 us per
// write call) and on rockpoint without fsync (adds RocksDB's memtables and
// block cache, which fill up to their configured sizes).
Status MeasureRuntimeMemory(BenchContext& ctx) {
  SinkCheckpointer sink(std::chrono::microseconds(20));
  RP_RETURN_IF_ERROR(MeasureMemoryOn(ctx, sink, "runtime_memory_sink",
                                     "sink store (20 us per write)"));
  RP_ASSIGN_OR_RETURN(auto stores,
                      OpenStores(ctx.scratch, "runtime-memory", false, false,
                                 /*with_postgres=*/false));
  return MeasureMemoryOn(ctx, *stores->rockpoint, "runtime_memory_rockpoint",
                         "rockpoint; no fsync");
}

}  // namespace
#endif

}  // namespace rockpoint::bench
