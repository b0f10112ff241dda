// rockpoint-bench: runs the benchmark sections and the storage-growth study,
// prints the markdown report on stdout (progress on stderr), and writes
// results.{md,csv,json}, storage_growth.csv and storage_growth.svg to --out.
// Exit status: 0 on success, 1 if a store operation failed or an output
// could not be written, 2 on bad flags.
//
// `rockpoint-bench --scaling-writer ...` is the scaling section's writer
// process (RunScalingWriter), not a bench run.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include "bench/bench_options.h"
#include "bench/machine_info.h"
#include "bench/operations.h"
#include "bench/report.h"
#include "bench/storage_growth.h"
#include "bench/svg_plot.h"

namespace rockpoint::bench {
namespace {

namespace fs = std::filesystem;

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::IOError("cannot write " + path.string());
  return Status::OK();
}

Status RunSections(BenchContext& ctx) {
  struct Section {
    const char* name;
    Status (*run)(BenchContext&);
  };
  const Section sections[] = {{"put", RunPutSection},
                              {"get", RunGetSection},
                              {"list", RunListSection},
                              {"delta", RunDeltaSection},
                              {"retention", RunRetentionSection},
                              {"encryption", RunEncryptionSection},
                              {"runtime", RunRuntimeSection},
                              {"scaling", RunScalingSection}};
  for (const Section& section : sections) {
    if (!ctx.options.Runs(section.name)) continue;
    std::fprintf(stderr, "[%s]\n", section.name);
    Stopwatch watch;
    Status status = section.run(ctx);
    std::fprintf(stderr, "[%s] %.1f s\n", section.name,
                 watch.ElapsedMicros() / 1e6);
    if (!status.ok()) {
      return Status::Aborted(std::string(section.name) + ": " +
                             status.ToString());
    }
  }
  return Status::OK();
}

Status WriteGrowthOutputs(const fs::path& out, const std::string& csv) {
  RP_RETURN_IF_ERROR(WriteFile(out / "storage_growth.csv", csv));
  PlotSpec spec;
  spec.title = "Checkpoint storage against conversation length";
  spec.x_label = "turns (log scale)";
  spec.y_label = "bytes on disk after compaction (log scale)";
  spec.x_column = "turns";
  spec.y_column = "live_bytes";
  spec.series_column = "mode";
  spec.reference_column = "user_bytes";
  spec.reference_label = "raw message bytes";
  RP_ASSIGN_OR_RETURN(std::string svg, PlotCsvToSvg(csv, spec));
  return WriteFile(out / "storage_growth.svg", svg);
}

// What to run and where the outputs go. Returns the --postgres-url option
// (its count() tells whether it was given).
CLI::Option* AddRunFlags(CLI::App& app, BenchOptions& options, bool& quick,
                         std::string& postgres_url) {
  app.add_flag("--quick", quick, "small CI workload (seconds)");
  CLI::Option* postgres = app.add_option(
      "--postgres-url", postgres_url,
      "PostgreSQL server of the postgres subject and the scaling "
      "section (default: $ROCKPOINT_BENCH_POSTGRES_URL, else "
      "$ROCKPOINT_TEST_POSTGRES_URL, else "
      "$ROCKPOINT_TEST_POSTGRES_DEFAULT_URL; empty: none)");
  app.add_option("--out", options.out_dir, "output directory")
      ->capture_default_str();
  app.add_option("--work-dir", options.work_dir,
                 "scratch directory for the stores (default: a temp dir)");
  app.add_option("--sections", options.sections,
                 "put get list delta retention encryption storage runtime "
                 "scaling")
      ->delimiter(',')
      ->check(CLI::IsMember({"put", "get", "list", "delta", "retention",
                             "encryption", "storage", "runtime", "scaling"}));
  app.add_option("--repetitions", options.repetitions)
      ->check(CLI::Range(1, 100));
  app.add_option("--warmup", options.warmup_ops, "warm-up calls per thread");
  app.add_option("--ops", options.ops, "timed calls per repetition")
      ->check(CLI::Range(size_t{1}, size_t{10000000}));
  app.add_option("--sync-ops", options.sync_ops,
                 "timed synced writes per repetition")
      ->check(CLI::Range(size_t{1}, size_t{10000000}));
  app.add_option("--slow-ops", options.slow_ops,
                 "timed calls per repetition of slow operations")
      ->check(CLI::Range(size_t{1}, size_t{10000000}));
  return postgres;
}

// The workload sizes.
void AddWorkloadFlags(CLI::App& app, BenchOptions& options) {
  app.add_option("--state-bytes", options.state_bytes)->delimiter(',');
  app.add_option("--channels", options.channels)->delimiter(',');
  app.add_option("--threads", options.threads, "writer threads")
      ->delimiter(',');
  app.add_option("--base-channels", options.base_channels);
  app.add_option("--chains", options.chains, "delta-history chain lengths")
      ->delimiter(',');
  app.add_option("--turns", options.turns, "storage study: turns")
      ->delimiter(',');
  app.add_option("--message-bytes", options.message_bytes,
                 "storage study and delta history: message size");
  app.add_option("--snapshot-every", options.snapshot_every,
                 "storage study: delta snapshot frequencies K")
      ->delimiter(',');
  app.add_option("--geometric-ratios", options.geometric_ratios,
                 "storage study: geometric snapshot policy ratios")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--geometric-min-bytes", options.geometric_min_bytes,
                 "storage study: geometric snapshot policy min_bytes");
  app.add_option("--writers", options.writers,
                 "scaling: writer processes per measurement")
      ->delimiter(',')
      ->check(CLI::Range(1, 256));
  app.add_option("--scaling-puts", options.scaling_puts,
                 "scaling: timed puts per writer process per repetition")
      ->check(CLI::Range(size_t{1}, size_t{10000000}));
}

// Parses the flags into *options. Returns the exit status when the program
// is to stop here (--help: 0, bad flags: 2), nullopt to go on.
std::optional<int> ParseFlags(int argc, char** argv, BenchOptions* options) {
  CLI::App app{
      "rockpoint-bench: rockpoint (RocksDB backend) against the SQLite "
      "and JSONL backends and raw RocksDB, and the storage-growth study"};
  bool quick = false;
  std::string postgres_url;
  const CLI::Option* postgres_flag =
      AddRunFlags(app, *options, quick, postgres_url);
  AddWorkloadFlags(app, *options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (quick) {
    // --quick replaces every workload size; --out, --work-dir,
    // --sections and --postgres-url still apply.
    BenchOptions given = *options;
    ApplyQuick(options);
    options->out_dir = given.out_dir;
    options->work_dir = given.work_dir;
    options->sections = given.sections;
  }
  ResolvePostgresUrl(postgres_flag->count() > 0
                         ? std::optional<std::string>(postgres_url)
                         : std::nullopt,
                     options);
  for (const auto& list_empty :
       {options->state_bytes.empty(), options->channels.empty(),
        options->threads.empty(), options->chains.empty(),
        options->turns.empty(), options->writers.empty()}) {
    if (list_empty) {
      std::cerr << "rockpoint-bench: a size list is empty\n";
      return 2;
    }
  }
  return std::nullopt;
}

// Runs the sections and the storage study into *report, then checks the
// targets.
Status RunBench(const BenchOptions& options, Report* report) {
  report->options = &options;
  report->machine = CollectMachineInfo();
  Stopwatch total;
  auto created = Scratch::Create(options.work_dir, options.postgres_url);
  if (!created.ok()) {
    if (options.postgres_url.empty()) return created.status();
    return Status::IOError(created.status().message() + " (the server of " +
                           options.postgres_url_source +
                           "; --postgres-url '' runs without postgres)");
  }
  std::unique_ptr<Scratch> scratch = std::move(created).value();
  if (PostgresServer* server = scratch->postgres()) {
    report->postgres = server->settings();
  }
  BenchContext ctx{options, *scratch, {}, {}, {}, {}};
  RP_RETURN_IF_ERROR(RunSections(ctx));
  if (options.Runs("storage")) {
    std::fprintf(stderr, "[storage]\n");
    Stopwatch watch;
    auto growth = RunStorageGrowth(options, *scratch);
    std::fprintf(stderr, "[storage] %.1f s\n", watch.ElapsedMicros() / 1e6);
    if (!growth.ok()) return growth.status();
    report->growth = std::move(*growth);
  }
  report->results = std::move(ctx.results);
  report->not_done = std::move(ctx.not_done);
  report->facts = std::move(ctx.facts);
  report->scaling = std::move(ctx.scaling);
  report->machine.load_end = LoadAverage();
  report->total_seconds = total.ElapsedMicros() / 1e6;
  report->targets = CheckTargets(*report);
  return Status::OK();
}

// Writes results.{md,csv,json} and, when the storage study ran,
// storage_growth.{csv,svg} to `out` (created if missing).
Status WriteOutputs(const Report& report, const std::string& markdown,
                    const fs::path& out) {
  std::error_code error;
  fs::create_directories(out, error);
  for (Status written :
       {WriteFile(out / "results.md", markdown),
        WriteFile(out / "results.csv", RenderResultsCsv(report)),
        WriteFile(out / "results.json", RenderJson(report)),
        report.growth.empty()
            ? Status::OK()
            : WriteGrowthOutputs(out, GrowthCsv(report.growth))}) {
    RP_RETURN_IF_ERROR(written);
  }
  return Status::OK();
}

int Main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == kScalingWriterFlag) {
    return RunScalingWriter(argc, argv);
  }
  BenchOptions options;
  if (std::optional<int> exit_status = ParseFlags(argc, argv, &options)) {
    return *exit_status;
  }
  Report report;
  if (Status status = RunBench(options, &report); !status.ok()) {
    std::cerr << "rockpoint-bench: " << status.ToString() << "\n";
    return 1;
  }
  const std::string markdown = RenderMarkdown(report);
  std::cout << markdown << std::flush;
  const fs::path out(options.out_dir);
  if (Status written = WriteOutputs(report, markdown, out); !written.ok()) {
    std::cerr << "rockpoint-bench: " << written.ToString() << "\n";
    return 1;
  }
  std::fprintf(stderr, "wrote %s/results.{md,csv,json}%s in %.1f s\n",
               out.string().c_str(),
               report.growth.empty() ? "" : ", storage_growth.{csv,svg}",
               report.total_seconds);
  return 0;
}

}  // namespace
}  // namespace rockpoint::bench

int main(int argc, char** argv) { return rockpoint::bench::Main(argc, argv); }
