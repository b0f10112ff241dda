// get_tuple (RunGetSection) and list (RunListSection).
#include <memory>

#include "bench/operations.h"
#include "bench/workload.h"

namespace rockpoint::bench {
namespace {

// The page size of the list measurements (docs/DESIGN.md: list(limit 10)).
constexpr size_t kLimit = 10;

// Fills `threads` threads of `length` steps (2 pending writes per step) in
// every checkpointer of `stores`, and the same checkpoints in raw RocksDB
// when open; then settles the stores (Stores::Settle) so reads come from
// table files.
Status Prefill(Stores& stores, const std::string& prefix, size_t threads,
               size_t length, const std::map<std::string, TypedValue>& values) {
  for (size_t t = 0; t < threads; ++t) {
    const std::string thread = ThreadId(prefix, t);
    for (const char* subject : stores.Subjects()) {
      RP_RETURN_IF_ERROR(
          FillThread(stores.Of(subject), thread, length, values, 2));
    }
    if (stores.raw) {
      for (size_t step = 0; step < length; ++step) {
        const RawRecord record = RawCheckpoint(MakeStep(thread, step, values));
        RP_RETURN_IF_ERROR(stores.raw->Put(record.key, record.value));
      }
    }
  }
  return stores.Settle();
}

// Reads threads "<prefix>-<n>" of `stores` (filled here).
Status MeasureGets(BenchContext& ctx, Stores* stores, const std::string& g,
                   const StateShape& shape) {
  const size_t threads = ReadThreads(ctx.options, shape.state_bytes);
  const size_t length = ctx.options.short_thread_length;
  RP_RETURN_IF_ERROR(
      Prefill(*stores, g, threads, length, MakeChannelValues(shape, 3)));
  const std::string variant = GetVariant(shape, threads, length);
  const RunPlan plan = ctx.Plan(1, ctx.options.ops);

  auto latest_on = [&](Checkpointer& store) -> TimedOp {
    return [&store, &g, threads](int, size_t i, Lap& lap) -> Status {
      const CheckpointConfig config{ThreadId(g, Pick(i, 1, threads)), "", {}};
      lap.Start();
      return Found(store.GetTuple(config));
    };
  };
  RawRocksDb& raw = *stores->raw;
  auto raw_latest = [&](int, size_t i, Lap& lap) -> Status {
    const std::string prefix =
        RawCheckpointPrefix(ThreadId(g, Pick(i, 1, threads)));
    std::string value;
    lap.Start();
    return raw.GetLastWithPrefix(prefix, &value);
  };
  // The records one get_tuple checks: the checkpoint's, its blobs' and its
  // two pending writes' (Prefill's shape).
  const auto values = MakeChannelValues(shape, 3);
  const std::vector<std::string> write_records =
      WriteRecords(MakeWrites(2, 128, 7));
  auto checksum_read = [&](size_t thread, size_t step) -> TimedOp {
    return [&, thread, step](int, size_t, Lap& lap) -> Status {
      std::vector<std::string> records =
          PutRecords(MakeStep(ThreadId(g, thread), step, values));
      records.insert(records.end(), write_records.begin(), write_records.end());
      lap.Start();
      return ChecksumRecords(records);
    };
  };
  std::vector<SubjectOp> latest = OnEachStore(*stores, latest_on);
  latest.push_back({kRawRocksDb, raw_latest});
  latest.push_back({kRecordChecksum, checksum_read(0, length - 1)});
  AddRoundTrip(*stores, &latest);
  RP_RETURN_IF_ERROR(ctx.Compare("get_tuple latest", variant, plan, latest));

  auto by_id_on = [&](Checkpointer& store) -> TimedOp {
    return [&store, &g, threads, length](int, size_t i, Lap& lap) -> Status {
      const CheckpointConfig config{ThreadId(g, Pick(i, 2, threads)), "",
                                    CheckpointId(Pick(i, 3, length))};
      lap.Start();
      return Found(store.GetTuple(config));
    };
  };
  auto raw_by_id = [&](int, size_t i, Lap& lap) -> Status {
    const std::string key = RawCheckpointKey(ThreadId(g, Pick(i, 2, threads)),
                                             CheckpointId(Pick(i, 3, length)));
    std::string value;
    lap.Start();
    return raw.Get(key, &value);
  };
  std::vector<SubjectOp> by_id = OnEachStore(*stores, by_id_on);
  by_id.push_back({kRawRocksDb, raw_by_id});
  by_id.push_back({kRecordChecksum, checksum_read(0, 0)});
  AddRoundTrip(*stores, &by_id);
  return ctx.Compare("get_tuple by id", variant, plan, by_id);
}

// Lists and pulls every tuple; Corruption unless exactly `expected` come
// back.
Status ListExpecting(Checkpointer& store, const ListOptions& options,
                     size_t expected) {
  RP_ASSIGN_OR_RETURN(std::unique_ptr<TupleCursor> cursor, store.List(options));
  size_t count = 0;
  while (true) {
    RP_ASSIGN_OR_RETURN(std::optional<CheckpointTuple> tuple, cursor->Next());
    if (!tuple) break;
    ++count;
  }
  if (count != expected) {
    return Status::Corruption("bench: list returned " + std::to_string(count) +
                              " tuples, expected " + std::to_string(expected));
  }
  return Status::OK();
}

}  // namespace

size_t ReadThreads(const BenchOptions& options, size_t state_bytes) {
  const size_t budget =
      (size_t{16} << 20) / (std::max<size_t>(1, state_bytes) *
                            std::max<size_t>(1, options.short_thread_length));
  return std::min(options.read_threads, std::max<size_t>(10, budget));
}

std::string GetVariant(const StateShape& shape, size_t threads, size_t length) {
  return shape.Label() + "; " + std::to_string(threads) + " threads x " +
         std::to_string(length);
}

std::string ListVariant(const StateShape& shape, size_t limit, size_t length) {
  return "limit " + std::to_string(limit) + "; " + shape.Label() +
         "; thread of " + std::to_string(length);
}

// Fresh stores per shape, except in --quick (one set for all shapes).
Status RunGetSection(BenchContext& ctx) {
  std::unique_ptr<Stores> shared;
  if (ctx.options.quick) {
    RP_ASSIGN_OR_RETURN(shared, OpenStores(ctx.scratch, "get", false, true));
  }
  int shape_index = 0;
  for (const size_t bytes : ctx.options.state_bytes) {
    for (const int channels : ctx.options.channels) {
      const std::string prefix = "g" + std::to_string(shape_index++);
      std::unique_ptr<Stores> own;
      if (!shared) {
        RP_ASSIGN_OR_RETURN(own, OpenStores(ctx.scratch, "get", false, true));
      }
      RP_RETURN_IF_ERROR(MeasureGets(ctx, shared ? shared.get() : own.get(),
                                     prefix, StateShape{bytes, channels}));
    }
  }
  return Status::OK();
}

Status RunListSection(BenchContext& ctx) {
  const StateShape shape{ctx.options.state_bytes.front(),
                         ctx.options.base_channels};
  const size_t threads = ctx.options.read_threads;
  const size_t short_length = ctx.options.short_thread_length;
  const size_t long_length = ctx.options.long_thread_length;
  RP_ASSIGN_OR_RETURN(auto stores,
                      OpenStores(ctx.scratch, "list", false, false));
  const auto values = MakeChannelValues(shape, 4);
  for (const char* subject : stores->Subjects()) {
    RP_RETURN_IF_ERROR(
        FillThread(stores->Of(subject), "long", long_length, values, 2));
  }
  RP_RETURN_IF_ERROR(Prefill(*stores, "s", threads, short_length, values));

  const RunPlan plan = ctx.Plan(1, ctx.options.ops);
  auto list_thread_on = [&](Checkpointer& store, bool long_thread) -> TimedOp {
    const size_t expected =
        long_thread ? kLimit : std::min(kLimit, short_length);
    return [&store, long_thread, threads, expected](int, size_t i,
                                                    Lap& lap) -> Status {
      ListOptions options;
      options.config =
          CheckpointConfig{long_thread ? std::string("long")
                                       : ThreadId("s", Pick(i, 4, threads)),
                           "",
                           {}};
      options.limit = kLimit;
      lap.Start();
      return ListExpecting(store, options, expected);
    };
  };
  for (const bool long_thread : {false, true}) {
    std::vector<SubjectOp> subjects =
        OnEachStore(*stores, [&](Checkpointer& store) {
          return list_thread_on(store, long_thread);
        });
    AddRoundTrip(*stores, &subjects);
    RP_RETURN_IF_ERROR(ctx.Compare(
        "list",
        ListVariant(shape, kLimit, long_thread ? long_length : short_length),
        plan, subjects));
  }

  auto global_on = [&](Checkpointer& store) -> TimedOp {
    return [&store](int, size_t, Lap&) -> Status {
      ListOptions options;
      options.limit = kLimit;
      return ListExpecting(store, options, kLimit);
    };
  };
  return ctx.Compare("list global",
                     "limit " + std::to_string(kLimit) + "; " +
                         std::to_string(threads + 1) + " threads",
                     plan, OnEachStore(*stores, global_on));
}

}  // namespace rockpoint::bench
