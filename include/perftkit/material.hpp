// Draws by material: which side can no longer mate by any sequence of legal moves on
// material alone, and the dead positions that follow (FIDE 5.2.2 / 9.6.2).
#pragma once

#include "perftkit/position.hpp"

namespace perftkit {

// Dead positions by material, the kinds that perft draw statistics count separately.
enum class DeadMaterial : std::uint8_t {
  NONE,
  KING_VS_KING,
  KING_VS_KING_BISHOP,
  KING_VS_KING_KNIGHT,
  KING_BISHOP_VS_KING_BISHOP,  // one bishop each, on squares of the same colour
  SAME_COLOURED_BISHOPS,       // any other set of bishops, all on squares of one colour
};

PERFTKIT_ISA_BEGIN

inline constexpr Bitboard LIGHT_SQUARES = 0x55AA55AA55AA55AAULL;
inline constexpr Bitboard DARK_SQUARES = ~LIGHT_SQUARES;

// True when colour c cannot checkmate by any sequence of moves, judged on material only
// (the rule python-chess and lichess use): a bare king; a king and one knight against a
// king with nothing but queens; or bishops that all stand on one colour with no pawns and
// no knights anywhere on the board.
PERFTKIT_HD_INLINE bool insufficient_material(const Position& pos, Color c) {
  const Bitboard ours = pos.by_color[c];
  if (ours & (pos.pawns | pos.orthogonal)) return false;
  if (ours & pos.knights) {
    const Bitboard their_non_queens = pos.by_color[~c] & ~pos.kings & ~pos.queens();
    return popcount(ours) <= 2 && !their_non_queens;
  }
  if (ours & pos.diagonal) {
    const Bitboard bishops = pos.bishops();
    const bool one_colour = !(bishops & DARK_SQUARES) || !(bishops & LIGHT_SQUARES);
    return one_colour && !pos.pawns && !pos.knights;
  }
  return true;
}

// The kind of dead position by material, or NONE when either side could still mate.
PERFTKIT_HD_INLINE DeadMaterial dead_material(const Position& pos) {
  const Bitboard minors_and_majors = pos.occupied() & ~pos.kings;
  if (!minors_and_majors) return DeadMaterial::KING_VS_KING;
  if (minors_and_majors & (pos.pawns | pos.orthogonal)) return DeadMaterial::NONE;
  if (minors_and_majors & pos.knights)
    return minors_and_majors == pos.knights && !more_than_one(pos.knights) ? DeadMaterial::KING_VS_KING_KNIGHT
                                                                           : DeadMaterial::NONE;
  const Bitboard bishops = minors_and_majors;  // only bishops are left
  if (!more_than_one(bishops)) return DeadMaterial::KING_VS_KING_BISHOP;
  if ((bishops & DARK_SQUARES) && (bishops & LIGHT_SQUARES)) return DeadMaterial::NONE;
  const bool one_each = popcount(bishops) == 2 && (bishops & pos.by_color[WHITE]) && (bishops & pos.by_color[BLACK]);
  return one_each ? DeadMaterial::KING_BISHOP_VS_KING_BISHOP : DeadMaterial::SAME_COLOURED_BISHOPS;
}

PERFTKIT_ISA_END
}  // namespace perftkit
