// BenchOptions: every workload parameter of rockpoint-bench, with the full
// run's defaults; QuickOptions() shrinks them for CI (--quick).
//
// Thread-safety: a plain value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "rockpoint/runtime/snapshot_policy.h"

namespace rockpoint::bench {

// "<system temp directory>/rockpoint-bench-results".
std::string DefaultOutDir();

struct BenchOptions {
  // Run the shrunken CI workload. Default: false.
  bool quick = false;
  // Where results.{md,csv,json}, storage_growth.csv and storage_growth.svg
  // go. Default: DefaultOutDir(), outside the source tree; only an explicit
  // `--out bench/results` updates the committed figures.
  std::string out_dir = DefaultOutDir();
  // Scratch directory for the stores (removed at exit). Default: a fresh
  // directory under the system temp directory.
  std::string work_dir;
  // Sections to run: put, get, list, delta, retention, encryption,
  // storage, runtime, scaling (runs only with a PostgreSQL server).
  // Default: all.
  std::vector<std::string> sections = {"put",     "get",       "list",
                                       "delta",   "retention", "encryption",
                                       "storage", "runtime",   "scaling"};

  // The PostgreSQL server of the postgres subject and the scaling section
  // (a libpq URL or key/value string; each store set gets a fresh database
  // on it). Empty: postgres is left out of the run. Default: see
  // ResolvePostgresUrl.
  std::string postgres_url;
  // Where postgres_url came from ("--postgres-url" or the environment
  // variable's name), for the report; empty when there is none.
  std::string postgres_url_source;

  // Timed repetitions of every measurement. Default: 3.
  int repetitions = 3;
  // Untimed calls per thread before the repetitions. Default: 50.
  size_t warmup_ops = 50;
  // Timed calls per thread per repetition, no-sync writes and reads.
  // Default: 1000.
  size_t ops = 1000;
  // Timed calls per thread per repetition for synced writes (each one waits
  // for an fsync). Default: 60.
  size_t sync_ops = 60;
  // Timed calls per repetition for the slow operations (delete_thread,
  // prune, copy_thread, delta history, naive walk). Default: 30.
  size_t slow_ops = 30;

  // State sizes in bytes (put and get_tuple matrix). Default: 1 KB, 64 KB.
  std::vector<size_t> state_bytes = {1024, 65536};
  // Channel counts the state is split over. Default: 1, 10, 50.
  std::vector<int> channels = {1, 10, 50};
  // Writer threads for put / put_writes. Default: 1, 4.
  std::vector<int> threads = {1, 4};
  // The shape of the other operations: state_bytes[0] over this many
  // channels. Default: 10.
  int base_channels = 10;
  // Threads prefilled for reads (get_tuple, global list). Default: 100.
  size_t read_threads = 100;
  // Checkpoints per prefilled thread (reads, retention). Default: 10.
  size_t short_thread_length = 10;
  // The long thread of the list comparison. Default: 1000.
  size_t long_thread_length = 1000;
  // Checkpoints per thread that delete_thread / prune / copy_thread act
  // on. Default: 100.
  size_t retention_thread_length = 100;
  // Delta-history chain lengths (ancestors). Default: 10, 100, 1000.
  std::vector<size_t> chains = {10, 100, 1000};

  // Storage-growth study: conversation lengths. Default: 10, 100, 250,
  // 500, 1000.
  std::vector<size_t> turns = {10, 100, 250, 500, 1000};
  // Bytes of one message (its text). Default: 512.
  size_t message_bytes = 512;
  // Delta snapshot frequencies K. Default: 10, 50, 100.
  std::vector<size_t> snapshot_every = {10, 50, 100};
  // Ratios of the geometric snapshot policy (runtime/snapshot_policy.h),
  // one "delta-geo" mode each; each must be finite and > 0. Default: 1.0.
  std::vector<double> geometric_ratios = {1.0};
  // The geometric policy's min_bytes. Default: the runtime's, 4096.
  size_t geometric_min_bytes = runtime::kDefaultGeometricMinBytes;
  // Loads of the latest state timed per store. Default: 20.
  size_t load_repetitions = 20;

  // Scaling section: writer processes sharing one database, one
  // measurement each. Default: 1, 2, 4, 8.
  std::vector<int> writers = {1, 2, 4, 8};
  // Scaling section: timed puts per writer process per repetition.
  // Default: 2000.
  size_t scaling_puts = 2000;

  // Runtime steps per durability mode: steps per run. Default: 200.
  size_t runtime_steps = 200;
  // Steps of the runtime memory run (async, no fsync). Default: 100000.
  size_t runtime_memory_steps = 100000;

  bool Runs(const std::string& section) const;
};

// The --quick workload: everything small enough to finish in seconds.
void ApplyQuick(BenchOptions* options);

// The environment variables naming the PostgreSQL server when --postgres-url
// is not given, first set (and non-empty) wins.
inline constexpr const char* kPostgresUrlVariables[] = {
    "ROCKPOINT_BENCH_POSTGRES_URL", "ROCKPOINT_TEST_POSTGRES_URL",
    "ROCKPOINT_TEST_POSTGRES_DEFAULT_URL"};

// Sets options->postgres_url and postgres_url_source: `flag` when
// --postgres-url was given (even empty: no server), else the first of
// kPostgresUrlVariables that is set.
void ResolvePostgresUrl(const std::optional<std::string>& flag,
                        BenchOptions* options);

}  // namespace rockpoint::bench
