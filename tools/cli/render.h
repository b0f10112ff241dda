// The CLI's one output switch: every command builds an Output (rows under
// named columns, or one document) and Render prints it as a human table,
// one JSON document (--json) or JSON lines (--jsonl).
//
//   table: rows as aligned columns; a document as "key  value" lines, with
//          each member that is an array of objects printed as a titled
//          sub-table. Text fields ({"b64": ...}) show as escaped bytes; long
//          cells are cut to `max_cell_width` with "..." (0: never).
//   json:  rows as one array, a document as one object (2-space indent).
//   jsonl: one compact object per row; a document is one line.
//
// Thread-safety: pure functions over their arguments.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "formats/json_text.h"

namespace rockpoint::cli {

enum class OutputFormat { kTable, kJson, kJsonl };

struct Column {
  std::string key;    // member of each row object.
  std::string title;  // table header.
};

struct Output {
  // Rows mode: `columns` non-empty, `rows` an array of objects.
  std::vector<Column> columns;
  formats::Json rows = formats::Json::array();
  // Document mode (used when `columns` is empty): an object.
  formats::Json document = formats::Json::object();

  static Output Rows(std::vector<Column> columns) {
    Output output;
    output.columns = std::move(columns);
    return output;
  }
  static Output Document(formats::Json document) {
    Output output;
    output.document = std::move(document);
    return output;
  }
};

void Render(const Output& output, OutputFormat format, size_t max_cell_width,
            std::ostream& out);

// A JSON value as a table cell: strings and text fields printable, null as
// "-", anything else compact JSON; cut to `max_width` (0: no limit).
std::string CellText(const formats::Json& cell, size_t max_width);

}  // namespace rockpoint::cli
