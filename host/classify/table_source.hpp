// Positions in tables: CSV or TSV with a header row (the lichess puzzle database: the FEN in
// column 2), or JSON Lines objects (the lichess evaluation database: a 4-field FEN under
// "fen"). The FEN column is found by name or number; other columns can be carried over.
// Fields are read within one line (a quoted CSV field may not hold a line break).
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perftkit {

enum class TableFormat { CSV, TSV, JSONL };

// Where the FEN and the kept columns are in each line of one input.
struct TableLayout {
  TableFormat format = TableFormat::CSV;
  std::size_t fen_index = 0;             // CSV/TSV: the FEN's field
  std::vector<std::size_t> kept;         // CSV/TSV: the kept fields, in --keep-columns order
  std::string fen_field = "fen";         // JSONL: the FEN's key
  std::vector<std::string> kept_fields;  // JSONL: the kept keys
};

// The layout of a CSV/TSV input from its header line. fen_column: a name (matched without
// regard to case), a 1-based number, or "" for a column named "fen". Throws UsageError when a
// column is missing, naming the file.
TableLayout table_layout_from_header(TableFormat format, std::string_view header, const std::string& fen_column,
                                     const std::vector<std::string>& keep_columns, const std::string& file);

// The layout of a JSONL input (fen_column "" means "fen").
TableLayout jsonl_layout(const std::string& fen_column, const std::vector<std::string>& keep_columns);

// The text of a JSON string (quotes included in quoted) with its escapes undone (\uXXXX is
// kept as written).
std::string json_string_text(std::string_view quoted);

// One line's fields as the layout wants them. Texts are views into the line, or into storage
// for a field that had to be unescaped. kept values of JSONL are raw JSON (a string keeps its
// quotes). error is set when the line cannot be read.
struct TableFields {
  std::string_view fen;
  std::vector<std::string_view> kept;
  std::string error;
};
void read_table_line(std::string_view line, const TableLayout& layout, TableFields& out,
                     std::deque<std::string>& storage);

}  // namespace perftkit
