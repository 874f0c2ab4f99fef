// One output row of `perftkit classify`: where the position came from, its text, and either
// its classification or the reason it was rejected.
#pragma once

#include <cstdint>
#include <string_view>

#include "perftkit/classify.hpp"

namespace perftkit {

struct ClassifyRow {
  std::uint64_t line = 0;           // FEN/EPD input: 1-based line number
  std::uint64_t game = 0, ply = 0;  // PGN input: 1-based game number, plies played
  bool from_pgn = false;
  std::string_view fen;    // the position's text (as given, for a rejected one)
  bool fen_plain = false;  // fen needs no escaping in any format (a validated FEN)
  std::string_view id;     // trailing text of the input line, or the EPD id
  bool valid = false;
  Color side_to_move = WHITE;  // of a valid row
  std::string_view error;      // why the row is not valid
  Classification cls{};
  bool has_history = false;    // repetitions are known (PGN)
  std::uint32_t warnings = 0;  // FenWarning flags
  bool chess960 = false;

  // PGN game columns (classify --columns, --tags), filled only when asked for.
  std::string_view move_uci, move_san;  // the move that led here (empty at ply 0): PGN symbol characters
  bool has_clock = false, has_eval_cp = false, has_eval_mate = false;
  double clock_seconds = 0;
  int eval_cp = 0, eval_mate = 0;
  std::string_view all_tags_json;  // --tags all: every tag as a JSON object
  // The --tags columns as RowFormatter::tag_columns wrote them for this row's game (set by
  // PGN input, once per game); when not set, the row has no tags and they are written empty.
  std::string_view tag_columns;
  bool has_tag_columns = false;

  // Table input (CSV/TSV/JSONL): the --keep-columns values in order; raw JSON from JSONL.
  const std::string_view* kept_values = nullptr;
  std::size_t kept_count = 0;
  bool kept_json = false;
};

}  // namespace perftkit
