// The board field of a FEN: ranks 8 to 1 separated by '/', each rank's pieces from file a
// to h as letters (upper case for White), a run of empty squares as its length.
#pragma once

#include <cstddef>

#include "perftkit/position.hpp"

namespace perftkit {

// The room write_fen_board() needs at out: the longest board is 71 bytes, and a rank may be
// written with a 16-byte store at up to 63 bytes in.
inline constexpr std::size_t FEN_BOARD_ROOM = 80;

// Writes pos's board field at out (FEN_BOARD_ROOM bytes of room, of which only the field's
// own are meaningful); returns its end.
char* write_fen_board(const Position& pos, char* out);

}  // namespace perftkit
