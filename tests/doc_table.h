// Reads a Markdown table that a format doc marks for its tests, so a test
// can check that the doc and the code agree. The table sits between the
// lines <!-- NAME:begin --> and <!-- NAME:end -->; its header row is
// skipped, its separator row ("|---|") does not start with "| ".
//
// Thread-safety: test code, single-threaded.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace rockpoint::testing {

// `text` without surrounding spaces and backticks.
inline std::string TrimCell(const std::string& text) {
  const size_t begin = text.find_first_not_of(" `");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" `");
  return text.substr(begin, end + 1 - begin);
}

// The rows of table `name` in the doc at `doc` (relative to the source
// tree), each as its trimmed cells; the row starting with `header` is left
// out. REQUIREs that the doc opens.
inline std::vector<std::vector<std::string>> ReadDocTable(
    const std::filesystem::path& doc, std::string_view name,
    std::string_view header) {
  const std::filesystem::path path =
      std::filesystem::path(ROCKPOINT_SOURCE_DIR) / doc;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path.string());
  const std::string begin = "<!-- " + std::string(name) + ":begin -->";
  const std::string end = "<!-- " + std::string(name) + ":end -->";
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(begin) != std::string::npos) {
      inside = true;
    } else if (line.find(end) != std::string::npos) {
      inside = false;
    } else if (inside && line.rfind("| ", 0) == 0 &&
               line.rfind(header, 0) != 0) {
      // "| a | b | c |": split on " | " between the cells.
      std::vector<std::string> cells;
      const std::string body = line.substr(1, line.size() - 2);
      size_t start = 0;
      while (true) {
        const size_t bar = body.find(" | ", start);
        cells.push_back(TrimCell(body.substr(start, bar - start)));
        if (bar == std::string::npos) break;
        start = bar + 3;
      }
      rows.push_back(std::move(cells));
    }
  }
  return rows;
}

}  // namespace rockpoint::testing
