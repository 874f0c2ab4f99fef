// Standard Algebraic Notation: reading a move against a position's legal moves.
#pragma once

#include <string_view>

#include "perftkit/position.hpp"

namespace perftkit {

enum class SanStatus : std::uint8_t {
  OK,
  INVALID,    // not SAN at all (nor a UCI move)
  ILLEGAL,    // well formed, but no legal move matches
  AMBIGUOUS,  // more than one legal move matches
};

struct SanResult {
  Move move;
  SanStatus status;
};

// The legal move of pos that san names: piece moves with optional file/rank disambiguation
// ("Nbd7", "R1e2", "Qh4xe1"), pawn moves and captures ("e4", "exd5"), promotions ("e8=Q",
// "e8Q"), castling ("O-O", "O-O-O", also with zeros); a trailing "+", "#", "!" or "?" is
// ignored. A UCI move ("e2e4") is accepted too, as python-chess does.
SanResult parse_san(const Position& pos, std::string_view san);

// "illegal", "ambiguous" or "invalid": the word that error messages use for status.
std::string_view san_status_word(SanStatus status);

}  // namespace perftkit
