// classify's line readers on any line: FEN/EPD lines split into a position and an id whose
// views lie inside the line, and CSV/TSV/JSON Lines rows read with a layout from their own
// first line.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "classify/position_line.hpp"
#include "classify/table_source.hpp"
#include "fuzz_check.hpp"

namespace {

bool inside(std::string_view part, std::string_view whole) {
  return part.empty() || (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const perftkit::PositionLine line = perftkit::split_position_line(text);
  FUZZ_CHECK(line.field_count <= line.fields.size());
  FUZZ_CHECK(inside(line.position, text) && inside(line.shown, text) && inside(line.id, text));

  const std::size_t eol = text.find('\n');
  const std::string_view header = text.substr(0, eol);
  const std::string_view row = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
  for (const perftkit::TableFormat format : {perftkit::TableFormat::CSV, perftkit::TableFormat::TSV}) {
    try {
      const perftkit::TableLayout layout = perftkit::table_layout_from_header(format, header, "fen", {"id"}, "fuzz");
      perftkit::TableFields fields;
      std::deque<std::string> storage;
      perftkit::read_table_line(row, layout, fields, storage);
    } catch (const std::exception&) {  // a header without the FEN column is refused by name
    }
  }
  const perftkit::TableLayout json = perftkit::jsonl_layout("fen", {"id"});
  perftkit::TableFields fields;
  std::deque<std::string> storage;
  perftkit::read_table_line(text, json, fields, storage);
  return 0;
}
