#include "classify/lines.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <deque>
#include <string>

#include "notation/fen.hpp"
#include "classify/pending_rows.hpp"
#include "classify/position_line.hpp"
#include "common/text_lines.hpp"
#include "common/decimal_text.hpp"

namespace perftkit {
namespace {

char* put(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// Room for the FEN column of a valid position: its four fields cannot be longer than
// 71 + 1 + 4 + 2 bytes (a validated board, side, castling, en passant), plus two clocks.
constexpr std::size_t FEN_COLUMN_BYTES = 160;

// The FEN column of a valid row: the four position fields as written, then the clocks as read
// (so that a 4-field FEN or an EPD line gets them too).
// A clock written as it reads back: no sign, no leading zero, and a fullmove number of at least 1.
bool canonical_clock(std::string_view text, bool fullmove) { return text[0] != '0' || (text.size() == 1 && !fullmove); }

// buffer: room for FEN_COLUMN_BYTES.
std::string_view fen_column(const PositionLine& line, const Position& pos, char* buffer) {
  if (line.field_count == 1) return START_FEN;  // "startpos"
  // The usual case: six fields, one space apart, with canonical clocks are the column as they stand.
  const auto& f = line.fields;
  const auto space_after = [&](std::size_t i) { return f[i].data()[f[i].size()] == ' '; };
  if (line.field_count == 6 &&
      line.position.size() == f[0].size() + f[1].size() + f[2].size() + f[3].size() + f[4].size() + f[5].size() + 5 &&
      space_after(0) && space_after(1) && space_after(2) && space_after(3) && space_after(4) &&
      canonical_clock(f[4], false) && canonical_clock(f[5], true))
    return line.position;
  char* p = buffer;
  for (std::size_t i = 0; i < 4; ++i) {
    if (line.fields[i].size() > 80) return line.shown;  // cannot happen for a valid position
    p = put(p, line.fields[i]);
    *p++ = ' ';
  }
  p = write_decimal(p, pos.halfmove_clock);
  *p++ = ' ';
  p = write_decimal(p, pos.fullmove_number);
  return {buffer, std::size_t(p - buffer)};
}

// The offset of the first NUL byte of line that is damage, when the block holds one at all
// (known from the reader, else checked once per block: clean text pays no search per line).
// NUL bytes that only pad the line's end (some suite files have them) are not damage.
std::optional<std::size_t> nul_in(std::string_view line, bool block_has_nul) {
  if (!block_has_nul) return std::nullopt;
  const void* nul = std::memchr(line.data(), '\0', line.size());
  if (!nul) return std::nullopt;
  const std::size_t at = std::size_t(static_cast<const char*>(nul) - line.data());
  if (line.find_first_not_of(std::string_view("\0\r", 2), at) == std::string_view::npos) return std::nullopt;
  return at;
}

bool holds_nul(std::string_view text) { return std::memchr(text.data(), '\0', text.size()) != nullptr; }

}  // namespace

std::uint64_t classify_lines(std::string_view text, std::uint64_t first_line, RowSink& sink, std::size_t max_line_bytes,
                             bool may_hold_nul) {
  static_assert(FEN_COLUMN_BYTES <= PendingRows::FEN_ROOM);
  std::uint64_t rejected = 0;
  // Valid rows wait to be classified together; their other texts are views into `text`.
  PendingRows pending(sink);
  const bool block_has_nul = may_hold_nul && holds_nul(text);
  TextLines lines(text, first_line);
  for (std::string_view text_line; lines.next(text_line);) {
    const std::uint64_t number = lines.number();
    if (text_line.size() > max_line_bytes) {
      pending.hand_on();
      report_long_line(text_line, number, max_line_bytes, sink);
      ++rejected;
      continue;
    }
    if (const auto nul = nul_in(text_line, block_has_nul)) {
      pending.hand_on();
      report_damaged_line(text_line, *nul, number, sink);
      ++rejected;
      continue;
    }
    const PositionLine line = split_position_line(text_line);
    if (line.blank) continue;
    const FenResult parsed = line.epd ? parse_epd(line.position) : parse_fen(line.position);
    if (parsed) {
      const Position& pos = parsed->position;
      ClassifyRow& row = pending.add(pos, 0);
      row.line = number;
      row.id = line.id;
      row.valid = true;
      row.side_to_move = pos.side_to_move;
      row.fen = fen_column(line, pos, pending.fen_room());
      row.fen_plain = true;
      row.warnings = parsed->warnings;
      row.chess960 = parsed->chess960;
    } else {
      pending.hand_on();
      ClassifyRow row;
      row.line = number;
      row.id = line.id;
      row.fen = line.shown;
      row.error = parsed.error;
      ++rejected;
      sink.finished_row(row);
    }
  }
  pending.hand_on();
  return rejected;
}

std::uint64_t classify_table_lines(std::string_view text, std::uint64_t first_line, const TableLayout& layout,
                                   RowSink& sink, std::size_t max_line_bytes, bool may_hold_nul) {
  std::uint64_t rejected = 0;
  TableFields fields;
  std::deque<std::string> storage;
  const bool block_has_nul = may_hold_nul && holds_nul(text);
  TextLines lines(text, first_line);
  for (std::string_view text_line; lines.next(text_line);) {
    const std::uint64_t number = lines.number();
    if (text_line.empty()) continue;
    if (text_line.size() > max_line_bytes) {
      report_long_line(text_line, number, max_line_bytes, sink);
      ++rejected;
      continue;
    }
    if (const auto nul = nul_in(text_line, block_has_nul)) {
      report_damaged_line(text_line, *nul, number, sink);
      ++rejected;
      continue;
    }
    storage.clear();
    read_table_line(text_line, layout, fields, storage);
    ClassifyRow row;
    row.line = number;
    row.kept_values = fields.kept.data();
    row.kept_count = fields.kept.size();
    row.kept_json = layout.format == TableFormat::JSONL;
    const FenResult parsed = fields.error.empty() ? parse_fen(fields.fen) : FenResult{};
    if (parsed) {
      const std::string fen = to_fen(parsed->position);
      row.valid = true;
      row.side_to_move = parsed->position.side_to_move;
      row.fen = fen;
      row.fen_plain = true;
      row.warnings = parsed->warnings;
      row.chess960 = parsed->chess960;
      sink.position_row(row, parsed->position, 0);
    } else {
      row.fen = fields.fen.empty() ? text_line.substr(0, 64) : fields.fen;
      row.error = fields.error.empty() ? parsed.error : fields.error;
      ++rejected;
      sink.finished_row(row);
    }
  }
  return rejected;
}

void report_long_line(std::string_view start, std::uint64_t line, std::size_t max_bytes, RowSink& sink) {
  const std::string error = "line: longer than " + std::to_string(max_bytes) + " bytes (not a position)";
  ClassifyRow row;
  row.line = line;
  row.fen = start.substr(0, 64);
  row.error = error;
  sink.finished_row(row);
}

void report_damaged_line(std::string_view text, std::size_t nul, std::uint64_t line, RowSink& sink) {
  const std::string error = "line: a NUL byte at byte " + std::to_string(nul + 1) + " of the line (damaged text)";
  ClassifyRow row;
  row.line = line;
  row.fen = text.substr(0, std::min<std::size_t>(nul, 64));
  row.error = error;
  sink.finished_row(row);
}

}  // namespace perftkit
