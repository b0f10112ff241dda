// The measured operations, one function per section (see bench/README.md
// for what each measures and on which store). Every function appends its
// Measurements to ctx.results: one per (operation, variant, subject), the
// subjects of one (operation, variant) measured back to back in the same
// run so that their ratios compare like with like.
//
// Thread-safety: called from the bench's main thread; the functions start
// their own writer threads.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/measure.h"
#include "bench/subjects.h"
#include "bench/workload.h"
#include "rockpoint/status.h"

namespace rockpoint::bench {

// One subject's side of a comparison.
struct SubjectOp {
  const char* subject;
  TimedOp op;
};

// One SubjectOp per checkpointer of `stores`, in Stores::Subjects order,
// each running make(that store).
std::vector<SubjectOp> OnEachStore(
    Stores& stores, const std::function<TimedOp(Checkpointer&)>& make);
// Appends kPostgresRoundTrip (one SELECT 1 on stores.postgres_session) to
// `subjects` when the set has a postgres store; `stores` must outlive the
// measurement.
void AddRoundTrip(Stores& stores, std::vector<SubjectOp>* subjects);

struct BenchContext {
  const BenchOptions& options;
  Scratch& scratch;
  std::vector<Measurement> results;
  // Sections that could not run, with the reason (e.g. no runtime target).
  std::vector<std::string> not_done;
  // Single figures that are not latencies (e.g. the runtime's memory).
  std::map<std::string, double> facts;
  // The scaling section's rows (postgres put throughput per process count).
  std::vector<ScalingRow> scaling;

  // Appends `m` and prints a progress line on stderr.
  void Add(Measurement m);
  // The plan of a measurement: `ops` timed calls per thread per repetition.
  RunPlan Plan(int threads, size_t ops) const;
  // Measures every subject on `plan`, repetitions interleaved (repetition r
  // of every subject before repetition r + 1 of any), so a change in machine
  // load hits all subjects alike; then Adds the measurements. Call indexes
  // continue across repetitions (warm-up first).
  Status Compare(const std::string& operation, const std::string& variant,
                 const RunPlan& plan, const std::vector<SubjectOp>& subjects);
};

// A timed put of step i of thread (prefix, writer index) into `store`, every
// channel written with `values` (which, like `store` and `prefix`, must
// outlive the op).
TimedOp TimedPut(Checkpointer& store, const std::string& prefix,
                 const std::map<std::string, TypedValue>& values);

// Variant labels (shared with the target checks). Fields are separated by
// "; " so that a label is one CSV field without quoting.
std::string PutVariant(const StateShape& shape, int threads, bool sync);
std::string GetVariant(const StateShape& shape, size_t threads, size_t length);
std::string ListVariant(const StateShape& shape, size_t limit, size_t length);
std::string DeltaVariant(size_t chain, size_t message_bytes);

// Calls per thread per repetition of a put of `state_bytes`: options.ops
// (sync_ops when synced), but at most about 32 MB per repetition across all
// writer threads and at least 20, so large states stay minutes, not hours.
size_t PutOps(const BenchOptions& options, size_t state_bytes, int threads,
              bool sync);
// Threads prefilled for the get_tuple measurements of `state_bytes`:
// options.read_threads, but at most about 16 MB of prefilled state (at
// least 10 threads).
size_t ReadThreads(const BenchOptions& options, size_t state_bytes);

// Every section measures postgres beside rockpoint, sqlite and jsonl when
// the scratch has a server (Stores::Subjects).

// put (no-sync and sync) over state sizes x channels x writer threads, and
// put_writes over writer threads; rockpoint, sqlite, jsonl, raw-rocksdb.
Status RunPutSection(BenchContext& ctx);
// get_tuple latest and by id over state sizes x channels; rockpoint, sqlite,
// jsonl, raw-rocksdb (and postgres's SELECT 1 round trip).
Status RunGetSection(BenchContext& ctx);
// list(limit 10) on a short and a long thread, and the global list;
// rockpoint, sqlite, jsonl (and postgres's SELECT 1 round trip).
Status RunListSection(BenchContext& ctx);
// get_delta_channel_history on chains of ancestors; rockpoint, sqlite, jsonl,
// and the naive walk (get_tuple per ancestor) on rockpoint. postgres is
// probed with one untimed call per chain first: when it fails, postgres is
// left out of that comparison and the error listed in ctx.not_done.
Status RunDeltaSection(BenchContext& ctx);
// delete_thread, prune (keep_latest 1), copy_thread; rockpoint, sqlite,
// jsonl.
Status RunRetentionSection(BenchContext& ctx);
// put (no fsync) and get_tuple latest of kEncryptionStateBytes states on a
// plaintext and an encrypted RocksDB store: rockpoint, rockpoint encrypted.
inline constexpr size_t kEncryptionStateBytes[] = {1024, 64 * 1024};
Status RunEncryptionSection(BenchContext& ctx);
// Runtime supersteps per second per durability mode (sync, async, exit),
// when the runtime is built in; otherwise records why not in ctx.not_done.
Status RunRuntimeSection(BenchContext& ctx);
// postgres put throughput of N writer processes (options.writers) on one
// fresh database, into ctx.scaling; nothing without a server.
Status RunScalingSection(BenchContext& ctx);

// The scaling section's child: `rockpoint-bench --scaling-writer URL THREAD
// COUNT` (argv[1] is kScalingWriterFlag). Opens a PostgresCheckpointer on
// URL, puts a few untimed warm-up steps on THREAD, writes "ready\n" to
// stdout, waits for EOF on stdin (the release), puts COUNT more steps (1 KB
// state, 1 channel) and exits: 0 when every put succeeded, 1 after printing
// the error on stderr, 2 on bad arguments.
inline constexpr const char* kScalingWriterFlag = "--scaling-writer";
int RunScalingWriter(int argc, char** argv);

}  // namespace rockpoint::bench
