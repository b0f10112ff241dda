#include "bench/bench_options.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace rockpoint::bench {

std::string DefaultOutDir() {
  std::error_code error;
  const std::filesystem::path temp =
      std::filesystem::temp_directory_path(error);
  return ((error ? std::filesystem::path("/tmp") : temp) /
          "rockpoint-bench-results")
      .string();
}

bool BenchOptions::Runs(const std::string& section) const {
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

void ApplyQuick(BenchOptions* options) {
  options->quick = true;
  options->repetitions = 2;
  options->warmup_ops = 5;
  options->ops = 40;
  options->sync_ops = 4;
  options->slow_ops = 3;
  options->state_bytes = {1024};
  options->channels = {1, 10};
  options->threads = {1, 2};
  options->base_channels = 10;
  options->read_threads = 10;
  options->short_thread_length = 10;
  options->long_thread_length = 100;
  options->retention_thread_length = 10;
  options->chains = {10, 100};
  options->turns = {10, 50};
  options->message_bytes = 256;
  options->snapshot_every = {10};
  options->geometric_ratios = {1.0};
  options->load_repetitions = 3;
  options->runtime_steps = 10;
  options->runtime_memory_steps = 500;
  options->writers = {1, 2};
  options->scaling_puts = 100;
}

void ResolvePostgresUrl(const std::optional<std::string>& flag,
                        BenchOptions* options) {
  if (flag) {
    options->postgres_url = *flag;
    options->postgres_url_source = flag->empty() ? "" : "--postgres-url";
    return;
  }
  for (const char* variable : kPostgresUrlVariables) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') {
      options->postgres_url = value;
      options->postgres_url_source = variable;
      return;
    }
  }
}

}  // namespace rockpoint::bench
