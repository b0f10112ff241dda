// rockpoint-profile: one operation of rockpoint-bench's workload, called
// many times on a settled store, for instruction counts under callgrind
// (bench/profile/callgrind.sh). Times on a shared machine move by tens of
// percent; instruction counts repeat to a fraction of a percent.
//
//   rockpoint-profile --op get-by-id --channels 10 --calls 2000
//
// Setup (not measured): a RocksDB store (rocksdb:, no fsync) and a raw RocksDB
// database filled like the bench's get section (threads of `length` steps,
// two pending writes per step, every channel rewritten at each step), then
// compacted, so reads come from table files; reads are measured after a
// warm-up pass over the same keys (a warm block cache). --writes 0 fills
// checkpoints without pending writes; --unwritten-tail N leaves the last N
// steps of each thread without them (a finished run's latest checkpoint). The
// measured part is RunMeasuredCalls alone, which callgrind.sh collects with
// --toggle-collect. Ops:
//   get-latest, get-by-id   Checkpointer::GetTuple
//   put                     Checkpointer::Put of the next step of a
//                           new thread (every channel)
//   raw-latest, raw-get     raw RocksDB reverse seek / Get of the same bytes
//   raw-put                 raw RocksDB Put of the same bytes
//   delta                   GetDeltaChannelHistory of "messages" over a
//                           chain of --chain ancestors (the bench's delta
//                           section: a conversation of delta puts)
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bench/conversation.h"
#include "bench/raw_rocksdb.h"
#include "bench/workload.h"
#include "rockpoint/maintenance.h"
#include "rockpoint/open.h"

namespace rockpoint::bench {
namespace {

namespace fs = std::filesystem;

struct ProfileOptions {
  std::string op = "get-by-id";
  int channels = 1;
  size_t state_bytes = 1024;
  size_t calls = 2000;
  size_t threads = 100;
  size_t length = 10;
  size_t writes = 2;          // pending writes per filled step
  size_t unwritten_tail = 0;  // last steps of each thread without writes
  size_t chain = 1000;        // delta: ancestors
};

using Call = std::function<Status(size_t)>;

// The measured loop; callgrind.sh collects this function (and what it calls)
// only. Not inlined, so its symbol exists.
[[gnu::noinline]] Status RunMeasuredCalls(const Call& call, size_t calls) {
  for (size_t i = 0; i < calls; ++i) RP_RETURN_IF_ERROR(call(i));
  return Status::OK();
}

Status Fill(const ProfileOptions& options, Checkpointer& store, RawRocksDb& raw,
            const std::map<std::string, TypedValue>& values) {
  for (size_t t = 0; t < options.threads; ++t) {
    const std::string thread = ThreadId("p", t);
    const size_t written = options.length - options.unwritten_tail;
    RP_RETURN_IF_ERROR(
        FillThread(store, thread, written, values, options.writes));
    for (size_t step = written; step < options.length; ++step) {
      const PutArgs args = MakeStep(thread, step, values);
      RP_RETURN_IF_ERROR(store
                             .Put(args.config, args.checkpoint, args.metadata,
                                  args.new_versions)
                             .status());
    }
    for (size_t step = 0; step < options.length; ++step) {
      const RawRecord record = RawCheckpoint(MakeStep(thread, step, values));
      RP_RETURN_IF_ERROR(raw.Put(record.key, record.value));
    }
  }
  RP_RETURN_IF_ERROR(Compact(store));
  return raw.Compact();
}

// A read op's call (get-*, raw-latest, raw-get); nullopt for other ops.
// The keys each call reads are chosen like the bench's (Pick) and built
// before the measured loop.
std::optional<Call> ReadCall(const ProfileOptions& options, Checkpointer& store,
                             RawRocksDb& raw) {
  const std::string& op = options.op;
  const bool latest = op.ends_with("latest");
  auto configs = std::make_shared<std::vector<CheckpointConfig>>();
  auto raw_keys = std::make_shared<std::vector<std::string>>();
  for (size_t i = 0; i < options.calls; ++i) {
    const std::string thread =
        ThreadId("p", Pick(i, latest ? 1 : 2, options.threads));
    const std::string id = CheckpointId(Pick(i, 3, options.length));
    configs->push_back(CheckpointConfig{
        thread, "", latest ? std::nullopt : std::optional<std::string>(id)});
    raw_keys->push_back(latest ? RawCheckpointPrefix(thread)
                               : RawCheckpointKey(thread, id));
  }
  if (op == "get-latest" || op == "get-by-id") {
    return Call([&store, configs](size_t i) {
      return Found(store.GetTuple((*configs)[i]));
    });
  }
  if (op == "raw-latest") {
    return Call([&raw, raw_keys](size_t i) {
      std::string value;
      return raw.GetLastWithPrefix((*raw_keys)[i], &value);
    });
  }
  if (op == "raw-get") {
    return Call([&raw, raw_keys](size_t i) {
      std::string value;
      return raw.Get((*raw_keys)[i], &value);
    });
  }
  return std::nullopt;
}

// A write op's call (put, raw-put); nullopt for other ops. Puts append the
// steps of one new thread, as the bench's put section does; the arguments
// are built outside the measured loop.
std::optional<Call> WriteCall(const ProfileOptions& options,
                              Checkpointer& store, RawRocksDb& raw,
                              const std::map<std::string, TypedValue>& values) {
  if (options.op != "put" && options.op != "raw-put") return std::nullopt;
  auto steps = std::make_shared<std::vector<PutArgs>>();
  for (size_t i = 0; i < options.calls; ++i) {
    steps->push_back(MakeStep(ThreadId("w", 0), i, values));
  }
  if (options.op == "put") {
    return Call([&store, steps](size_t i) -> Status {
      const PutArgs& args = (*steps)[i];
      return store
          .Put(args.config, args.checkpoint, args.metadata, args.new_versions)
          .status();
    });
  }
  auto records = std::make_shared<std::vector<RawRecord>>();
  for (const PutArgs& args : *steps) records->push_back(RawCheckpoint(args));
  return Call([&raw, records](size_t i) {
    return raw.Put((*records)[i].key, (*records)[i].value);
  });
}

// The delta op's call: writes the conversation of --chain turns first.
Result<Call> DeltaCall(const ProfileOptions& options, Checkpointer& store) {
  ConversationSpec spec;
  spec.thread = "chain";
  spec.turns = options.chain;
  spec.snapshot_every = 0;  // the seed is the root
  RP_RETURN_IF_ERROR(WriteConversation(store, spec, nullptr));
  RP_RETURN_IF_ERROR(Compact(store));
  return Call([&store](size_t) -> Status {
    RP_ASSIGN_OR_RETURN(DeltaHistory history,
                        store.GetDeltaChannelHistory(
                            CheckpointConfig{"chain", "", {}}, {"messages"}));
    if (history["messages"].writes.empty()) {
      return Status::Corruption("delta history without writes");
    }
    return Status::OK();
  });
}

// The op's call, on the filled stores.
Result<Call> MakeCall(const ProfileOptions& options, Checkpointer& store,
                      RawRocksDb& raw,
                      const std::map<std::string, TypedValue>& values) {
  if (options.op == "delta") return DeltaCall(options, store);
  if (auto call = ReadCall(options, store, raw)) return std::move(*call);
  if (auto call = WriteCall(options, store, raw, values)) {
    return std::move(*call);
  }
  return Status::InvalidArgument("unknown --op " + options.op);
}

Status Run(const ProfileOptions& options) {
  if (options.unwritten_tail > options.length || options.threads == 0 ||
      options.length == 0 || options.channels < 1) {
    return Status::InvalidArgument(
        "need --threads, --length and --channels of at least 1, and "
        "--unwritten-tail at most --length");
  }
  const fs::path dir = fs::temp_directory_path() /
                       ("rockpoint-profile-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Status status = [&]() -> Status {
    StoreOptions unsynced;
    unsynced.sync_writes = false;
    RP_ASSIGN_OR_RETURN(
        auto store, Open("rocksdb:" + (dir / "rockpoint").string(), unsynced));
    RP_ASSIGN_OR_RETURN(auto raw,
                        RawRocksDb::Open((dir / "raw").string(), false));
    const auto values =
        MakeChannelValues(StateShape{options.state_bytes, options.channels}, 3);
    RP_RETURN_IF_ERROR(Fill(options, *store, *raw, values));
    RP_ASSIGN_OR_RETURN(Call call, MakeCall(options, *store, *raw, values));
    if (!options.op.ends_with("put")) {
      // A warm-up pass over the same reads fills the block cache, as the
      // bench's warm-up and repetitions do.
      for (size_t i = 0; i < options.calls; ++i) RP_RETURN_IF_ERROR(call(i));
    }
    return RunMeasuredCalls(call, options.calls);
  }();
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return status;
}

}  // namespace
}  // namespace rockpoint::bench

int main(int argc, char** argv) {
  rockpoint::bench::ProfileOptions options;
  CLI::App app{"rockpoint-profile: one bench operation, for callgrind"};
  app.add_option("--op", options.op,
                 "get-latest get-by-id put delta raw-latest raw-get raw-put");
  app.add_option("--channels", options.channels);
  app.add_option("--state-bytes", options.state_bytes);
  app.add_option("--calls", options.calls);
  app.add_option("--threads", options.threads, "threads of the filled store");
  app.add_option("--length", options.length, "steps per filled thread");
  app.add_option("--writes", options.writes, "pending writes per filled step");
  app.add_option("--chain", options.chain, "delta: ancestors");
  app.add_option("--unwritten-tail", options.unwritten_tail,
                 "last steps of each filled thread without pending writes");
  CLI11_PARSE(app, argc, argv);
  const rockpoint::Status status = rockpoint::bench::Run(options);
  if (!status.ok()) {
    std::fprintf(stderr, "rockpoint-profile: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
