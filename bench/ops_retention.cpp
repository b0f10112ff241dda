// delete_thread, prune and copy_thread (RunRetentionSection). Each call
// consumes what it acts on, so every call gets its own freshly written
// thread (untimed set-up).
#include "bench/operations.h"
#include "bench/workload.h"

namespace rockpoint::bench {
namespace {

// Measures `op` on every checkpointer of `stores`, repetitions interleaved;
// `setup` and `op` get the store and the call index.
using StoreStep = std::function<Status(Checkpointer&, size_t)>;

Status CompareWithSetup(BenchContext& ctx, const std::string& operation,
                        const std::string& variant, Stores& stores,
                        const StoreStep& setup, const StoreStep& op) {
  RunPlan plan = ctx.Plan(1, ctx.options.slow_ops);
  plan.warmup_ops = std::min<size_t>(plan.warmup_ops, 3);
  std::vector<Measurement> measured;
  const std::vector<const char*> subjects = stores.Subjects();
  for (const char* subject : subjects) {
    measured.push_back(Measurement{operation, variant, subject});
  }
  for (int round = 0; round < plan.repetitions; ++round) {
    RunPlan one = plan;
    one.repetitions = 1;
    one.warmup_ops = round == 0 ? plan.warmup_ops : 0;
    one.first_index = round == 0 ? 0 : plan.warmup_ops + round * plan.ops;
    for (size_t s = 0; s < subjects.size(); ++s) {
      Checkpointer& store = stores.Of(subjects[s]);
      RP_RETURN_IF_ERROR(RunSerialWithSetup(
          one, [&](size_t i) { return setup(store, i); },
          [&](size_t i) { return op(store, i); }, &measured[s]));
    }
  }
  for (Measurement& m : measured) ctx.Add(std::move(m));
  return Status::OK();
}

}  // namespace

Status RunRetentionSection(BenchContext& ctx) {
  const StateShape shape{ctx.options.state_bytes.front(),
                         ctx.options.base_channels};
  const size_t length = ctx.options.retention_thread_length;
  const auto values = MakeChannelValues(shape, 5);
  const std::string variant =
      "thread of " + std::to_string(length) + "; " + shape.Label();
  auto fill = [&](std::string_view prefix) -> StoreStep {
    return [&values, length, prefix](Checkpointer& store, size_t i) {
      return FillThread(store, ThreadId(prefix, i), length, values, 1);
    };
  };

  // One store set for the three operations (distinct threads).
  RP_ASSIGN_OR_RETURN(auto stores,
                      OpenStores(ctx.scratch, "retention", false, false));
  RP_RETURN_IF_ERROR(
      CompareWithSetup(ctx, "delete_thread", variant, *stores, fill("d"),
                       [](Checkpointer& store, size_t i) {
                         return store.DeleteThread(ThreadId("d", i));
                       }));
  RP_RETURN_IF_ERROR(CompareWithSetup(
      ctx, "prune", variant + "; keep_latest 1", *stores, fill("r"),
      [](Checkpointer& store, size_t i) {
        return store.Prune({ThreadId("r", i)}, PruneStrategy::kKeepLatest, 1);
      }));
  for (const char* subject : stores->Subjects()) {
    RP_RETURN_IF_ERROR(
        FillThread(stores->Of(subject), "source", length, values, 1));
  }
  RP_RETURN_IF_ERROR(CompareWithSetup(
      ctx, "copy_thread", variant, *stores,
      [](Checkpointer&, size_t) { return Status::OK(); },
      [](Checkpointer& store, size_t i) {
        return store.CopyThread("source", ThreadId("c", i));
      }));
  return Status::OK();
}

}  // namespace rockpoint::bench
