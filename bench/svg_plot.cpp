#include "bench/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace rockpoint::bench {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c",
                                    "#9467bd", "#ff7f0e", "#8c564b",
                                    "#e377c2", "#17becf", "#7f7f7f"};

std::string Escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<std::string> SplitLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

// Short number for tick labels: 1k, 10M, 2.5, 100.
std::string TickLabel(double value) {
  const char* suffixes[] = {"", "k", "M", "G", "T"};
  int index = 0;
  double scaled = value;
  while (std::fabs(scaled) >= 1000 && index < 4) {
    scaled /= 1000;
    ++index;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g%s", scaled, suffixes[index]);
  return buffer;
}

// One axis: maps data to pixels, and its ticks.
struct Axis {
  bool log = true;
  double lo = 0, hi = 1;  // in data units (log: decades at the ends).
  double pixel_lo = 0, pixel_hi = 1;

  static Axis Fit(double min, double max, bool log, double pixel_lo,
                  double pixel_hi) {
    Axis axis;
    axis.log = log;
    axis.pixel_lo = pixel_lo;
    axis.pixel_hi = pixel_hi;
    if (log) {
      axis.lo = std::pow(10, std::floor(std::log10(min)));
      axis.hi = std::pow(10, std::ceil(std::log10(max)));
      if (axis.hi <= axis.lo) axis.hi = axis.lo * 10;
    } else {
      const double span = max > min ? max - min : std::max(1.0, max);
      const double step = std::pow(10, std::floor(std::log10(span)));
      axis.lo = std::floor(std::min(0.0, min) / step) * step;
      axis.hi = std::ceil(max / step) * step;
      if (axis.hi <= axis.lo) axis.hi = axis.lo + step;
    }
    return axis;
  }

  double Map(double value) const {
    const double f = log ? (std::log10(value) - std::log10(lo)) /
                               (std::log10(hi) - std::log10(lo))
                         : (value - lo) / (hi - lo);
    return pixel_lo + f * (pixel_hi - pixel_lo);
  }

  std::vector<double> Ticks() const {
    std::vector<double> ticks;
    if (log) {
      for (double t = lo; t <= hi * 1.0001; t *= 10) ticks.push_back(t);
    } else {
      const double step = std::pow(10, std::floor(std::log10(hi - lo)));
      const double each = (hi - lo) / step > 5 ? step : step / 2;
      for (double t = lo; t <= hi + each / 1000; t += each) ticks.push_back(t);
    }
    return ticks;
  }
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
};

Result<double> Number(const std::string& text, const std::string& column,
                      bool positive) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() ||
      !std::isfinite(value)) {
    return Status::InvalidArgument("plot: column " + column +
                                   ": not a number: '" + text + "'");
  }
  if (positive && value <= 0) {
    return Status::InvalidArgument("plot: column " + column +
                                   ": not positive on a log axis: " + text);
  }
  return value;
}

// The lines to draw: one per distinct value of the series column, then the
// reference line (if any); points sorted by x. InvalidArgument as
// PlotCsvToSvg.
Result<std::vector<Series>> ReadSeries(const CsvTable& table,
                                       const PlotSpec& spec) {
  const int x = table.Column(spec.x_column);
  const int y = table.Column(spec.y_column);
  const int s = table.Column(spec.series_column);
  const int r =
      spec.reference_column.empty() ? -2 : table.Column(spec.reference_column);
  for (const auto& [index, name] :
       {std::pair{x, spec.x_column}, std::pair{y, spec.y_column},
        std::pair{s, spec.series_column},
        std::pair{r, spec.reference_column}}) {
    if (index == -1) {
      return Status::InvalidArgument("plot: no column '" + name + "'");
    }
  }
  if (table.rows.empty()) return Status::InvalidArgument("plot: no rows");

  std::vector<Series> series;
  std::map<std::string, size_t> series_index;
  std::map<double, double> reference;
  for (const auto& row : table.rows) {
    RP_ASSIGN_OR_RETURN(double xv, Number(row[x], spec.x_column, spec.log_x));
    RP_ASSIGN_OR_RETURN(double yv, Number(row[y], spec.y_column, spec.log_y));
    auto [it, added] = series_index.emplace(row[s], series.size());
    if (added) series.push_back(Series{row[s], {}, false});
    series[it->second].points.emplace_back(xv, yv);
    if (r >= 0 && !reference.contains(xv)) {
      RP_ASSIGN_OR_RETURN(double rv,
                          Number(row[r], spec.reference_column, spec.log_y));
      reference[xv] = rv;
    }
  }
  if (!reference.empty()) {
    Series ref{spec.reference_label, {}, true};
    for (const auto& point : reference) ref.points.push_back(point);
    series.push_back(std::move(ref));
  }
  for (Series& line : series) {
    std::sort(line.points.begin(), line.points.end());
  }
  return series;
}

// The plot area (pixels) and the axes fitted to every point.
struct Frame {
  double left, right, top, bottom;
  Axis ax, ay;
};

Frame FitFrame(const std::vector<Series>& series, const PlotSpec& spec) {
  double min_x = INFINITY, max_x = -INFINITY, min_y = INFINITY,
         max_y = -INFINITY;
  for (const Series& line : series) {
    for (const auto& [px, py] : line.points) {
      min_x = std::min(min_x, px);
      max_x = std::max(max_x, px);
      min_y = std::min(min_y, py);
      max_y = std::max(max_y, py);
    }
  }
  Frame frame;
  frame.left = 90;
  frame.right = spec.width - 230;
  frame.top = 50;
  frame.bottom = spec.height - 60;
  frame.ax = Axis::Fit(min_x, max_x, spec.log_x, frame.left, frame.right);
  frame.ay = Axis::Fit(min_y, max_y, spec.log_y, frame.bottom, frame.top);
  return frame;
}

// The document's opening, background and title.
void DrawHeader(std::ostream& svg, const PlotSpec& spec, const Frame& frame) {
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << spec.width
      << "\" height=\"" << spec.height << "\" viewBox=\"0 0 " << spec.width
      << ' ' << spec.height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect x=\"0\" y=\"0\" width=\"" << spec.width << "\" height=\""
      << spec.height << "\" fill=\"white\"/>\n"
      << "<text x=\"" << (frame.left + frame.right) / 2 << "\" y=\"28\" "
      << "text-anchor=\"middle\" font-size=\"16\">" << Escape(spec.title)
      << "</text>\n";
}

// Grid lines, tick labels, the plot area's border and the axis labels.
void DrawAxes(std::ostream& svg, const PlotSpec& spec, const Frame& frame) {
  const auto [left, right, top, bottom, ax, ay] = frame;
  char buffer[256];
  for (const double t : ax.Ticks()) {
    const double px = ax.Map(t);
    std::snprintf(buffer, sizeof(buffer),
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"middle\">",
                  px, top, px, bottom, px, bottom + 18);
    svg << buffer << Escape(TickLabel(t)) << "</text>\n";
  }
  for (const double t : ay.Ticks()) {
    const double py = ay.Map(t);
    std::snprintf(buffer, sizeof(buffer),
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"end\">",
                  left, py, right, py, left - 8, py + 4);
    svg << buffer << Escape(TickLabel(t)) << "</text>\n";
  }
  std::snprintf(buffer, sizeof(buffer),
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"none\" stroke=\"#333\"/>\n",
                left, top, right - left, bottom - top);
  svg << buffer;
  svg << "<text x=\"" << (left + right) / 2 << "\" y=\"" << spec.height - 18
      << "\" text-anchor=\"middle\">" << Escape(spec.x_label) << "</text>\n"
      << "<text x=\"22\" y=\"" << (top + bottom) / 2
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 22 "
      << (top + bottom) / 2 << ")\">" << Escape(spec.y_label) << "</text>\n";
}

// Series number `i`: its line, its markers and its legend entry.
void DrawSeries(std::ostream& svg, const Series& line, size_t i,
                const Frame& frame) {
  char buffer[256];
  const char* color =
      line.dashed ? "#000"
                  : kPalette[i % (sizeof(kPalette) / sizeof(*kPalette))];
  svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\""
      << (line.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"";
  for (const auto& [px, py] : line.points) {
    std::snprintf(buffer, sizeof(buffer), "%.1f,%.1f ", frame.ax.Map(px),
                  frame.ay.Map(py));
    svg << buffer;
  }
  svg << "\"/>\n";
  for (const auto& [px, py] : line.points) {
    std::snprintf(buffer, sizeof(buffer),
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                  frame.ax.Map(px), frame.ay.Map(py), color);
    svg << buffer;
  }
  const double right = frame.right;
  const double ly = frame.top + 10 + 20 * i;
  std::snprintf(buffer, sizeof(buffer),
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"%s\" stroke-width=\"2\"%s/>\n<text x=\"%.1f\" "
                "y=\"%.1f\">",
                right + 15, ly, right + 40, ly, color,
                line.dashed ? " stroke-dasharray=\"6 4\"" : "", right + 46,
                ly + 4);
  svg << buffer << Escape(line.name) << "</text>\n";
}

}  // namespace

int CsvTable::Column(const std::string& name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

Result<CsvTable> ParseCsv(const std::string& text) {
  CsvTable table;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> fields = SplitLine(line);
    if (table.header.empty()) {
      table.header = std::move(fields);
    } else if (fields.size() != table.header.size()) {
      return Status::InvalidArgument(
          "csv: row " + std::to_string(table.rows.size() + 1) + " has " +
          std::to_string(fields.size()) + " fields, header has " +
          std::to_string(table.header.size()));
    } else {
      table.rows.push_back(std::move(fields));
    }
  }
  if (table.header.empty()) return Status::InvalidArgument("csv: empty");
  return table;
}

Result<std::string> PlotCsvToSvg(const std::string& csv_text,
                                 const PlotSpec& spec) {
  RP_ASSIGN_OR_RETURN(CsvTable table, ParseCsv(csv_text));
  RP_ASSIGN_OR_RETURN(const std::vector<Series> series,
                      ReadSeries(table, spec));
  const Frame frame = FitFrame(series, spec);
  std::ostringstream svg;
  DrawHeader(svg, spec, frame);
  DrawAxes(svg, spec, frame);
  for (size_t i = 0; i < series.size(); ++i) {
    DrawSeries(svg, series[i], i, frame);
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace rockpoint::bench
