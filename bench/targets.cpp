// CheckTargets: docs/DESIGN.md's "Performance targets" table against one run's
// figures.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/operations.h"
#include "bench/report.h"

namespace rockpoint::bench {
namespace {

const Measurement* Find(const std::vector<Measurement>& results,
                        std::string_view operation, std::string_view variant,
                        std::string_view subject) {
  for (const Measurement& m : results) {
    if (m.operation == operation && m.variant == variant &&
        m.subject == subject) {
      return &m;
    }
  }
  return nullptr;
}

std::string Fixed(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// peer median / rockpoint median for (operation, variant); nullopt if
// either is missing.
std::optional<double> Speedup(const std::vector<Measurement>& results,
                              std::string_view operation,
                              std::string_view variant, std::string_view peer) {
  const Measurement* rock = Find(results, operation, variant, kRockpoint);
  const Measurement* other = Find(results, operation, variant, peer);
  if (rock == nullptr || other == nullptr || rock->median_us() <= 0) {
    return std::nullopt;
  }
  return other->median_us() / rock->median_us();
}

void PutTargets(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  const auto& sizes = options.state_bytes;
  const size_t bytes =
      std::find(sizes.begin(), sizes.end(), 1024) != sizes.end()
          ? 1024
          : sizes.front();
  for (const int channels : options.channels) {
    const StateShape shape{bytes, channels};
    const std::string variant = PutVariant(shape, 1, false);
    const auto raw = Speedup(report.results, "put", variant, kRawRocksDb);
    const auto sqlite = Speedup(report.results, "put", variant, kSqlite);
    TargetCheck check{"put, no fsync, " + shape.Label(),
                      ">= 0.5x raw RocksDB Put; >= 5x SQLite",
                      "n/a",
                      {}};
    if (raw && sqlite) {
      check.measured =
          Fixed("%.2fx raw", *raw) + "; " + Fixed("%.1fx SQLite", *sqlite);
      check.met = *raw >= 0.5 && *sqlite >= 5;
    }
    out->push_back(check);
  }
  for (const int channels : options.channels) {
    const StateShape shape{bytes, channels};
    const auto raw =
        Speedup(report.results, "put", PutVariant(shape, 1, true), kRawRocksDb);
    TargetCheck check{
        "put, fsync, " + shape.Label(), ">= 0.9x raw synced Put", "n/a", {}};
    if (raw) {
      check.measured = Fixed("%.2fx raw", *raw);
      check.met = *raw >= 0.9;
    }
    out->push_back(check);
  }
  // Group commit: more writers, more puts per second (fsyncs shared).
  const int most =
      *std::max_element(options.threads.begin(), options.threads.end());
  const StateShape base{bytes, options.base_channels};
  const Measurement* one =
      Find(report.results, "put", PutVariant(base, 1, true), kRockpoint);
  const Measurement* many =
      Find(report.results, "put", PutVariant(base, most, true), kRockpoint);
  TargetCheck group{
      "put, fsync, " + std::to_string(most) + " writers, " + base.Label(),
      "concurrent threads share fsyncs (group commit): "
      "throughput >= 1.5x one writer's",
      "n/a",
      {}};
  if (most > 1 && one != nullptr && many != nullptr && one->ops_per_sec() > 0) {
    const double scale = many->ops_per_sec() / one->ops_per_sec();
    group.measured = Fixed("%.0f", many->ops_per_sec()) + " vs " +
                     Fixed("%.0f puts/s", one->ops_per_sec()) + " = " +
                     Fixed("%.2fx", scale);
    group.met = scale >= 1.5;
  }
  out->push_back(group);
}

void ReadTargets(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  for (const int channels : options.channels) {
    const StateShape shape{options.state_bytes.front(), channels};
    const std::string variant =
        GetVariant(shape, ReadThreads(options, shape.state_bytes),
                   options.short_thread_length);
    for (const auto& [operation, peer] :
         {std::pair{"get_tuple latest", "raw reverse seek"},
          std::pair{"get_tuple by id", "raw Get"}}) {
      const auto raw = Speedup(report.results, operation, variant, kRawRocksDb);
      TargetCheck check{std::string(operation) + ", " + shape.Label(),
                        std::string("<= 2x a ") + peer,
                        "n/a",
                        {}};
      if (raw) {
        check.measured = Fixed("%.2fx the raw latency", 1 / *raw);
        check.met = 1 / *raw <= 2;
      }
      out->push_back(check);
    }
  }
  const StateShape base{options.state_bytes.front(), options.base_channels};
  const Measurement* brief =
      Find(report.results, "list",
           ListVariant(base, 10, options.short_thread_length), kRockpoint);
  const Measurement* lengthy =
      Find(report.results, "list",
           ListVariant(base, 10, options.long_thread_length), kRockpoint);
  TargetCheck list{"list(limit 10), thread of " +
                       std::to_string(options.long_thread_length) + " vs " +
                       std::to_string(options.short_thread_length),
                   "independent of thread length (long/short <= 1.5x)",
                   "n/a",
                   {}};
  if (brief != nullptr && lengthy != nullptr && brief->median_us() > 0) {
    const double ratio = lengthy->median_us() / brief->median_us();
    list.measured = Fixed("%.1f us", lengthy->median_us()) + " vs " +
                    Fixed("%.1f us", brief->median_us()) + " = " +
                    Fixed("%.2fx", ratio);
    list.met = ratio <= 1.5;
  }
  out->push_back(list);
}

// The record checksums' share of one operation: their time alone over
// rockpoint's time for the whole operation, under 5%.
TargetCheck ChecksumShare(const Report& report, const std::string& operation,
                          const std::string& variant, const std::string& what) {
  TargetCheck check{
      "record checksums in " + what, "< 5% of the operation", "n/a", {}};
  const auto share =
      Speedup(report.results, operation, variant, kRecordChecksum);
  if (share) {
    check.measured = Fixed("%.1f%%", 100 * *share);
    check.met = *share < 0.05;
  }
  return check;
}

void ChecksumTargets(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  for (const int channels : options.channels) {
    const StateShape shape{options.state_bytes.front(), channels};
    if (options.Runs("put")) {
      out->push_back(ChecksumShare(report, "put", PutVariant(shape, 1, false),
                                   "put, no fsync, " + shape.Label()));
    }
    if (!options.Runs("get")) continue;
    const std::string variant =
        GetVariant(shape, ReadThreads(options, shape.state_bytes),
                   options.short_thread_length);
    for (const char* operation : {"get_tuple latest", "get_tuple by id"}) {
      out->push_back(
          ChecksumShare(report, operation, variant,
                        std::string(operation) + ", " + shape.Label()));
    }
  }
}

// Encryption's cost on 1 KB puts (no fsync) and get_tuple: the encrypted
// store's median over the plaintext store's, at most 1.15.
void EncryptionTargets(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  const StateShape shape{1024, options.base_channels};
  const std::pair<const char*, std::string> checks[] = {
      {"encrypted put", PutVariant(shape, 1, false)},
      {"encrypted get_tuple latest",
       GetVariant(shape, ReadThreads(options, shape.state_bytes),
                  options.short_thread_length)}};
  for (const auto& [operation, variant] : checks) {
    TargetCheck check{std::string(operation) + ", " + shape.Label(),
                      "<= 1.15x the plaintext store's time",
                      "n/a",
                      {}};
    const auto ratio =
        Speedup(report.results, operation, variant, kRockpointEncrypted);
    if (ratio) {
      check.measured = Fixed("%.2fx", *ratio);
      check.met = *ratio <= 1.15;
    }
    out->push_back(check);
  }
}

void DeltaTargets(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  const size_t chain =
      *std::max_element(options.chains.begin(), options.chains.end());
  const std::string variant = DeltaVariant(chain, options.message_bytes);
  const Measurement* rock =
      Find(report.results, "delta history", variant, kRockpoint);
  const auto naive =
      Speedup(report.results, "delta history", variant, kNaiveWalk);
  TargetCheck check{"delta history, " + std::to_string(chain) + " ancestors",
                    "<= 1 ms; >= 20x the get_tuple-per-ancestor walk",
                    "n/a",
                    {}};
  if (rock != nullptr && naive) {
    check.measured = Fixed("%.0f us", rock->median_us()) + "; " +
                     Fixed("%.1fx the naive walk", *naive);
    check.met = rock->median_us() <= 1000 && *naive >= 20;
  }
  out->push_back(check);
}

// "<median> us = <ratio>x SELECT 1 (<round trip> us)" of postgres's
// `operation` in `variant`, beside the SELECT 1 round trip measured in the
// same comparison; "" when either is missing.
std::string BesideRoundTrip(const Report& report, std::string_view operation,
                            const std::string& variant) {
  const Measurement* call = Find(report.results, operation, variant, kPostgres);
  const Measurement* trip =
      Find(report.results, operation, variant, kPostgresRoundTrip);
  if (call == nullptr || trip == nullptr || trip->median_us() <= 0) return "";
  return Fixed("%.0f us = ", call->median_us()) +
         Fixed("%.1fx SELECT 1", call->median_us() / trip->median_us()) +
         Fixed(" (%.0f us)", trip->median_us());
}

// get_tuple (latest, by id) and list(limit 10) are one round trip each by
// construction (postgres_checkpointer.h): their medians beside a SELECT 1
// round trip of the same run. Reported, not judged: a latency cannot count
// round trips (the server's work is in it too).
void PostgresRoundTripTargets(const Report& report,
                              std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  const std::string target =
      "one round trip each (by construction; shown beside a SELECT 1 round "
      "trip, not judged)";
  if (options.Runs("get")) {
    for (const int channels : options.channels) {
      const StateShape shape{options.state_bytes.front(), channels};
      const std::string variant =
          GetVariant(shape, ReadThreads(options, shape.state_bytes),
                     options.short_thread_length);
      const std::string latest =
          BesideRoundTrip(report, "get_tuple latest", variant);
      const std::string by_id =
          BesideRoundTrip(report, "get_tuple by id", variant);
      out->push_back({"postgres get_tuple, " + shape.Label(),
                      target,
                      latest.empty() || by_id.empty()
                          ? "n/a"
                          : "latest " + latest + "; by id " + by_id,
                      {}});
    }
  }
  if (options.Runs("list")) {
    const StateShape base{options.state_bytes.front(), options.base_channels};
    std::string measured;
    for (const size_t length :
         {options.short_thread_length, options.long_thread_length}) {
      const std::string figures =
          BesideRoundTrip(report, "list", ListVariant(base, 10, length));
      if (figures.empty()) continue;
      measured += (measured.empty() ? "" : "; ") + std::string("thread of ") +
                  std::to_string(length) + ": " + figures;
    }
    // As rockpoint's list target compares them: long over short thread.
    const Measurement* brief =
        Find(report.results, "list",
             ListVariant(base, 10, options.short_thread_length), kPostgres);
    const Measurement* lengthy =
        Find(report.results, "list",
             ListVariant(base, 10, options.long_thread_length), kPostgres);
    if (brief != nullptr && lengthy != nullptr && brief->median_us() > 0) {
      measured += Fixed("; long / short %.2fx",
                        lengthy->median_us() / brief->median_us());
    }
    out->push_back({"postgres list(limit 10)",
                    target,
                    measured.empty() ? "n/a" : measured,
                    {}});
  }
}

// postgres delta history on the longest chain within 3x of one get_tuple
// latest (the get section's, at the first state size and the base channel
// count, or the first channel count when that is not measured).
void PostgresDeltaTarget(const Report& report, std::vector<TargetCheck>* out) {
  const BenchOptions& options = *report.options;
  const size_t chain =
      *std::max_element(options.chains.begin(), options.chains.end());
  const auto& counts = options.channels;
  const int channels = std::find(counts.begin(), counts.end(),
                                 options.base_channels) != counts.end()
                           ? options.base_channels
                           : counts.front();
  const StateShape shape{options.state_bytes.front(), channels};
  const Measurement* delta =
      Find(report.results, "delta history",
           DeltaVariant(chain, options.message_bytes), kPostgres);
  const Measurement* get =
      Find(report.results, "get_tuple latest",
           GetVariant(shape, ReadThreads(options, shape.state_bytes),
                      options.short_thread_length),
           kPostgres);
  TargetCheck check{
      "postgres delta history, " + std::to_string(chain) + " ancestors",
      "<= 3x one get_tuple (postgres get_tuple latest, " + shape.Label() + ")",
      "n/a",
      {}};
  if (delta != nullptr && get != nullptr && get->median_us() > 0) {
    const double ratio = delta->median_us() / get->median_us();
    check.measured = Fixed("%.0f us", delta->median_us()) + " vs " +
                     Fixed("%.0f us", get->median_us()) + " = " +
                     Fixed("%.2fx", ratio);
    check.met = ratio <= 3;
  } else if (delta == nullptr) {
    check.measured = "n/a (delta history not measured on postgres)";
  }
  out->push_back(check);
}

// postgres put throughput with 8 writer processes at least 3x one
// process's (the scaling section); judged only when both were measured.
void PostgresScalingTarget(const Report& report,
                           std::vector<TargetCheck>* out) {
  const ScalingRow* one = nullptr;
  const ScalingRow* eight = nullptr;
  const ScalingRow* most = nullptr;
  for (const ScalingRow& row : report.scaling) {
    if (row.processes == 1) one = &row;
    if (row.processes == 8) eight = &row;
    if (most == nullptr || row.processes > most->processes) most = &row;
  }
  TargetCheck check{"postgres put throughput, 1 -> 8 processes",
                    ">= 3x one process's puts/s (1 KB, 1 channel)",
                    "n/a",
                    {}};
  const ScalingRow* many = eight != nullptr ? eight : most;
  if (one != nullptr && many != nullptr && many != one &&
      one->median_puts_per_sec() > 0) {
    const double scale =
        many->median_puts_per_sec() / one->median_puts_per_sec();
    check.measured = std::to_string(many->processes) + " processes " +
                     Fixed("%.0f", many->median_puts_per_sec()) + " vs " +
                     Fixed("%.0f puts/s", one->median_puts_per_sec()) + " = " +
                     Fixed("%.2fx", scale);
    if (eight != nullptr) {
      check.met = scale >= 3;
    } else {
      check.measured += " (judged at 8 processes: not measured)";
    }
  }
  out->push_back(check);
}

void PostgresTargets(const Report& report, std::vector<TargetCheck>* out) {
  if (!report.postgres) return;  // the header says why.
  const BenchOptions& options = *report.options;
  PostgresRoundTripTargets(report, out);
  if (options.Runs("delta")) PostgresDeltaTarget(report, out);
  if (options.Runs("scaling")) PostgresScalingTarget(report, out);
}

// docs/DESIGN.md's storage target for one delta mode: at the largest N, live
// bytes <= 2x the message bytes, and O(N): the growth exponent between the
// two largest N <= 1.2.
TargetCheck StorageCheck(const Report& report, const std::string& mode,
                         const std::string& what) {
  std::vector<const GrowthRow*> rows;
  for (const GrowthRow& row : report.growth) {
    if (row.mode == mode) rows.push_back(&row);
  }
  std::sort(rows.begin(), rows.end(),
            [](auto* a, auto* b) { return a->turns < b->turns; });
  TargetCheck check{what,
                    "O(N) bytes; <= 2x the raw bytes of all messages "
                    "(at the largest N)",
                    "n/a",
                    {}};
  if (rows.size() >= 2) {
    const GrowthRow& last = *rows.back();
    const GrowthRow& prev = *rows[rows.size() - 2];
    // Growth exponent between the two largest N: 1 is linear, 2 is
    // quadratic (full snapshots).
    const double exponent =
        std::log(static_cast<double>(last.live_bytes) / prev.live_bytes) /
        std::log(static_cast<double>(last.turns) / prev.turns);
    check.measured = "N=" + std::to_string(last.turns) + ": " +
                     Fixed("%.2fx raw bytes", last.live_to_user()) +
                     "; growth exponent " + Fixed("%.2f", exponent) +
                     "; load " + Fixed("%.0f us", last.load_median_us) +
                     " (replays " + std::to_string(last.replay_writes) +
                     " writes)";
    check.met = last.live_to_user() <= 2 && exponent <= 1.2;
  }
  return check;
}

void StorageTargets(const Report& report, std::vector<TargetCheck>* out) {
  for (const size_t k : report.options->snapshot_every) {
    out->push_back(
        StorageCheck(report, "delta-k" + std::to_string(k) + "-rocksdb",
                     "storage, delta channel K=" + std::to_string(k)));
  }
  for (const double ratio : report.options->geometric_ratios) {
    out->push_back(StorageCheck(
        report, GeometricModeName(ratio),
        "storage, delta channel, geometric snapshots (ratio " +
            Fixed("%g", ratio) + ", min " +
            std::to_string(report.options->geometric_min_bytes) + " B)"));
  }
}

}  // namespace

std::optional<double> RockpointSpeedup(const std::vector<Measurement>& results,
                                       const Measurement& m) {
  if (m.subject == kRockpoint) return std::nullopt;
  return Speedup(results, m.operation, m.variant, m.subject);
}

std::vector<TargetCheck> CheckTargets(const Report& report) {
  std::vector<TargetCheck> checks;
  const BenchOptions& options = *report.options;
  if (options.Runs("put")) PutTargets(report, &checks);
  if (options.Runs("get")) ReadTargets(report, &checks);
  if (options.Runs("delta")) DeltaTargets(report, &checks);
  if (options.Runs("encryption")) EncryptionTargets(report, &checks);
  ChecksumTargets(report, &checks);
  if (options.Runs("storage")) StorageTargets(report, &checks);
  PostgresTargets(report, &checks);
  TargetCheck async{"async durability, 1 ms node",
                    "step time ~ max(node, persist), not the sum (async <= "
                    "1.25x max)",
                    "not measured",
                    {}};
  const Measurement* modes[3] = {nullptr, nullptr, nullptr};
  for (const Measurement& m : report.results) {
    if (m.operation != "runtime step" ||
        m.variant.find("; 1 ms node;") == std::string::npos) {
      continue;
    }
    const std::string mode = m.variant.substr(0, m.variant.find(';'));
    if (mode == "sync") modes[0] = &m;
    if (mode == "async") modes[1] = &m;
    if (mode == "exit") modes[2] = &m;
  }
  if (modes[0] != nullptr && modes[1] != nullptr && modes[2] != nullptr) {
    // exit persists once at the end: its step time is the node's (plus the
    // runtime's own cost); sync adds one persist per step.
    const double sync = modes[0]->median_us(),
                 async_step = modes[1]->median_us(),
                 node = modes[2]->median_us();
    const double persist = std::max(0.0, sync - node);
    const double bound = std::max(node, persist);
    async.measured = "async " + Fixed("%.0f us", async_step) + "/step; sync " +
                     Fixed("%.0f", sync) + " = node " + Fixed("%.0f", node) +
                     " + persist " + Fixed("%.0f", persist) + "; max " +
                     Fixed("%.0f", bound) +
                     "; async / max = " + Fixed("%.2f", async_step / bound);
    async.met = async_step <= 1.25 * bound;
  }
  checks.push_back(async);

  TargetCheck memory{"async durability, memory",
                     "memory flat over 100k steps (runtime on a sink store: "
                     "RSS growth from 50% to 100% of the run <= max(16 MB, "
                     "10%))",
                     "not measured",
                     {}};
  const auto fact = [&](const std::string& name) -> std::optional<double> {
    const auto it = report.facts.find(name);
    if (it == report.facts.end()) return std::nullopt;
    return it->second;
  };
  // "s steps: a / b / c MB" (RSS at 10%, 50%, 100%) of one memory run.
  const auto describe = [&](const std::string& run) -> std::string {
    const auto steps = fact(run + "_steps");
    const auto at10 = fact(run + "_rss_kib_10pct");
    const auto at50 = fact(run + "_rss_kib_50pct");
    const auto at100 = fact(run + "_rss_kib_100pct");
    if (!steps || !at10 || !at50 || !at100) return "";
    return Fixed("%.0f steps, RSS at 10/50/100%%: ", *steps) +
           Fixed("%.1f / ", *at10 / 1024) + Fixed("%.1f / ", *at50 / 1024) +
           Fixed("%.1f MB", *at100 / 1024);
  };
  const std::string sink = describe("runtime_memory_sink");
  if (!sink.empty()) {
    const double at50 = *fact("runtime_memory_sink_rss_kib_50pct");
    const double at100 = *fact("runtime_memory_sink_rss_kib_100pct");
    memory.measured = "sink store: " + sink;
    const std::string rocks = describe("runtime_memory_rockpoint");
    if (!rocks.empty()) {
      memory.measured +=
          "; on rockpoint (with RocksDB memtables and block "
          "cache): " +
          rocks;
    }
    memory.met = at100 - at50 <= std::max(16.0 * 1024, 0.1 * at50);
  }
  checks.push_back(memory);
  return checks;
}

}  // namespace rockpoint::bench
