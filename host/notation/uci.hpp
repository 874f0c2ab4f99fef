// UCI move notation: writing moves and reading them back against a position.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perftkit/position.hpp"

namespace perftkit {

std::string square_name(Square s);

// "e2e4", "e7e8q"; castling as e1g1, or as king-takes-rook (e1h1) when chess960.
std::string to_uci(Move m, bool chess960);

// The same text written at out, which has room for UCI_MAX_BYTES; returns its end. No
// allocation: for writers of a row a move.
inline constexpr std::size_t UCI_MAX_BYTES = 5;
char* write_uci(Move m, bool chess960, char* out);

// Whether text is spelled as a UCI move (two squares and an optional fifth letter), legal
// or not.
bool looks_like_uci(std::string_view text);

// The legal move of pos written as text (either castling form), or nullopt.
std::optional<Move> parse_uci_move(const Position& pos, std::string_view text);

// The words of texts, each split at whitespace: `--moves "e2e4 e7e5"` (one argument, as
// perftree passes its moves) and `--moves e2e4 e7e5` give the same list.
std::vector<std::string> split_moves(const std::vector<std::string>& texts);

// The first move of a list that is not legal where it is played: its place (from 1) and text.
struct IllegalMove {
  std::size_t number;
  std::string text;
};

// Plays moves from pos in order. Stops at the first move that is not legal there, leaving
// pos after the moves before it, and returns that move.
std::optional<IllegalMove> play_uci_moves(Position& pos, const std::vector<std::string>& moves);

}  // namespace perftkit
