// A small line-plot renderer: reads a CSV (header row, comma-separated, no
// quoted fields) and draws one polyline per series as a standalone SVG
// document, with log or linear axes, decade / rounded ticks, grid lines and
// a legend. No plotting dependency: the bench draws its own figure.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "rockpoint/status.h"

namespace rockpoint::bench {

struct PlotSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string x_column;       // numeric.
  std::string y_column;       // numeric.
  std::string series_column;  // one line per distinct value.
  // Optional: a column drawn as one extra dashed line (its value per x,
  // from the first row with that x), e.g. the raw message bytes.
  std::string reference_column;
  std::string reference_label;
  bool log_x = true;
  bool log_y = true;
  int width = 880;
  int height = 520;
};

// A parsed CSV: header names and rows of fields.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  // Index of `name` in header, or -1.
  int Column(const std::string& name) const;
};

// InvalidArgument for a ragged row or an empty text.
Result<CsvTable> ParseCsv(const std::string& text);

// The SVG document. InvalidArgument if a named column is missing, a value
// is not a number (or not positive on a log axis), or there is no data.
Result<std::string> PlotCsvToSvg(const std::string& csv_text,
                                 const PlotSpec& spec);

}  // namespace rockpoint::bench
