// Hand-written row formatters for `perftkit classify`: CSV (RFC 4180 quoting), TSV (tabs
// and line breaks in text become spaces) and JSON Lines, written straight into an ByteBuffer.
#pragma once

#include <string>
#include <string_view>

#include "common/byte_buffer.hpp"
#include "classify/game_columns.hpp"
#include "classify/row.hpp"

namespace perftkit {

enum class RowFormat { CSV, TSV, JSONL };

// Column names, in output order.
inline constexpr std::string_view CLASSIFY_COLUMNS[] = {"source",
                                                        "fen",
                                                        "id",
                                                        "valid",
                                                        "error",
                                                        "legal_moves",
                                                        "in_check",
                                                        "checkers",
                                                        "checkmate",
                                                        "stalemate",
                                                        "insufficient_white",
                                                        "insufficient_black",
                                                        "dead_by_material",
                                                        "fifty_move",
                                                        "seventyfive_move",
                                                        "repetitions",
                                                        "outcome",
                                                        "winner",
                                                        "flags"};

// Lower-case names of a termination ("checkmate", "fifty_moves", ...; "" for NONE) and of a
// result ("white", "black", "draw"; "" when the game goes on).
std::string_view termination_name(Termination t);
std::string_view winner_name(const Classification& c);

// Formats the rows of one input file (its name goes into the source column), with the PGN
// game columns asked for after the classification's.
class RowFormatter {
 public:
  RowFormatter(RowFormat format, std::string_view source_name, GameColumns columns = {});
  const GameColumns& columns() const { return columns_; }

  // The header line (CSV and TSV; nothing for JSON Lines).
  void header(ByteBuffer& out) const;
  void row(ByteBuffer& out, const ClassifyRow& row) const;
  // The --tags columns of one game (values in the order of columns().tags, "" when absent),
  // exactly as row() writes them after the columns before them: a game's rows share them, so
  // they are formatted once per game (ClassifyRow::tag_columns).
  std::string tag_columns(const std::string_view* values, std::size_t count) const;

 private:
  // The most bytes tag_columns() or row() can write for these tag values: each byte escaped
  // to six (JSON \u00XX), the separators, and the names (JSON Lines).
  std::size_t tag_columns_bound(const std::string_view* values, std::size_t count) const;

  RowFormat format_;
  GameColumns columns_;
  std::string source_open_, source_close_;  // the escaped file name as an open field, and its closing quote
};

}  // namespace perftkit
