// The report: ratios, docs/DESIGN.md target checks, and the three renderings of
// one run (markdown for people, CSV and JSON for machines).
//
// Ratio ("rockpoint x"): for a peer's row, the peer's median latency over
// rockpoint's median latency for the same (operation, variant), measured in
// the same run: how many times faster rockpoint is than that peer (> 1:
// rockpoint is faster, < 1: slower). rockpoint's own rows have none.
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/machine_info.h"
#include "bench/measure.h"
#include "bench/postgres_server.h"
#include "bench/storage_growth.h"

namespace rockpoint::bench {

struct TargetCheck {
  std::string what;         // e.g. "put, no fsync, 1KB/10ch".
  std::string target;       // docs/DESIGN.md's wording.
  std::string measured;     // the figures.
  std::optional<bool> met;  // nullopt: not measured in this run.
};

struct Report {
  MachineInfo machine;
  const BenchOptions* options = nullptr;
  std::vector<Measurement> results;
  std::vector<GrowthRow> growth;
  std::vector<TargetCheck> targets;
  std::vector<std::string> not_done;
  std::map<std::string, double> facts;  // BenchContext::facts.
  // The postgres subject's server; nullopt when none was given (postgres
  // was left out of the run).
  std::optional<PostgresSettings> postgres;
  std::vector<ScalingRow> scaling;  // BenchContext::scaling.
  double total_seconds = 0;
};

// The peer-median / rockpoint-median ratio of `m`, nullopt for rockpoint's
// own rows or when rockpoint was not measured for that (operation, variant).
std::optional<double> RockpointSpeedup(const std::vector<Measurement>& results,
                                       const Measurement& m);

// Evaluates docs/DESIGN.md's "Performance targets" table against the run's
// figures.
std::vector<TargetCheck> CheckTargets(const Report& report);

std::string RenderMarkdown(const Report& report);
// One row per measurement: operation, variant, subject, threads,
// repetitions, samples, median_us, p99_us, mean_us, ops_per_sec,
// spread_pct, rockpoint_speedup.
std::string RenderResultsCsv(const Report& report);
std::string RenderJson(const Report& report);

}  // namespace rockpoint::bench
