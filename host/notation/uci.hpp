// UCI move notation: writing moves and reading them back against a position.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "perftkit/position.hpp"

namespace perftkit {

std::string square_name(Square s);

// "e2e4", "e7e8q"; castling as e1g1, or as king-takes-rook (e1h1) when chess960.
std::string to_uci(Move m, bool chess960);

// The legal move of pos written as text (either castling form), or nullopt.
std::optional<Move> parse_uci_move(const Position& pos, std::string_view text);

}  // namespace perftkit
