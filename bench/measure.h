// Measurements: latency samples of one (operation, variant, subject), their
// summary (median, p99, throughput), and the helpers that take them: a
// monotonic stopwatch and a runner that starts N writer threads at once.
//
// A Measurement pools the samples of every repetition (warm-up excluded);
// rep_medians keeps each repetition's own median to show run-to-run spread.
// Samples are in microseconds.
//
// Thread-safety: a Measurement is filled by one thread (RunConcurrently
// collects per-thread samples and merges them after the threads join).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::bench {

// Subjects (one per column of the comparison). kRockpoint is the product
// (the RocksDB backend); every other subject is a peer it is compared with.
inline constexpr const char* kRockpoint = "rockpoint";
inline constexpr const char* kSqlite = "sqlite";
inline constexpr const char* kJsonl = "jsonl";
// PostgresCheckpointer on the --postgres-url server, a fresh database per
// store set; durability is the server's (fsync, synchronous_commit).
inline constexpr const char* kPostgres = "postgres";
inline constexpr const char* kRawRocksDb = "raw-rocksdb";
// RocksDbCheckpointer on an encrypted store (docs/ENCRYPTION.md), compared
// with kRockpoint on a plaintext one.
inline constexpr const char* kRockpointEncrypted = "rockpoint encrypted";
inline constexpr const char* kNaiveWalk = "naive-walk";
// Not a store: the record checksums one operation computes (sealing the
// records a put writes, checking those a get_tuple reads), timed alone
// beside rockpoint, so that their share of the operation is a ratio of one
// run.
inline constexpr const char* kRecordChecksum = "record checksum";
// Not a store: one `SELECT 1` on a plain libpq session to the postgres
// subject's database, the floor of any call that goes to the server, timed
// beside the reads that are one round trip by construction.
inline constexpr const char* kPostgresRoundTrip = "postgres SELECT 1";

struct Measurement {
  Measurement() = default;
  Measurement(std::string operation_name, std::string variant_label,
              std::string subject_name)
      : operation(std::move(operation_name)),
        variant(std::move(variant_label)),
        subject(std::move(subject_name)) {}

  std::string operation;  // e.g. "put", "get_tuple latest".
  std::string variant;    // the shape, e.g. "1KB/10ch, 1 thread, no-sync".
  std::string subject;    // kRockpoint, kSqlite, ...
  int threads = 1;
  int repetitions = 0;
  std::vector<double> samples_us;   // pooled over repetitions.
  std::vector<double> rep_medians;  // one per repetition.
  double wall_seconds = 0;          // timed wall time, all repetitions.
  size_t ops = 0;                   // timed operations, all threads.

  double median_us() const;
  double p99_us() const;
  double mean_us() const;
  // Timed operations per wall-clock second (all threads together).
  double ops_per_sec() const;
  // (max - min) of rep_medians over the median, in percent.
  double spread_pct() const;
};

// Scaling section: the put throughput of `processes` writer processes on
// one database, one figure per repetition.
struct ScalingRow {
  int processes = 0;
  size_t puts_per_process = 0;       // timed puts of each process, per round.
  std::vector<double> puts_per_sec;  // all processes together, per round.
  std::vector<double> wall_seconds;  // release to last exit, per round.

  // The median of puts_per_sec (nearest rank).
  double median_puts_per_sec() const;
};

// The q-quantile (0..1) of `values` by nearest rank; 0 for none.
double Quantile(std::vector<double> values, double q);

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  double ElapsedMicros() const {
    return std::chrono::duration<double, std::micro>(Clock::now() - start_)
        .count();
  }
  void Restart() { start_ = Clock::now(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Marks where the timed part of a call starts: a call that prepares its
// arguments first calls Start() after preparing; one that never calls it is
// timed from its beginning.
class Lap {
 public:
  void Start() { watch_.Restart(); }
  double ElapsedMicros() const { return watch_.ElapsedMicros(); }

 private:
  Stopwatch watch_;
};

// One timed operation of writer `thread_index`, call number `i` (0-based
// over warm-up and timed calls). Returns its status; a failure aborts the
// measurement.
using TimedOp = std::function<Status(int thread_index, size_t i, Lap& lap)>;

struct RunPlan {
  int threads = 1;
  size_t warmup_ops = 0;  // per thread, per measurement (not timed).
  size_t ops = 0;         // per thread, per repetition.
  int repetitions = 1;
  size_t first_index = 0;  // call index of the first (warm-up) call.
};

// Runs `op` on plan.threads threads started together: warm-up calls first,
// then plan.repetitions rounds of plan.ops timed calls per thread, and fills
// `out` (samples, rep medians, wall time, op count). Call indexes continue
// across rounds, so an op may use `i` to address fresh data.
Status RunConcurrently(const RunPlan& plan, const TimedOp& op,
                       Measurement* out);

// RunConcurrently on one thread, with `setup(i)` run untimed (and outside
// the wall time) before each call `op(i)`: for operations that consume what
// they measure (delete_thread, prune, copy_thread).
Status RunSerialWithSetup(const RunPlan& plan,
                          const std::function<Status(size_t)>& setup,
                          const std::function<Status(size_t)>& op,
                          Measurement* out);

}  // namespace rockpoint::bench
