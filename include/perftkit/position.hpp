// Position: a trivially copyable 72-byte board (copy-make, no undo chain), the same
// bytes on host and device, and make_move for every kind of move.
#pragma once

#include <cstdint>
#include <type_traits>

#include "perftkit/attacks.hpp"

namespace perftkit {

struct Position {
  Bitboard by_color[COLOR_NB];
  Bitboard pawns;
  Bitboard knights;
  Bitboard diagonal;    // bishops and queens
  Bitboard orthogonal;  // rooks and queens
  Bitboard kings;
  Bitboard castling_rooks;  // rooks (of either colour) that keep their castling right
  Square ep_square;         // square behind a pawn that just moved two, or SQ_NONE
  Color side_to_move;
  std::uint16_t halfmove_clock;
  std::uint32_t fullmove_number;

  PERFTKIT_HD_INLINE Bitboard occupied() const { return by_color[WHITE] | by_color[BLACK]; }
  PERFTKIT_HD_INLINE Bitboard queens() const { return diagonal & orthogonal; }
  PERFTKIT_HD_INLINE Bitboard bishops() const { return diagonal & ~orthogonal; }
  PERFTKIT_HD_INLINE Bitboard rooks() const { return orthogonal & ~diagonal; }
  PERFTKIT_HD_INLINE Square king_square(Color c) const { return Square(lsb(kings & by_color[c])); }

  PERFTKIT_HD_INLINE Bitboard pieces(PieceType pt) const {
    switch (pt) {
      case PAWN: return pawns;
      case KNIGHT: return knights;
      case BISHOP: return bishops();
      case ROOK: return rooks();
      case QUEEN: return queens();
      case KING: return kings;
      default: return 0;
    }
  }
  PERFTKIT_HD_INLINE Bitboard pieces(Color c, PieceType pt) const { return by_color[c] & pieces(pt); }

  PERFTKIT_HD_INLINE PieceType piece_type_on(Square s) const {
    const Bitboard b = square_bb(s);
    if (pawns & b) return PAWN;
    if (knights & b) return KNIGHT;
    if (diagonal & b) return (orthogonal & b) ? QUEEN : BISHOP;
    if (orthogonal & b) return ROOK;
    if (kings & b) return KING;
    return NO_PIECE_TYPE;
  }

  // The castling rook of colour c on side `side`, or SQ_NONE when that right is gone.
  PERFTKIT_HD_INLINE Square castling_rook(Color c, CastlingSide side) const {
    const Bitboard rooks_here = castling_rooks & by_color[c] & relative_rank_bb(c, RANK_1);
    const Bitboard king_bb = kings & by_color[c];
    const Bitboard candidates =
        side == KING_SIDE ? rooks_here & ~(king_bb | (king_bb - 1)) : rooks_here & (king_bb - 1);
    if (!candidates) return SQ_NONE;
    return Square(side == KING_SIDE ? lsb(candidates) : msb(candidates));
  }

  bool operator==(const Position&) const = default;  // defaulted: host and device alike
};

static_assert(std::is_trivially_copyable_v<Position>);
static_assert(std::is_standard_layout_v<Position>);
static_assert(sizeof(Position) == 72);

PERFTKIT_ISA_BEGIN

// Squares the king and rook land on when castling (the same in Chess960).
PERFTKIT_HD_INLINE constexpr Square castling_king_to(Color c, CastlingSide side) {
  return relative_square(c, side == KING_SIDE ? SQ_G1 : SQ_C1);
}
PERFTKIT_HD_INLINE constexpr Square castling_rook_to(Color c, CastlingSide side) {
  return relative_square(c, side == KING_SIDE ? SQ_F1 : SQ_D1);
}

PERFTKIT_ISA_END
namespace detail {
PERFTKIT_ISA_BEGIN

// Clears whatever stands on `to` (a capture) and hands the move to the other side.
template <Color Us>
PERFTKIT_HD_INLINE void begin_move(Position& p, Bitboard from_to, Bitboard to_bb, bool resets_clock) {
  constexpr Color Them = ~Us;
  const bool capture = (p.by_color[Them] & to_bb) != 0;
  p.by_color[Us] ^= from_to;
  p.by_color[Them] &= ~to_bb;
  p.pawns &= ~to_bb;
  p.knights &= ~to_bb;
  p.diagonal &= ~to_bb;
  p.orthogonal &= ~to_bb;
  p.castling_rooks &= ~from_to;  // a rook that moves or is captured loses its right
  p.ep_square = SQ_NONE;
  p.halfmove_clock = (capture || resets_clock) ? 0 : std::uint16_t(p.halfmove_clock + 1);
  p.fullmove_number += Us == BLACK;
  p.side_to_move = Them;
}

PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

// A move of a knight, bishop, rook, queen or king (not castling), capture or not.
template <Color Us, PieceType Pt>
PERFTKIT_HD_INLINE Position make_piece_move(const Position& pos, Square from, Square to) {
  Position p = pos;
  const Bitboard to_bb = square_bb(to), from_to = square_bb(from) | to_bb;
  detail::begin_move<Us>(p, from_to, to_bb, false);
  if constexpr (Pt == KNIGHT) p.knights ^= from_to;
  if constexpr (Pt == BISHOP || Pt == QUEEN) p.diagonal ^= from_to;
  if constexpr (Pt == ROOK || Pt == QUEEN) p.orthogonal ^= from_to;
  if constexpr (Pt == KING) {
    p.kings ^= from_to;
    p.castling_rooks &= ~relative_rank_bb(Us, RANK_1);  // a king that moves loses both rights
  }
  return p;
}

// A pawn push, double push or capture (no promotion). A double push records the en
// passant square only when an enemy pawn attacks it, so equal positions compare equal.
template <Color Us>
PERFTKIT_HD_INLINE Position make_pawn_move(const Position& pos, Square from, Square to) {
  Position p = pos;
  const Bitboard to_bb = square_bb(to), from_to = square_bb(from) | to_bb;
  detail::begin_move<Us>(p, from_to, to_bb, true);
  p.pawns ^= from_to;
  if ((from ^ to) == 16) {
    const Square ep = Square((from + to) / 2);
    if (pawn_attacks(Us, ep) & p.pawns & p.by_color[~Us]) p.ep_square = ep;
  }
  return p;
}

template <Color Us>
PERFTKIT_HD_INLINE Position make_promotion(const Position& pos, Square from, Square to, PieceType promo) {
  Position p = pos;
  const Bitboard to_bb = square_bb(to), from_to = square_bb(from) | to_bb;
  detail::begin_move<Us>(p, from_to, to_bb, true);
  p.pawns ^= square_bb(from);
  if (promo == KNIGHT) p.knights |= to_bb;
  if (promo == BISHOP || promo == QUEEN) p.diagonal |= to_bb;
  if (promo == ROOK || promo == QUEEN) p.orthogonal |= to_bb;
  return p;
}

template <Color Us>
PERFTKIT_HD_INLINE Position make_en_passant(const Position& pos, Square from, Square to) {
  Position p = pos;
  const Bitboard captured = square_bb(to ^ 8);  // the pawn behind the target square
  const Bitboard from_to = square_bb(from) | square_bb(to);
  detail::begin_move<Us>(p, from_to, 0, true);
  p.by_color[~Us] ^= captured;
  p.pawns ^= from_to | captured;
  return p;
}

// Castling, encoded as "king takes own rook" so that Chess960 needs no special case.
template <Color Us>
PERFTKIT_HD_INLINE Position make_castling(const Position& pos, Square king_from, Square rook_from) {
  Position p = pos;
  const CastlingSide side = rook_from > king_from ? KING_SIDE : QUEEN_SIDE;
  const Bitboard king_move = square_bb(king_from) ^ square_bb(castling_king_to(Us, side));
  const Bitboard rook_move = square_bb(rook_from) ^ square_bb(castling_rook_to(Us, side));
  p.by_color[Us] ^= king_move ^ rook_move;
  p.kings ^= king_move;
  p.orthogonal ^= rook_move;
  p.castling_rooks &= ~relative_rank_bb(Us, RANK_1);
  p.ep_square = SQ_NONE;
  p.halfmove_clock = std::uint16_t(p.halfmove_clock + 1);
  p.fullmove_number += Us == BLACK;
  p.side_to_move = ~Us;
  return p;
}

template <Color Us>
PERFTKIT_HD_INLINE Position make_move(const Position& pos, Move m) {
  const Square from = m.from(), to = m.to();
  switch (m.type()) {
    case PROMOTION: return make_promotion<Us>(pos, from, to, m.promotion_type());
    case EN_PASSANT: return make_en_passant<Us>(pos, from, to);
    case CASTLING: return make_castling<Us>(pos, from, to);
    default: break;
  }
  switch (pos.piece_type_on(from)) {
    case PAWN: return make_pawn_move<Us>(pos, from, to);
    case KNIGHT: return make_piece_move<Us, KNIGHT>(pos, from, to);
    case BISHOP: return make_piece_move<Us, BISHOP>(pos, from, to);
    case ROOK: return make_piece_move<Us, ROOK>(pos, from, to);
    case QUEEN: return make_piece_move<Us, QUEEN>(pos, from, to);
    default: return make_piece_move<Us, KING>(pos, from, to);
  }
}

// Plays a legal move m; the result for an illegal move is unspecified.
PERFTKIT_HD_INLINE Position make_move(const Position& pos, Move m) {
  return pos.side_to_move == WHITE ? make_move<WHITE>(pos, m) : make_move<BLACK>(pos, m);
}

PERFTKIT_ISA_END
}  // namespace perftkit
