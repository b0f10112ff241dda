// RenderMarkdown, RenderResultsCsv, RenderJson.
#include "bench/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rockpoint::bench {
namespace {

std::string Fixed(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// A CSV field, quoted (RFC 4180) only when it needs to be.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Markdown table cells must not contain '|'.
std::string Cell(std::string text) {
  for (char& c : text) {
    if (c == '|') c = '/';
  }
  return text;
}

std::string Latency(double micros) {
  return micros >= 100 ? Fixed("%.0f", micros) : Fixed("%.1f", micros);
}

// "1, 0.5" or "none".
std::string GeometricRatios(const BenchOptions& options) {
  std::string out;
  for (const double ratio : options.geometric_ratios) {
    out += (out.empty() ? "" : ", ") + Fixed("%g", ratio);
  }
  return out.empty() ? "none" : out;
}

std::string Verdict(const std::optional<bool>& met) {
  if (!met) return "n/a";
  return *met ? "yes" : "no";
}

// The header's one line about the postgres subject: its server and
// durability settings, or why it was left out.
std::string PostgresLine(const Report& report) {
  if (!report.postgres) {
    std::string variables;
    for (const char* variable : kPostgresUrlVariables) {
      variables += std::string(", ") + variable;
    }
    return "- postgres: not measured (no server given: --postgres-url" +
           variables + "); the scaling section needs one\n";
  }
  const PostgresSettings& pg = *report.postgres;
  return "- postgres: PostgreSQL " + pg.version + " (" + pg.where +
         ", URL from " + report.options->postgres_url_source +
         "), a fresh database per store set; the server's fsync " + pg.fsync +
         ", synchronous_commit " + pg.synchronous_commit +
         ": its durability is the server's, the same in the sync and "
         "no-sync variants\n";
}

// The scaling section's table, "" when it did not run.
std::string ScalingMarkdown(const Report& report) {
  if (report.scaling.empty()) return "";
  std::ostringstream md;
  md << "\n## postgres put throughput by writer processes\n\n"
     << "Writer processes (rockpoint-bench re-executed), each putting "
     << report.scaling.front().puts_per_process
     << " checkpoints (1 KB state, 1 channel) to its own thread of one "
        "shared database, released together; puts/s: all processes' puts "
        "over the wall time from the release to the last exit, median of "
     << report.scaling.front().puts_per_sec.size() << " rounds.\n\n"
     << "| processes | puts/s | puts/s per process | vs 1 process |\n"
     << "|---:|---:|---:|---:|\n";
  const ScalingRow* one = nullptr;
  for (const ScalingRow& row : report.scaling) {
    if (row.processes == 1) one = &row;
  }
  for (const ScalingRow& row : report.scaling) {
    const double rate = row.median_puts_per_sec();
    md << "| " << row.processes << " | " << Fixed("%.0f", rate) << " | "
       << Fixed("%.0f", rate / row.processes) << " | "
       << (one != nullptr && one->median_puts_per_sec() > 0
               ? Fixed("%.2fx", rate / one->median_puts_per_sec())
               : "")
       << " |\n";
  }
  return md.str();
}

}  // namespace

std::string RenderMarkdown(const Report& report) {
  const BenchOptions& options = *report.options;
  const MachineInfo& machine = report.machine;
  std::ostringstream md;
  md << "# rockpoint-bench results\n\n"
     << "- date: " << machine.date_utc << "\n"
     << "- machine: " << machine.cores << " cores"
     << (machine.cpu_model.empty() ? "" : " (" + machine.cpu_model + ")")
     << "; load average at start " << machine.load_start << ", at end "
     << machine.load_end << "\n"
     << "- rockpoint commit: "
     << (machine.commit.empty() ? "unknown" : machine.commit) << "\n"
     << "- mode: " << (options.quick ? "quick (CI)" : "full")
     << "; repetitions " << options.repetitions << " (interleaved across "
     << "subjects); warm-up up to " << options.warmup_ops
     << " calls per thread; " << options.ops << " calls per repetition ("
     << options.sync_ops << " for synced writes, " << options.slow_ops
     << " for slow operations)\n"
     << PostgresLine(report)
     << "- total time: " << Fixed("%.1f s", report.total_seconds) << "\n\n";

  md << "## Operations\n\n"
     << "Latency per call in microseconds: median and p99 over every timed "
        "call of every repetition. ops/s: timed calls per wall-clock second, "
        "all writer threads together. rockpoint x: the peer's median over "
        "rockpoint's median, same operation and variant, same run (> 1: "
        "rockpoint is that many times faster).\n\n"
     << "| operation | variant | subject | median us | p99 us | ops/s | "
        "rockpoint x |\n"
     << "|---|---|---|---:|---:|---:|---:|\n";
  for (const Measurement& m : report.results) {
    const auto speedup = RockpointSpeedup(report.results, m);
    md << "| " << Cell(m.operation) << " | " << Cell(m.variant) << " | "
       << m.subject << " | " << Latency(m.median_us()) << " | "
       << Latency(m.p99_us()) << " | " << Fixed("%.0f", m.ops_per_sec())
       << " | " << (speedup ? Fixed("%.2f", *speedup) : "") << " |\n";
  }

  md << ScalingMarkdown(report);

  md << "\n## Targets (DESIGN.md)\n\n"
     << "| what | target | measured | met |\n|---|---|---|---|\n";
  for (const TargetCheck& check : report.targets) {
    md << "| " << Cell(check.what) << " | " << Cell(check.target) << " | "
       << Cell(check.measured) << " | " << Verdict(check.met) << " |\n";
  }

  if (!report.growth.empty()) {
    md << "\n## Storage growth\n\n"
       << "One conversation of N turns of " << options.message_bytes
       << "-byte messages per row, in a fresh store. live: data files after "
          "compaction (RocksDB SST + blob files; the SQLite database file; "
          "the JSONL journal after Compact()); "
          "disk: every file of the store. write amp.: bytes written to disk "
          "over the serialized message bytes. load: get_tuple (+ delta "
          "history + replay). snapshots: checkpoints storing the whole "
          "list; replayed: writes the load of the latest state replays. "
          "delta-geo: the geometric snapshot policy (ratio "
       << GeometricRatios(options) << ", min_bytes "
       << options.geometric_min_bytes << ").\n\n"
       << "| mode | turns | message bytes | live bytes | live / messages | "
          "disk bytes | write amp. | load median us | snapshots | replayed "
          "|\n"
       << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const GrowthRow& row : report.growth) {
      md << "| " << row.mode << " | " << row.turns << " | " << row.user_bytes
         << " | " << row.live_bytes << " | "
         << Fixed("%.2f", row.live_to_user()) << " | " << row.disk_bytes
         << " | " << Fixed("%.1f", row.write_amplification()) << " | "
         << Latency(row.load_median_us) << " | " << row.snapshots << " | "
         << row.replay_writes << " |\n";
    }
  }
  if (!report.not_done.empty()) {
    md << "\n## Not measured\n\n";
    for (const std::string& reason : report.not_done)
      md << "- " << reason << "\n";
  }
  return md.str();
}

std::string RenderResultsCsv(const Report& report) {
  std::ostringstream csv;
  csv << "operation,variant,subject,threads,repetitions,samples,median_us,"
         "p99_us,mean_us,ops_per_sec,spread_pct,rockpoint_speedup\n";
  for (const Measurement& m : report.results) {
    const auto speedup = RockpointSpeedup(report.results, m);
    csv << CsvField(m.operation) << ',' << CsvField(m.variant) << ','
        << CsvField(m.subject) << ',' << m.threads << ',' << m.repetitions
        << ',' << m.samples_us.size() << ',' << Fixed("%.3f", m.median_us())
        << ',' << Fixed("%.3f", m.p99_us()) << ',' << Fixed("%.3f", m.mean_us())
        << ',' << Fixed("%.1f", m.ops_per_sec()) << ','
        << Fixed("%.1f", m.spread_pct()) << ','
        << (speedup ? Fixed("%.4f", *speedup) : "") << '\n';
  }
  return csv.str();
}

std::string RenderJson(const Report& report) {
  using nlohmann::json;
  const BenchOptions& options = *report.options;
  json doc;
  doc["header"] = {{"date", report.machine.date_utc},
                   {"cores", report.machine.cores},
                   {"cpu_model", report.machine.cpu_model},
                   {"commit", report.machine.commit},
                   {"load_average_start", report.machine.load_start},
                   {"load_average_end", report.machine.load_end},
                   {"quick", options.quick},
                   {"total_seconds", report.total_seconds}};
  doc["options"] = {{"repetitions", options.repetitions},
                    {"warmup_ops", options.warmup_ops},
                    {"ops", options.ops},
                    {"sync_ops", options.sync_ops},
                    {"slow_ops", options.slow_ops},
                    {"state_bytes", options.state_bytes},
                    {"channels", options.channels},
                    {"threads", options.threads},
                    {"base_channels", options.base_channels},
                    {"chains", options.chains},
                    {"turns", options.turns},
                    {"message_bytes", options.message_bytes},
                    {"snapshot_every", options.snapshot_every},
                    {"geometric_ratios", options.geometric_ratios},
                    {"geometric_min_bytes", options.geometric_min_bytes},
                    {"writers", options.writers},
                    {"scaling_puts", options.scaling_puts}};
  doc["postgres"] = nullptr;
  if (report.postgres) {
    doc["postgres"] = {
        {"version", report.postgres->version},
        {"where", report.postgres->where},
        {"url_source", options.postgres_url_source},
        {"fsync", report.postgres->fsync},
        {"synchronous_commit", report.postgres->synchronous_commit}};
  }
  json results = json::array();
  for (const Measurement& m : report.results) {
    const auto speedup = RockpointSpeedup(report.results, m);
    results.push_back(
        {{"operation", m.operation},
         {"variant", m.variant},
         {"subject", m.subject},
         {"threads", m.threads},
         {"repetitions", m.repetitions},
         {"samples", m.samples_us.size()},
         {"median_us", m.median_us()},
         {"p99_us", m.p99_us()},
         {"mean_us", m.mean_us()},
         {"ops_per_sec", m.ops_per_sec()},
         {"spread_pct", m.spread_pct()},
         {"rep_medians_us", m.rep_medians},
         {"rockpoint_speedup", speedup ? json(*speedup) : json(nullptr)}});
  }
  doc["results"] = std::move(results);
  json targets = json::array();
  for (const TargetCheck& check : report.targets) {
    targets.push_back({{"what", check.what},
                       {"target", check.target},
                       {"measured", check.measured},
                       {"met", check.met ? json(*check.met) : json(nullptr)}});
  }
  doc["targets"] = std::move(targets);
  json growth = json::array();
  for (const GrowthRow& row : report.growth) {
    growth.push_back({{"mode", row.mode},
                      {"backend", row.backend},
                      {"snapshot_every", row.snapshot_every},
                      {"geometric_ratio", row.geometric_ratio},
                      {"snapshots", row.snapshots},
                      {"replay_writes", row.replay_writes},
                      {"turns", row.turns},
                      {"message_bytes", row.message_bytes},
                      {"user_bytes", row.user_bytes},
                      {"live_bytes", row.live_bytes},
                      {"disk_bytes", row.disk_bytes},
                      {"io_write_bytes", row.io_write_bytes},
                      {"syscall_write_bytes", row.syscall_write_bytes},
                      {"write_amplification", row.write_amplification()},
                      {"live_to_user", row.live_to_user()},
                      {"load_median_us", row.load_median_us},
                      {"load_p99_us", row.load_p99_us}});
  }
  doc["storage_growth"] = std::move(growth);
  json scaling = json::array();
  for (const ScalingRow& row : report.scaling) {
    scaling.push_back({{"processes", row.processes},
                       {"puts_per_process", row.puts_per_process},
                       {"puts_per_sec", row.median_puts_per_sec()},
                       {"round_puts_per_sec", row.puts_per_sec},
                       {"round_wall_seconds", row.wall_seconds}});
  }
  doc["scaling"] = std::move(scaling);
  doc["not_done"] = report.not_done;
  doc["facts"] = report.facts;
  return doc.dump(2) + "\n";
}

}  // namespace rockpoint::bench
