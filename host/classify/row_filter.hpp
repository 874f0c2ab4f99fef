// `classify --only`: which rows are written. The summary still counts every row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "classify/row.hpp"

namespace perftkit {

// Keeps a row when it has any of the selected facts; with none selected, every row.
class RowFilter {
 public:
  // Adds a fact by its column-style name: check, checkmate, stalemate, dead_by_material,
  // insufficient_white, insufficient_black, fifty_move, seventyfive_move, threefold, fivefold,
  // invalid, or game_over (checkmate, stalemate, dead position, 75 moves or fivefold: the
  // game ends whatever the players do). False for an unknown name.
  bool select(std::string_view name);
  bool keeps(const ClassifyRow& row) const { return wanted_ == 0 || (facts_of(row) & wanted_) != 0; }
  bool selects_all() const { return wanted_ == 0; }

  // The names select() knows, comma-separated (for help and errors).
  static std::string names();

 private:
  static std::uint32_t facts_of(const ClassifyRow& row);
  std::uint32_t wanted_ = 0;
};

}  // namespace perftkit
