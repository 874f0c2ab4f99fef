// Which rook a castling right names in X-FEN: K and Q (k and q) the outermost rook on that
// side of the king on its back rank, a file letter the rook on that file. The reader and
// the writer of FENs share the rule.
#pragma once

#include "perftkit/position.hpp"

namespace perftkit {

// Rooks of colour c on its back rank on `side` of its king (the king must be on that rank).
inline Bitboard back_rank_rooks(const Position& pos, Color c, CastlingSide side) {
  const Bitboard rooks = pos.pieces(c, ROOK) & relative_rank_bb(c, RANK_1);
  const Bitboard king = pos.pieces(c, KING);
  return side == KING_SIDE ? rooks & ~(king | (king - 1)) : rooks & (king - 1);
}

// The outermost rook on `side` of the king: what K and Q name in X-FEN; b must be non-zero.
inline Square outermost(Bitboard b, CastlingSide side) { return Square(side == KING_SIDE ? msb(b) : lsb(b)); }

}  // namespace perftkit
