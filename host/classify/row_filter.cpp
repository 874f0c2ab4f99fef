#include "classify/row_filter.hpp"

#include <utility>

namespace perftkit {
namespace {

enum Fact : std::uint32_t {
  CHECK = 1 << 0,
  CHECKMATE = 1 << 1,
  STALEMATE = 1 << 2,
  DEAD_BY_MATERIAL = 1 << 3,
  INSUFFICIENT_WHITE = 1 << 4,
  INSUFFICIENT_BLACK = 1 << 5,
  FIFTY_MOVE = 1 << 6,
  SEVENTYFIVE_MOVE = 1 << 7,
  THREEFOLD = 1 << 8,
  FIVEFOLD = 1 << 9,
  INVALID = 1 << 10,
  GAME_OVER = 1 << 11,
};

constexpr std::pair<const char*, Fact> FACT_NAMES[] = {
    {"check", CHECK},
    {"checkmate", CHECKMATE},
    {"stalemate", STALEMATE},
    {"dead_by_material", DEAD_BY_MATERIAL},
    {"insufficient_white", INSUFFICIENT_WHITE},
    {"insufficient_black", INSUFFICIENT_BLACK},
    {"fifty_move", FIFTY_MOVE},
    {"seventyfive_move", SEVENTYFIVE_MOVE},
    {"threefold", THREEFOLD},
    {"fivefold", FIVEFOLD},
    {"invalid", INVALID},
    {"game_over", GAME_OVER},
};

}  // namespace

bool RowFilter::select(std::string_view name) {
  for (const auto& [known, fact] : FACT_NAMES)
    if (name == known) {
      wanted_ |= fact;
      return true;
    }
  return false;
}

std::string RowFilter::names() {
  std::string text;
  for (const auto& [known, fact] : FACT_NAMES) text += (text.empty() ? "" : ", ") + std::string(known);
  return text;
}

// The same facts as the row's columns (format.cpp) and the summary's counts (summary.cpp).
std::uint32_t RowFilter::facts_of(const ClassifyRow& row) {
  if (!row.valid) return INVALID;
  const Classification& c = row.cls;
  std::uint32_t facts = 0;
  if (c.in_check) facts |= CHECK;
  if (c.checkmate) facts |= CHECKMATE;
  if (c.stalemate) facts |= STALEMATE;
  if (c.dead_by_material()) facts |= DEAD_BY_MATERIAL;
  if (c.insufficient_white) facts |= INSUFFICIENT_WHITE;
  if (c.insufficient_black) facts |= INSUFFICIENT_BLACK;
  if (c.fifty_move) facts |= FIFTY_MOVE;
  if (c.seventyfive_move) facts |= SEVENTYFIVE_MOVE;
  if (c.repetitions >= 3) facts |= THREEFOLD;
  if (c.repetitions >= 5) facts |= FIVEFOLD;
  if (c.game_over()) facts |= GAME_OVER;
  return facts;
}

}  // namespace perftkit
