// The rule of chess a disagreement is about, named for the report: what kind of legal
// move an engine missed, and why a move an engine listed is not legal.
#pragma once

#include <string>
#include <string_view>

#include "perftkit/position.hpp"

namespace perftkit {

// The kind of the legal move m of pos: "en passant", "castling", "underpromotion to a
// knight", "pinned piece along its pin line", "king capture", ...; "" for a plain move.
std::string rule_of_legal_move(const Position& pos, Move m);

// Why text, a move an engine listed in pos, is not legal there: "castling through an
// attacked square", "en passant exposing the king along the rank", "king captures a
// defended piece", "pinned piece leaves its pin line", "not a move", ...
std::string rule_of_illegal_move(const Position& pos, std::string_view text);

// Whether a piece of colour `by` attacks s with the board occupied by occ (the core's
// attacked_by, with the colour chosen at run time).
bool attacked_by_color(const Position& pos, Color by, Square s, Bitboard occ);

// The pieces of the side to move pinned to their king (the core's legality masks).
Bitboard pinned_pieces(const Position& pos);

}  // namespace perftkit
