// put and put_writes (RunPutSection), and BenchContext.
#include <cstdio>
#include <functional>
#include <memory>

#include "bench/operations.h"
#include "bench/workload.h"

namespace rockpoint::bench {
namespace {

std::string WriterLabel(int threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

const char* SyncLabel(bool sync) { return sync ? "sync" : "no-sync"; }

// One put per call on the writer's own thread id (`prefix`, writer index);
// call i writes step i (a child of step i - 1).
Status MeasurePut(BenchContext& ctx, Stores* stores, const std::string& prefix,
                  const StateShape& shape, int threads, bool sync) {
  const std::string variant = PutVariant(shape, threads, sync);
  const auto values = MakeChannelValues(shape, 1);
  auto put_on = [&](Checkpointer& store) {
    return TimedPut(store, prefix, values);
  };
  RawRocksDb& raw = *stores->raw;
  auto raw_put = [&](int t, size_t i, Lap& lap) -> Status {
    const RawRecord record =
        RawCheckpoint(MakeStep(ThreadId(prefix, t), i, values));
    lap.Start();
    return raw.Put(record.key, record.value);
  };
  auto checksum_put = [&](int t, size_t i, Lap& lap) -> Status {
    const std::vector<std::string> records =
        PutRecords(MakeStep(ThreadId(prefix, t), i, values));
    lap.Start();
    return ChecksumRecords(records);
  };
  std::vector<SubjectOp> subjects = OnEachStore(*stores, put_on);
  subjects.push_back({kRawRocksDb, raw_put});
  subjects.push_back({kRecordChecksum, checksum_put});
  return ctx.Compare(
      "put", variant,
      ctx.Plan(threads, PutOps(ctx.options, shape.state_bytes, threads, sync)),
      subjects);
}

// One put_writes per call: the base shape's state as one write per channel,
// on a fresh checkpoint id (so no write is skipped as a duplicate).
Status MeasurePutWrites(BenchContext& ctx, Stores* stores,
                        const std::string& prefix, int threads, bool sync) {
  const StateShape shape{ctx.options.state_bytes.front(),
                         ctx.options.base_channels};
  const std::string variant = std::to_string(shape.channels) + " writes of " +
                              FormatBytes(shape.state_bytes / shape.channels) +
                              "; " + WriterLabel(threads) + "; " +
                              SyncLabel(sync);
  const auto writes =
      MakeWrites(shape.channels, shape.state_bytes / shape.channels, 2);
  auto put_writes_on = [&](Checkpointer& store) -> TimedOp {
    return [&store, &writes, &prefix](int t, size_t i, Lap& lap) -> Status {
      const CheckpointConfig config{ThreadId(prefix, t), "", CheckpointId(i)};
      lap.Start();
      return store.PutWrites(config, writes, "task-1");
    };
  };
  RawRocksDb& raw = *stores->raw;
  auto raw_put = [&](int t, size_t i, Lap& lap) -> Status {
    const RawRecord record =
        RawWrites(ThreadId(prefix, t), CheckpointId(i), "task-1", writes);
    lap.Start();
    return raw.Put(record.key, record.value);
  };
  std::vector<SubjectOp> subjects = OnEachStore(*stores, put_writes_on);
  subjects.push_back({kRawRocksDb, raw_put});
  return ctx.Compare(
      "put_writes", variant,
      ctx.Plan(threads, sync ? ctx.options.sync_ops : ctx.options.ops),
      subjects);
}

}  // namespace

TimedOp TimedPut(Checkpointer& store, const std::string& prefix,
                 const std::map<std::string, TypedValue>& values) {
  return [&store, &values, &prefix](int t, size_t i, Lap& lap) -> Status {
    PutArgs args = MakeStep(ThreadId(prefix, t), i, values);
    lap.Start();
    return store
        .Put(args.config, args.checkpoint, args.metadata, args.new_versions)
        .status();
  };
}

size_t PutOps(const BenchOptions& options, size_t state_bytes, int threads,
              bool sync) {
  const size_t wanted = sync ? options.sync_ops : options.ops;
  const size_t budget =
      (size_t{32} << 20) / (std::max<size_t>(1, state_bytes) *
                            static_cast<size_t>(std::max(1, threads)));
  return std::min(wanted, std::max<size_t>(20, budget));
}

std::string PutVariant(const StateShape& shape, int threads, bool sync) {
  return shape.Label() + "; " + WriterLabel(threads) + "; " + SyncLabel(sync);
}

std::vector<SubjectOp> OnEachStore(
    Stores& stores, const std::function<TimedOp(Checkpointer&)>& make) {
  std::vector<SubjectOp> subjects;
  for (const char* subject : stores.Subjects()) {
    subjects.push_back({subject, make(stores.Of(subject))});
  }
  return subjects;
}

void AddRoundTrip(Stores& stores, std::vector<SubjectOp>* subjects) {
  if (!stores.postgres_session) return;
  PostgresSession& session = *stores.postgres_session;
  subjects->push_back({kPostgresRoundTrip, [&session](int, size_t, Lap&) {
                         return session.RoundTrip();
                       }});
}

void BenchContext::Add(Measurement m) {
  std::fprintf(stderr, "  %-26s %-34s %-12s median %10.1f us  p99 %10.1f us\n",
               m.operation.c_str(), m.variant.c_str(), m.subject.c_str(),
               m.median_us(), m.p99_us());
  results.push_back(std::move(m));
}

Status BenchContext::Compare(const std::string& operation,
                             const std::string& variant, const RunPlan& plan,
                             const std::vector<SubjectOp>& subjects) {
  std::vector<Measurement> measured;
  for (const SubjectOp& subject : subjects) {
    measured.push_back(Measurement{operation, variant, subject.subject});
  }
  for (int round = 0; round < plan.repetitions; ++round) {
    RunPlan one = plan;
    one.repetitions = 1;
    one.warmup_ops = round == 0 ? plan.warmup_ops : 0;
    one.first_index = plan.first_index +
                      (round == 0 ? 0 : plan.warmup_ops + round * plan.ops);
    for (size_t s = 0; s < subjects.size(); ++s) {
      RP_RETURN_IF_ERROR(RunConcurrently(one, subjects[s].op, &measured[s]));
    }
  }
  for (Measurement& m : measured) Add(std::move(m));
  return Status::OK();
}

RunPlan BenchContext::Plan(int threads, size_t ops) const {
  RunPlan plan;
  plan.threads = threads;
  plan.ops = ops;
  plan.warmup_ops = std::min(options.warmup_ops, std::max<size_t>(1, ops / 4));
  plan.repetitions = options.repetitions;
  return plan;
}

// Every configuration gets fresh stores, except in --quick, where one set
// per durability serves all (store opens dominate a quick run's time);
// thread ids are distinct per configuration either way.
Status RunPutSection(BenchContext& ctx) {
  for (const bool sync : {false, true}) {
    std::unique_ptr<Stores> shared;
    if (ctx.options.quick) {
      RP_ASSIGN_OR_RETURN(shared, OpenStores(ctx.scratch, "put", sync, true));
    }
    int config = 0;
    auto measure =
        [&](const std::function<Status(Stores*, std::string)>& run) -> Status {
      const std::string prefix = "c" + std::to_string(config++);
      if (shared) return run(shared.get(), prefix);
      RP_ASSIGN_OR_RETURN(auto own, OpenStores(ctx.scratch, "put", sync, true));
      return run(own.get(), prefix);
    };
    for (const size_t bytes : ctx.options.state_bytes) {
      for (const int channels : ctx.options.channels) {
        for (const int threads : ctx.options.threads) {
          RP_RETURN_IF_ERROR(measure([&](Stores* stores, std::string prefix) {
            return MeasurePut(ctx, stores, prefix, StateShape{bytes, channels},
                              threads, sync);
          }));
        }
      }
    }
    for (const int threads : ctx.options.threads) {
      RP_RETURN_IF_ERROR(measure([&](Stores* stores, std::string prefix) {
        return MeasurePutWrites(ctx, stores, prefix, threads, sync);
      }));
    }
  }
  return Status::OK();
}

}  // namespace rockpoint::bench
