// Retrograde rules for checks: can the checks on the side to move come from one legal last
// move of the other side? A move ends on one square and empties its origin (en passant also
// empties the captured pawn's square, castling the back rank between king and rook), so each
// checker is either the piece that moved or a slider whose line to the king crossed a square
// the move emptied (FIDE 3.1-3.8). A position whose checks no move explains cannot arise in
// a game; perft still counts it, and the FEN reader flags it. Runs on the host and the device.
#pragma once

#include <cstdint>

#include "perftkit/movegen.hpp"

namespace perftkit {

// How the checks on the side to move stand against the rules of the last move.
enum class CheckOrigin : std::uint8_t {
  NO_CHECK,           // the side to move is not in check
  EXPLAINED,          // some legal last move gives exactly these checks
  TOO_MANY_CHECKERS,  // more than two checkers: no move gives that (a move adds at most two)
  UNEXPLAINED,        // one or two checkers, and no last move explains them
};

namespace detail {
PERFTKIT_ISA_BEGIN

// Rule: one move ending on `to` and emptying `vacated` gives exactly these checks when each
// checker is the moved piece or a slider whose line to the king crossed a vacated square.
PERFTKIT_HD_INLINE bool move_explains(Square king, Bitboard checkers, Square to, Bitboard vacated) {
  while (checkers) {
    const Square checker = pop_lsb(checkers);
    if (checker != to && !(between_bb(king, checker) & vacated)) return false;
  }
  return true;
}

// Rule: the empty squares from which the piece of colour Them on s can have come in one
// move: its own moves backwards, a pawn's push (two from its second rank) or capture, and a
// promoted piece's pawn on the seventh rank. En passant and castling are handled apart.
template <Color Them>
PERFTKIT_HD_INLINE Bitboard last_move_origins(const Position& pos, Square s) {
  constexpr int UP = PAWN_PUSH<Them>;
  const Bitboard occ = pos.occupied(), here = square_bb(s);
  const Bitboard pawn_origins = shift<-UP>(here) | pawn_attacks(~Them, s);  // a Them pawn's push or capture
  const int rank = relative_rank(Them, rank_of(s));
  const PieceType type = pos.piece_type_on(s);
  Bitboard from = 0;
  switch (type) {
    case PAWN:
      from = pawn_origins & ~relative_rank_bb(Them, RANK_1);
      if (rank == RANK_4 && (shift<-UP>(here) & ~occ)) from |= shift<-2 * UP>(here);
      break;
    case KNIGHT: from = knight_attacks(s); break;
    case BISHOP: from = bishop_attacks(s, occ); break;
    case ROOK: from = rook_attacks(s, occ); break;
    case QUEEN: from = queen_attacks(s, occ); break;
    default: from = king_attacks(s); break;
  }
  if (rank == RANK_8 && type != PAWN && type != KING) from |= pawn_origins & relative_rank_bb(Them, RANK_7);
  return from & ~occ;
}

// Rule: the checks on Us are explained when some piece of Them can have just arrived on its
// square from an empty one (by an ordinary move, en passant or castling) and each checker
// is that piece or a slider it uncovered. Sound (a reachable position always passes), not
// complete (some unreachable ones pass too).
template <Color Us>
PERFTKIT_HD_INLINE bool checks_explained(const Position& pos, Square king, Bitboard checkers) {
  constexpr Color Them = ~Us;
  constexpr int UP = PAWN_PUSH<Them>;
  const Bitboard empty = ~pos.occupied();
  for (Bitboard movers = pos.by_color[Them]; movers;) {
    const Square s = pop_lsb(movers);
    for (Bitboard from = last_move_origins<Them>(pos, s); from;)
      if (move_explains(king, checkers, s, square_bb(pop_lsb(from)))) return true;
    const Bitboard captured = shift<-UP>(square_bb(s));  // by en passant, emptied too
    if ((pos.pawns & square_bb(s)) && relative_rank(Them, rank_of(s)) == RANK_6 && (captured & empty))
      for (Bitboard from = pawn_attacks(Us, s) & empty; from;)
        if (move_explains(king, checkers, s, square_bb(pop_lsb(from)) | captured)) return true;
    for (int i = 0; i < 2; ++i) {
      const CastlingSide side = i == 0 ? KING_SIDE : QUEEN_SIDE;
      if (s == castling_rook_to(Them, side) && (pos.rooks() & square_bb(s)) &&
          pos.king_square(Them) == castling_king_to(Them, side) &&
          move_explains(king, checkers, s, relative_rank_bb(Them, RANK_1)))
        return true;
    }
  }
  return false;
}

PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

// The checks on Us against the rules of the last move. ep is the en-passant square the
// position names (SQ_NONE for none), whether or not a pawn can take there: with one, the
// last move was that double push, and only it may explain the checks.
template <Color Us>
PERFTKIT_HD_INLINE CheckOrigin check_origin(const Position& pos, Square ep) {
  const Square king = pos.king_square(Us);
  const Bitboard checkers = legality_masks<Us>(pos, king).checkers;
  if (!checkers) return CheckOrigin::NO_CHECK;
  if (popcount(checkers) > 2) return CheckOrigin::TOO_MANY_CHECKERS;
  constexpr int UP = Us == WHITE ? NORTH : SOUTH;
  const bool explained = ep == SQ_NONE ? detail::checks_explained<Us>(pos, king, checkers)
                                       : detail::move_explains(king, checkers, Square(ep - UP), square_bb(ep + UP));
  return explained ? CheckOrigin::EXPLAINED : CheckOrigin::UNEXPLAINED;
}

PERFTKIT_HD_INLINE CheckOrigin check_origin(const Position& pos, Square ep) {
  return pos.side_to_move == WHITE ? check_origin<WHITE>(pos, ep) : check_origin<BLACK>(pos, ep);
}

PERFTKIT_ISA_END
}  // namespace perftkit
