// The cost of encryption at rest (RunEncryptionSection): put (no fsync) and
// get_tuple latest on a plaintext and an encrypted RocksDB store, measured
// back to back in one run so the ratio compares like with like.
#include <filesystem>
#include <memory>

#include "bench/operations.h"
#include "bench/workload.h"

namespace rockpoint::bench {
namespace {

// The fixed key of the encrypted subject: the bench measures cost, not
// secrecy.
const std::string kBenchKey(kEncryptionKeyBytes, 'k');

struct EncryptionStores {
  std::unique_ptr<Checkpointer> plain;
  std::unique_ptr<Checkpointer> sealed;
  std::vector<SubjectOp> Each(
      const std::function<TimedOp(Checkpointer&)>& make) const {
    return {{kRockpoint, make(*plain)}, {kRockpointEncrypted, make(*sealed)}};
  }
};

Result<EncryptionStores> OpenPair(Scratch& scratch, std::string_view name) {
  RP_ASSIGN_OR_RETURN(const std::string dir, scratch.NewDirectory(name));
  StoreOptions options;
  options.sync_writes = false;
  EncryptionStores stores;
  const std::filesystem::path root(dir);
  RP_ASSIGN_OR_RETURN(stores.plain,
                      Open("rocksdb:" + (root / "plain").string(), options));
  options.encryption = EncryptionOptions{kBenchKey};
  RP_ASSIGN_OR_RETURN(stores.sealed,
                      Open("rocksdb:" + (root / "sealed").string(), options));
  return stores;
}

Status MeasurePut(BenchContext& ctx, const EncryptionStores& stores,
                  const StateShape& shape) {
  const auto values = MakeChannelValues(shape, 1);
  const std::string prefix = "enc-put-" + FormatBytes(shape.state_bytes);
  auto put_on = [&](Checkpointer& store) {
    return TimedPut(store, prefix, values);
  };
  return ctx.Compare(
      "encrypted put", PutVariant(shape, 1, false),
      ctx.Plan(1, PutOps(ctx.options, shape.state_bytes, 1, false)),
      stores.Each(put_on));
}

Status MeasureGet(BenchContext& ctx, const EncryptionStores& stores,
                  const StateShape& shape) {
  const size_t threads = ReadThreads(ctx.options, shape.state_bytes);
  const size_t length = ctx.options.short_thread_length;
  const std::string prefix = "enc-get-" + FormatBytes(shape.state_bytes);
  const auto values = MakeChannelValues(shape, 3);
  for (Checkpointer* store : {stores.plain.get(), stores.sealed.get()}) {
    for (size_t t = 0; t < threads; ++t) {
      RP_RETURN_IF_ERROR(
          FillThread(*store, ThreadId(prefix, t), length, values, 2));
    }
    RP_RETURN_IF_ERROR(Compact(*store));
  }
  auto latest_on = [&](Checkpointer& store) -> TimedOp {
    return [&store, &prefix, threads](int, size_t i, Lap& lap) -> Status {
      const CheckpointConfig config{ThreadId(prefix, i % threads), "", {}};
      lap.Start();
      return Found(store.GetTuple(config));
    };
  };
  return ctx.Compare("encrypted get_tuple latest",
                     GetVariant(shape, threads, length),
                     ctx.Plan(1, ctx.options.ops), stores.Each(latest_on));
}

}  // namespace

Status RunEncryptionSection(BenchContext& ctx) {
  RP_ASSIGN_OR_RETURN(const EncryptionStores stores,
                      OpenPair(ctx.scratch, "encryption"));
  for (const size_t bytes : kEncryptionStateBytes) {
    const StateShape shape{bytes, ctx.options.base_channels};
    RP_RETURN_IF_ERROR(MeasurePut(ctx, stores, shape));
    RP_RETURN_IF_ERROR(MeasureGet(ctx, stores, shape));
  }
  return Status::OK();
}

}  // namespace rockpoint::bench
