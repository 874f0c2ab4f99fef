// Bitboard constants and shifts. Square a1 is bit 0, h8 is bit 63.
#pragma once

#include "perftkit/intrinsics.hpp"
#include "perftkit/types.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard ALL_SQUARES = ~Bitboard(0);

PERFTKIT_HD_INLINE constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
PERFTKIT_HD_INLINE constexpr Bitboard square_bb(int s) { return Bitboard(1) << s; }
PERFTKIT_HD_INLINE constexpr Bitboard file_bb(int file) { return FILE_A_BB << file; }
PERFTKIT_HD_INLINE constexpr Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }
// Rank r as seen from c's side (RANK_1 is Black's eighth rank).
PERFTKIT_HD_INLINE constexpr Bitboard relative_rank_bb(Color c, int rank) { return rank_bb(relative_rank(c, rank)); }

// Squares from a to b inclusive, for two squares on one rank.
PERFTKIT_HD_INLINE constexpr Bitboard rank_span(Square a, Square b) {
  const Square lo = a < b ? a : b, hi = a < b ? b : a;
  return (square_bb(hi) - square_bb(lo)) | square_bb(hi);
}

PERFTKIT_HD_INLINE constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

PERFTKIT_HD_INLINE Square pop_lsb(Bitboard& b) {
  const Square s = Square(lsb(b));
  b &= b - 1;
  return s;
}

enum Direction : int { NORTH = 8, SOUTH = -8, EAST = 1, WEST = -1 };

// Shift every bit one step in direction D, dropping what falls off the board.
template <int D>
PERFTKIT_HD_INLINE constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == 8) return b << 8;
  else if constexpr (D == -8) return b >> 8;
  else if constexpr (D == 16) return b << 16;
  else if constexpr (D == -16) return b >> 16;
  else if constexpr (D == 1) return (b & ~FILE_H_BB) << 1;
  else if constexpr (D == -1) return (b & ~FILE_A_BB) >> 1;
  else if constexpr (D == 9) return (b & ~FILE_H_BB) << 9;
  else if constexpr (D == 7) return (b & ~FILE_A_BB) << 7;
  else if constexpr (D == -7) return (b & ~FILE_H_BB) >> 7;
  else if constexpr (D == -9) return (b & ~FILE_A_BB) >> 9;
  else static_assert(D == 8, "unsupported direction");
}

// Pawn directions for colour c: forward, capture towards the a-file, capture towards the h-file.
template <Color C>
inline constexpr int PAWN_PUSH = C == WHITE ? 8 : -8;
template <Color C>
inline constexpr int PAWN_CAPTURE_WEST = C == WHITE ? 7 : -9;
template <Color C>
inline constexpr int PAWN_CAPTURE_EAST = C == WHITE ? 9 : -7;

template <Color C>
PERFTKIT_HD_INLINE constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
  return shift<PAWN_CAPTURE_WEST<C>>(pawns) | shift<PAWN_CAPTURE_EAST<C>>(pawns);
}

PERFTKIT_ISA_END
}  // namespace perftkit
