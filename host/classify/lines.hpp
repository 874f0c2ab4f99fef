// Classifying a block of FEN/EPD lines into formatted rows (the work of one batch).
#pragma once

#include <cstdint>
#include <string_view>

#include "common/byte_buffer.hpp"
#include "classify/format.hpp"
#include "classify/row_sink.hpp"
#include "classify/table_source.hpp"
#include "classify/summary.hpp"

namespace perftkit {

// Lines longer than this are rejected unread (no FEN or EPD line comes close).
inline constexpr std::size_t MAX_LINE_BYTES = 1 << 20;

// Classifies every position line of text (whole lines; first_line is the number of the
// first), giving sink one row per position; blank lines and '#' comments give no row, a line
// longer than max_line_bytes or holding a NUL byte a rejected one. Returns the number of rows that were rejected.
// The caller flushes the sink.
// may_hold_nul false: the reader saw no NUL byte in text, and the lines are not searched for one.
std::uint64_t classify_lines(std::string_view text, std::uint64_t first_line, RowSink& sink,
                             std::size_t max_line_bytes = MAX_LINE_BYTES, bool may_hold_nul = true);

// The same, each row appended to out and counted in summary as it is classified.
inline std::uint64_t classify_lines(std::string_view text, std::uint64_t first_line, const RowFormatter& formatter,
                                    ByteBuffer& out, ClassifySummary& summary,
                                    std::size_t max_line_bytes = MAX_LINE_BYTES) {
  ImmediateRowSink sink(formatter, out, summary);
  return classify_lines(text, first_line, sink, max_line_bytes);
}

// Classifies the table lines of text (CSV/TSV rows after the header, or JSONL objects; see
// table_source.hpp): the FEN column's position (4 to 6 fields), with the kept columns.
std::uint64_t classify_table_lines(std::string_view text, std::uint64_t first_line, const TableLayout& layout,
                                   RowSink& sink, std::size_t max_line_bytes = MAX_LINE_BYTES,
                                   bool may_hold_nul = true);

// The row for a line the reader had to cut (longer than max_bytes): rejected, with its start.
void report_long_line(std::string_view start, std::uint64_t line, std::size_t max_bytes, RowSink& sink);

// The row for a line of text holding a NUL byte at offset nul (a text file damaged after its
// first 4 KiB; an earlier NUL makes the input binary, input.hpp): rejected, with the text
// before the NUL.
void report_damaged_line(std::string_view text, std::size_t nul, std::uint64_t line, RowSink& sink);

}  // namespace perftkit
