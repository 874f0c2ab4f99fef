// The oracle's piece steps on the 0x88 board and its piece letters, shared by its board
// (attacks) and its moves (tests/oracle/mailbox_board.hpp).
#pragma once

#include <cctype>

#include "oracle/mailbox_board.hpp"

namespace oracle {

inline constexpr int KNIGHT_STEPS[] = {33, 31, 18, 14, -14, -18, -31, -33};
inline constexpr int KING_STEPS[] = {1, -1, 16, -16, 15, 17, -15, -17};
inline constexpr int DIAGONAL_STEPS[] = {15, 17, -15, -17};
inline constexpr int STRAIGHT_STEPS[] = {1, -1, 16, -16};

// The FEN letter of a piece of `side`, from its white (upper-case) letter.
inline char piece_of(Side side, char white_letter) {
  return side == WHITE ? white_letter : char(std::tolower(static_cast<unsigned char>(white_letter)));
}

}  // namespace oracle
