// The choices of `perftkit classify` that decide which rows and columns a stream gives, as
// names: the CLI's options and the Python module's arguments, checked and applied the same way.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "classify/stream.hpp"

namespace perftkit {

struct ClassifyChoices {
  std::vector<std::string> only;          // facts a written row must have one of (RowFilter)
  bool game_over = false;                 // the same as only "game_over"
  std::vector<std::string> columns;       // PGN game columns (GameColumns)
  std::vector<std::string> tags;          // PGN tags as columns, or "all"
  std::string fen_column;                 // tables: the FEN's column (name or 1-based number)
  std::vector<std::string> keep_columns;  // tables: input columns carried over
};

// Sets options' filter, game columns and table columns from choices. Throws UsageError naming
// the option (as the CLI spells it) and the name it does not know.
void apply_classify_choices(const ClassifyChoices& choices, ClassifyStreamOptions& options);

// The names of input kinds (auto, fen, epd, pgn, csv, tsv, jsonl) and of PGN position choices
// (all, final).
const std::map<std::string, InputKind>& input_kind_names();
const std::map<std::string, PgnPositions>& pgn_positions_names();

}  // namespace perftkit
