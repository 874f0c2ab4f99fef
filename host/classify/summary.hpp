// Aggregate counts over classified rows: the draw statistics of a position database.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>

#include "classify/row.hpp"

namespace perftkit {

struct ClassifySummary {
  std::uint64_t rows = 0, valid = 0, invalid = 0;
  std::uint64_t to_move[COLOR_NB] = {};  // valid rows by side to move
  std::uint64_t in_check = 0, double_check = 0, checkmate = 0, stalemate = 0;
  std::uint64_t insufficient[COLOR_NB] = {};  // by the side that cannot mate
  // Insufficient material of the side to move / the side not to move, by side to move.
  std::uint64_t insufficient_side_to_move[COLOR_NB] = {}, insufficient_side_not_to_move[COLOR_NB] = {};
  std::uint64_t dead[6] = {};  // by DeadMaterial kind; [0] (NONE) unused
  std::uint64_t dead_by_material = 0;
  std::uint64_t fifty_move = 0, seventyfive_move = 0;
  std::uint64_t threefold = 0, fivefold = 0;  // positions repeated at least 3 / 5 times (PGN)
  std::uint64_t termination[std::size_t(Termination::TERMINATION_NB)] = {};
  std::uint64_t game_over = 0, white_wins = 0, black_wins = 0;
  std::uint64_t warnings[4] = {};  // by FenWarning bit
  std::uint64_t chess960 = 0;
  std::uint64_t games = 0, game_errors = 0;  // PGN games read, and those cut short by an error

  // Counts one row (games and game_errors are counted by the PGN reader).
  void add(const ClassifyRow& row);
  ClassifySummary& operator+=(const ClassifySummary& other);
};

// The counts as aligned "name  count" lines, for a person.
void print_summary_text(std::FILE* out, const ClassifySummary& s, double seconds);

// The counts as one JSON object (with timing) followed by a newline.
void write_summary_json(std::ostream& out, const ClassifySummary& s, double seconds);

}  // namespace perftkit
