// Smoke test of rockpoint-bench: runs `rockpoint-bench --quick --out <tmp>`
// once and checks that it exits 0 and that every output is well-formed:
// the markdown report has the expected rows, the CSVs their columns, the
// JSON parses (nlohmann-json) with the same results, and the SVG is
// well-formed XML with one line per series. No timing is asserted.
//
// The binary is $ROCKPOINT_BENCH_BINARY, or bench/rockpoint-bench in the
// build tree that holds this test's build directory.
//
// The bench inherits this test's environment: when it names a PostgreSQL
// server (ctest sets ROCKPOINT_TEST_POSTGRES_DEFAULT_URL, see
// rockpoint_requires_postgres), the postgres subject's rows, its header line,
// its targets and the scaling section's table are checked too; otherwise
// the header's one line saying postgres was not measured.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/build_tree.h"
#include "bench/xml_wellformed.h"

namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Fields of one CSV line (RFC 4180 quoting).
std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// Cells of a markdown table row "| a | b |" -> {"a", "b"}.
std::vector<std::string> MarkdownCells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|') {
      const size_t b = cell.find_first_not_of(' ');
      const size_t e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

bool IsNumber(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// The rows of the markdown table that follows `heading`.
std::vector<std::vector<std::string>> MarkdownTable(
    const std::vector<std::string>& lines, const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  size_t i = 0;
  while (i < lines.size() && lines[i] != heading) ++i;
  while (i < lines.size() && lines[i].rfind("|", 0) != 0) ++i;
  for (; i < lines.size() && lines[i].rfind("|", 0) == 0; ++i) {
    rows.push_back(MarkdownCells(lines[i]));
  }
  return rows;
}

// Whether the quick run has a PostgreSQL server: one of the variables the
// bench reads when --postgres-url is not given (bench_options.h) is set.
bool WithPostgres() {
  for (const char* variable :
       {"ROCKPOINT_BENCH_POSTGRES_URL", "ROCKPOINT_TEST_POSTGRES_URL",
        "ROCKPOINT_TEST_POSTGRES_DEFAULT_URL"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

// The scratch directory of the quick run, removed at exit.
std::string& ScratchRoot() {
  static std::string root;
  return root;
}

void RemoveScratch() {
  std::error_code error;
  if (!ScratchRoot().empty()) fs::remove_all(ScratchRoot(), error);
}

// $ROCKPOINT_BENCH_BINARY, else bench/rockpoint-bench of the build tree
// that holds this test's build directory.
fs::path BenchBinary() {
  if (const char* from_env = std::getenv("ROCKPOINT_BENCH_BINARY")) {
    return from_env;
  }
  return rockpoint::testing::BenchProgram("rockpoint-bench");
}

// The one quick run every test case inspects.
struct QuickRun {
  fs::path out;
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
};

const QuickRun& Run() {
  static const QuickRun run = [] {
    QuickRun result;
    const fs::path binary = BenchBinary();
    INFO("binary: " << binary);
    REQUIRE(fs::exists(binary));
    char pattern[] = "/tmp/rockpoint-bench-smoke-XXXXXX";
    const char* dir = ::mkdtemp(pattern);
    REQUIRE(dir != nullptr);
    ScratchRoot() = dir;
    std::atexit(RemoveScratch);
    result.out = fs::path(dir) / "out";
    const fs::path work = fs::path(dir) / "work";
    const std::string command = "'" + binary.string() + "' --quick --out '" +
                                result.out.string() + "' --work-dir '" +
                                work.string() + "' > '" + dir +
                                "/stdout.md' 2> '" + dir + "/stderr.txt'";
    const int status = std::system(command.c_str());
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.stdout_text = ReadAll(fs::path(dir) / "stdout.md");
    result.stderr_text = ReadAll(fs::path(dir) / "stderr.txt");
    return result;
  }();
  return run;
}

TEST_CASE("rockpoint-bench --quick exits 0 and writes every output") {
  const QuickRun& run = Run();
  INFO("stderr: " << run.stderr_text);
  REQUIRE(run.exit_code == 0);
  for (const char* name : {"results.md", "results.csv", "results.json",
                           "storage_growth.csv", "storage_growth.svg"}) {
    CAPTURE(name);
    CHECK(fs::file_size(run.out / name) > 0);
  }
  CHECK(ReadAll(run.out / "results.md") == run.stdout_text);
}

TEST_CASE("the markdown report has a header and every operation's rows") {
  const QuickRun& run = Run();
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines = Lines(run.stdout_text);
  REQUIRE(!lines.empty());
  CHECK(lines[0] == "# rockpoint-bench results");
  CHECK(run.stdout_text.find("\n- date: ") != std::string::npos);
  CHECK(run.stdout_text.find("\n- machine: ") != std::string::npos);
  CHECK(run.stdout_text.find(" cores") != std::string::npos);
  CHECK(run.stdout_text.find("\n- rockpoint commit: ") != std::string::npos);

  const auto table = MarkdownTable(lines, "## Operations");
  REQUIRE(table.size() > 2);
  CHECK(table[0] == std::vector<std::string>{"operation", "variant", "subject",
                                             "median us", "p99 us", "ops/s",
                                             "rockpoint x"});
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 2; i < table.size(); ++i) {
    const auto& row = table[i];
    REQUIRE(row.size() == 7);
    CAPTURE(row[0]);
    CAPTURE(row[1]);
    CHECK(IsNumber(row[3]));
    CHECK(IsNumber(row[4]));
    CHECK(IsNumber(row[5]));
    // The ratio is given for every peer row and only for them.
    CHECK((row[2] == "rockpoint") == row[6].empty());
    if (!row[6].empty()) CHECK(IsNumber(row[6]));
    seen.emplace(row[0], row[2]);
  }
  std::map<std::string, std::vector<std::string>> expected = {
      {"put", {"rockpoint", "sqlite", "jsonl", "raw-rocksdb"}},
      {"put_writes", {"rockpoint", "sqlite", "jsonl", "raw-rocksdb"}},
      {"get_tuple latest", {"rockpoint", "sqlite", "jsonl", "raw-rocksdb"}},
      {"get_tuple by id", {"rockpoint", "sqlite", "jsonl", "raw-rocksdb"}},
      {"list", {"rockpoint", "sqlite", "jsonl"}},
      {"list global", {"rockpoint", "sqlite", "jsonl"}},
      {"delta history", {"rockpoint", "sqlite", "jsonl", "naive-walk"}},
      {"delete_thread", {"rockpoint", "sqlite", "jsonl"}},
      {"prune", {"rockpoint", "sqlite", "jsonl"}},
      {"copy_thread", {"rockpoint", "sqlite", "jsonl"}}};
  if (WithPostgres()) {
    for (auto& [operation, subjects] : expected) {
      // delta history: measured, or listed as not measured (below).
      if (operation != "delta history") subjects.push_back("postgres");
    }
    for (const char* operation : {"get_tuple latest", "get_tuple by id"}) {
      expected[operation].push_back("postgres SELECT 1");
    }
    expected["list"].push_back("postgres SELECT 1");
    const bool delta_rows = seen.count({"delta history", "postgres"}) == 1;
    const bool delta_reason =
        run.stdout_text.find("\n- postgres delta history, ") !=
        std::string::npos;
    CHECK(delta_rows != delta_reason);
  } else {
    for (const auto& [operation, subject] : seen) {
      CAPTURE(operation);
      CHECK(subject.rfind("postgres", 0) != 0);
    }
  }
  for (const auto& [operation, subjects] : expected) {
    for (const std::string& subject : subjects) {
      CAPTURE(operation);
      CAPTURE(subject);
      CHECK(seen.count({operation, subject}) == 1);
    }
  }
  // Runtime steps: measured, or listed as not measured.
  const bool runtime_rows = seen.count({"runtime step", "rockpoint"}) == 1;
  const bool runtime_reason =
      run.stdout_text.find("- runtime steps per second") != std::string::npos;
  CHECK(runtime_rows != runtime_reason);

  const auto targets = MarkdownTable(lines, "## Targets (DESIGN.md)");
  REQUIRE(targets.size() > 2);
  CHECK(targets[0] ==
        std::vector<std::string>{"what", "target", "measured", "met"});
  std::set<std::string> verdicts;
  std::string whats;
  for (size_t i = 2; i < targets.size(); ++i) {
    REQUIRE(targets[i].size() == 4);
    verdicts.insert(targets[i][3]);
    whats += targets[i][0] + "\n";
  }
  for (const std::string& verdict : verdicts) {
    CHECK((verdict == "yes" || verdict == "no" || verdict == "n/a"));
  }
  for (const char* what : {"put, no fsync", "put, fsync", "get_tuple latest",
                           "get_tuple by id", "list(limit 10)", "delta history",
                           "storage, delta channel", "async durability"}) {
    CAPTURE(what);
    CHECK(whats.find(what) != std::string::npos);
  }
  const auto growth = MarkdownTable(lines, "## Storage growth");
  CHECK(growth.size() == 2 + 5 * 2);  // 5 modes x 2 turn counts in --quick.
}

TEST_CASE("the postgres subject: header line, scaling table, targets") {
  const QuickRun& run = Run();
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines = Lines(run.stdout_text);
  std::vector<std::string> header;
  for (const std::string& line : lines) {
    if (line.rfind("- postgres: ", 0) == 0) header.push_back(line);
  }
  REQUIRE(header.size() == 1);
  const auto scaling =
      MarkdownTable(lines, "## postgres put throughput by writer processes");
  const auto targets = MarkdownTable(lines, "## Targets (DESIGN.md)");
  std::string whats;
  for (const auto& row : targets) whats += row.at(0) + "\n";
  if (!WithPostgres()) {
    CHECK(header[0].rfind("- postgres: not measured (no server given", 0) == 0);
    CHECK(scaling.empty());
    CHECK(whats.find("postgres") == std::string::npos);
    return;
  }
  CAPTURE(header[0]);
  CHECK(header[0].rfind("- postgres: PostgreSQL ", 0) == 0);
  CHECK(header[0].find("fsync o") != std::string::npos);
  CHECK(header[0].find("synchronous_commit ") != std::string::npos);
  // --quick: 1 and 2 writer processes.
  REQUIRE(scaling.size() == 2 + 2);
  CHECK(scaling[0] == std::vector<std::string>{"processes", "puts/s",
                                               "puts/s per process",
                                               "vs 1 process"});
  CHECK(scaling[2][0] == "1");
  CHECK(scaling[3][0] == "2");
  for (size_t i = 2; i < scaling.size(); ++i) {
    REQUIRE(scaling[i].size() == 4);
    CHECK(std::strtod(scaling[i][1].c_str(), nullptr) > 0);
  }
  for (const char* what :
       {"postgres get_tuple, ", "postgres list(limit 10)",
        "postgres delta history, ", "postgres put throughput, 1 -> 8"}) {
    CAPTURE(what);
    CHECK(whats.find(what) != std::string::npos);
  }
}

TEST_CASE("results.csv and results.json hold the same measurements") {
  const QuickRun& run = Run();
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines =
      Lines(ReadAll(run.out / "results.csv"));
  REQUIRE(lines.size() > 1);
  const std::vector<std::string> header = CsvFields(lines[0]);
  CHECK(header == std::vector<std::string>{"operation", "variant", "subject",
                                           "threads", "repetitions", "samples",
                                           "median_us", "p99_us", "mean_us",
                                           "ops_per_sec", "spread_pct",
                                           "rockpoint_speedup"});
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = CsvFields(lines[i]);
    CAPTURE(lines[i]);
    REQUIRE(fields.size() == header.size());
    for (size_t f = 3; f <= 10; ++f) CHECK(IsNumber(fields[f]));
    CHECK(std::strtod(fields[6].c_str(), nullptr) > 0);
    CHECK((fields[2] == "rockpoint") == fields[11].empty());
  }

  const nlohmann::json doc = nlohmann::json::parse(
      ReadAll(run.out / "results.json"), nullptr, /*allow_exceptions=*/false);
  REQUIRE(!doc.is_discarded());
  CHECK(doc["header"]["cores"].get<int>() > 0);
  CHECK(doc["header"]["quick"].get<bool>());
  CHECK(doc["header"]["date"].is_string());
  REQUIRE(doc["results"].is_array());
  CHECK(doc["results"].size() == lines.size() - 1);
  for (const auto& result : doc["results"]) {
    CHECK(result["median_us"].is_number());
    CHECK(result["p99_us"].get<double>() >= result["median_us"].get<double>());
    CHECK(result["rep_medians_us"].size() ==
          result["repetitions"].get<size_t>());
  }
  CHECK(doc["targets"].is_array());
  CHECK(doc["targets"].size() > 0);
  CHECK(doc["storage_growth"].size() == 10);
  if (WithPostgres()) {
    REQUIRE(doc["postgres"].is_object());
    CHECK(doc["postgres"]["fsync"].is_string());
    CHECK(doc["postgres"]["synchronous_commit"].is_string());
    REQUIRE(doc["scaling"].size() == 2);
    for (const auto& row : doc["scaling"]) {
      CHECK(row["puts_per_sec"].get<double>() > 0);
      CHECK(row["round_puts_per_sec"].size() ==
            doc["options"]["repetitions"].get<size_t>());
    }
  } else {
    CHECK(doc["postgres"].is_null());
    CHECK(doc["scaling"].empty());
  }
}

TEST_CASE("storage_growth.csv and storage_growth.svg are well-formed") {
  const QuickRun& run = Run();
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines =
      Lines(ReadAll(run.out / "storage_growth.csv"));
  REQUIRE(lines.size() == 1 + 10);
  const std::vector<std::string> header = CsvFields(lines[0]);
  CHECK(header == std::vector<std::string>{
                      "mode", "backend", "snapshot_every", "turns",
                      "message_bytes", "user_bytes", "live_bytes", "disk_bytes",
                      "io_write_bytes", "syscall_write_bytes",
                      "write_amplification", "live_to_user", "load_median_us",
                      "load_p99_us"});
  std::set<std::string> modes;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = CsvFields(lines[i]);
    REQUIRE(fields.size() == header.size());
    modes.insert(fields[0]);
    for (size_t f = 2; f < fields.size(); ++f) CHECK(IsNumber(fields[f]));
    CHECK(std::strtoull(fields[6].c_str(), nullptr, 10) > 0);  // live bytes
  }
  CHECK(modes == std::set<std::string>{"full-rocksdb", "delta-k10-rocksdb",
                                       "delta-geo-rocksdb", "full-sqlite",
                                       "full-jsonl"});

  const std::string svg = ReadAll(run.out / "storage_growth.svg");
  const rockpoint::bench_test::XmlCheck xml =
      rockpoint::bench_test::CheckXml(svg);
  INFO(xml.error);
  REQUIRE(xml.ok);
  CHECK(xml.root == "svg");
  // One line per mode plus the dashed raw-message-bytes reference.
  CHECK(std::count(xml.names.begin(), xml.names.end(), "polyline") == 6);
}

TEST_CASE("the XML check rejects malformed documents") {
  using rockpoint::bench_test::CheckXml;
  CHECK(CheckXml("<svg><g></g></svg>").ok);
  CHECK(CheckXml("<?xml version=\"1.0\"?>\n<svg a=\"1\"/>").ok);
  CHECK_FALSE(CheckXml("<svg><g></svg></g>").ok);
  CHECK_FALSE(CheckXml("<svg a=1></svg>").ok);
  CHECK_FALSE(CheckXml("<svg>a & b</svg>").ok);
  CHECK_FALSE(CheckXml("<svg></svg><svg></svg>").ok);
  CHECK_FALSE(CheckXml("<svg>").ok);
  CHECK_FALSE(CheckXml("<svg a=\"1\" a=\"2\"/>").ok);
}

}  // namespace
