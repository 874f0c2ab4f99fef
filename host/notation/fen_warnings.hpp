// What the FEN reader flags without rejecting a position: material no game can reach, and
// checks that no legal last move explains. perft counts such positions; classify reports
// the flags.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perftkit/position.hpp"

namespace perftkit {

// Oddities that do not stop a position from being counted (perft suites contain them);
// classify reports them as flags.
enum FenWarning : std::uint32_t {
  WARN_NONE = 0,
  WARN_TOO_MANY_PIECES = 1 << 0,    // more than 16 pieces of one colour
  WARN_TOO_MANY_PAWNS = 1 << 1,     // more than 8 pawns of one colour
  WARN_TOO_MANY_CHECKERS = 1 << 2,  // more than two pieces give check
  WARN_IMPOSSIBLE_CHECK = 1 << 3,   // a check that no legal last move explains
};

// Short names of the warnings set in flags, e.g. {"too-many-pawns"}.
std::vector<std::string> warning_names(std::uint32_t flags);

// The material warnings of pos: more than 16 pieces or 8 pawns of one colour.
std::uint32_t material_warnings(const Position& pos);

// The check warnings of pos (perftkit/check_origin.hpp): more than two checkers, or checks
// that no last move explains. ep is the en-passant square the FEN names (SQ_NONE for none),
// before a square no pawn can take on is dropped.
std::uint32_t check_warnings(const Position& pos, Square ep);

}  // namespace perftkit
