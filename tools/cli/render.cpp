// Render: table | json | jsonl (see render.h).
#include "tools/cli/render.h"

#include <algorithm>

#include "formats/json_text.h"
#include "formats/printable.h"

namespace rockpoint::cli {
namespace {

bool IsTextField(const formats::Json& json) {
  return json.is_object() && json.size() == 1 && json.contains("b64") &&
         json["b64"].is_string();
}

// Display width: code points, not bytes (good enough for alignment).
size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (char c : text) {
    if ((static_cast<uint8_t>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string Cut(std::string text, size_t max_width) {
  if (max_width == 0 || DisplayWidth(text) <= max_width) return text;
  size_t width = 0;
  size_t end = 0;
  for (; end < text.size(); ++end) {
    if ((static_cast<uint8_t>(text[end]) & 0xC0) != 0x80) {
      if (width == max_width - 3) break;
      ++width;
    }
  }
  text.resize(end);
  return text + "...";
}

void Pad(std::ostream& out, const std::string& text, size_t width) {
  out << text;
  for (size_t w = DisplayWidth(text); w < width; ++w) out << ' ';
}

void RenderTable(const std::vector<Column>& columns, const formats::Json& rows,
                 size_t max_cell_width, std::ostream& out) {
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const Column& column : columns) {
    widths.push_back(DisplayWidth(column.title));
  }
  for (const formats::Json& row : rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < columns.size(); ++c) {
      const formats::Json* cell =
          row.contains(columns[c].key) ? &row[columns[c].key] : nullptr;
      line.push_back(cell ? CellText(*cell, max_cell_width) : "-");
      widths[c] = std::max(widths[c], DisplayWidth(line.back()));
    }
    cells.push_back(std::move(line));
  }
  const auto print_line = [&](const std::vector<std::string>& line) {
    for (size_t c = 0; c < line.size(); ++c) {
      if (c + 1 == line.size()) {
        out << line[c];
      } else {
        Pad(out, line[c], widths[c]);
        out << "  ";
      }
    }
    out << '\n';
  };
  std::vector<std::string> header;
  for (const Column& column : columns) header.push_back(column.title);
  print_line(header);
  for (const auto& line : cells) print_line(line);
}

bool IsArrayOfObjects(const formats::Json& json) {
  return json.is_array() && !json.empty() &&
         std::all_of(json.begin(), json.end(), [](const formats::Json& item) {
           return item.is_object();
         });
}

void RenderDocumentTable(const formats::Json& document, size_t max_cell_width,
                         std::ostream& out) {
  size_t key_width = 0;
  for (const auto& [key, value] : document.items()) {
    if (!IsArrayOfObjects(value)) key_width = std::max(key_width, key.size());
  }
  // Scalars first, then the sub-tables in document order.
  for (const auto& [key, value] : document.items()) {
    if (IsArrayOfObjects(value)) continue;
    Pad(out, key, key_width);
    out << "  " << CellText(value, max_cell_width) << '\n';
  }
  for (const auto& [key, value] : document.items()) {
    if (!IsArrayOfObjects(value)) continue;
    std::vector<Column> columns;
    for (const formats::Json& row : value) {
      for (const auto& [member, unused] : row.items()) {
        const bool known = std::any_of(
            columns.begin(), columns.end(),
            [&](const Column& column) { return column.key == member; });
        if (!known) columns.push_back({member, member});
      }
    }
    out << '\n' << key << " (" << value.size() << ")\n";
    RenderTable(columns, value, max_cell_width, out);
  }
}

}  // namespace

std::string CellText(const formats::Json& cell, size_t max_width) {
  std::string text;
  if (cell.is_null()) {
    text = "-";
  } else if (cell.is_string()) {
    text = formats::Printable(cell.get<std::string>());
  } else if (IsTextField(cell)) {
    auto bytes = formats::Base64Decode(cell["b64"].get<std::string>());
    text = bytes.ok() ? formats::Printable(*bytes) : cell.dump();
  } else {
    text = cell.dump(-1, ' ', false, formats::Json::error_handler_t::replace);
  }
  return Cut(std::move(text), max_width);
}

void Render(const Output& output, OutputFormat format, size_t max_cell_width,
            std::ostream& out) {
  const bool rows_mode = !output.columns.empty();
  switch (format) {
    case OutputFormat::kTable:
      if (rows_mode) {
        RenderTable(output.columns, output.rows, max_cell_width, out);
      } else {
        RenderDocumentTable(output.document, max_cell_width, out);
      }
      break;
    case OutputFormat::kJson:
      out << (rows_mode ? output.rows : output.document).dump(2) << '\n';
      break;
    case OutputFormat::kJsonl:
      if (rows_mode) {
        for (const formats::Json& row : output.rows) out << row.dump() << '\n';
      } else {
        out << output.document.dump() << '\n';
      }
      break;
  }
}

}  // namespace rockpoint::cli
