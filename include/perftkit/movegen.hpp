// Strictly legal move generation with check and pin masks. The rules are written once,
// in generate_legal(), which hands batches of moves (a piece and its target set, or a
// shifted set of pawn targets) to a sink: the counting sink only adds popcounts, the
// visiting sink plays each move. Both run on the host and the device.
#pragma once

#include <initializer_list>

#include "perftkit/position.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

// No position has more legal moves than this (218 is the known maximum).
inline constexpr int MAX_LEGAL_MOVES = 256;

// How a batch of pawn moves was made: target squares are the origins shifted by Offset.
enum class PawnBatch { PUSH, DOUBLE_PUSH, CAPTURE, PROMOTION };

// What the side to move must respect: checks, pins and the enemy's reach.
struct LegalityMasks {
  Bitboard checkers;
  Bitboard checkmask;  // where a non-king move must land: everywhere, the check line, or nowhere
  Bitboard pin_orth;   // rays from our king through one of our pieces to an enemy rook or queen
  Bitboard pin_diag;   // the same for enemy bishops and queens
};

template <Color Us>
PERFTKIT_HD_INLINE LegalityMasks legality_masks(const Position& pos, Square ksq) {
  constexpr Color Them = ~Us;
  const Bitboard us = pos.by_color[Us], them = pos.by_color[Them];
  LegalityMasks m{};
  m.checkers = (knight_attacks(ksq) & pos.knights & them) | (pawn_attacks(Us, ksq) & pos.pawns & them);

  // Enemy sliders seen from the king through our pieces only: none between is a check,
  // exactly one of ours between is a pin.
  // (An empty-board ray test first: most kings see no enemy slider at all.)
  Bitboard snipers = rook_rays(ksq) & pos.orthogonal & them;
  if (snipers) snipers &= rook_attacks(ksq, them);
  while (snipers) {
    const Square s = pop_lsb(snipers);
    const Bitboard ray = between_bb(ksq, s);
    const Bitboard blockers = ray & us;
    if (!blockers) m.checkers |= square_bb(s);
    else if (!more_than_one(blockers)) m.pin_orth |= ray | square_bb(s);
  }
  snipers = bishop_rays(ksq) & pos.diagonal & them;
  if (snipers) snipers &= bishop_attacks(ksq, them);
  while (snipers) {
    const Square s = pop_lsb(snipers);
    const Bitboard ray = between_bb(ksq, s);
    const Bitboard blockers = ray & us;
    if (!blockers) m.checkers |= square_bb(s);
    else if (!more_than_one(blockers)) m.pin_diag |= ray | square_bb(s);
  }

  if (!m.checkers) m.checkmask = ALL_SQUARES;
  else if (more_than_one(m.checkers)) m.checkmask = 0;
  else m.checkmask = between_bb(ksq, Square(lsb(m.checkers))) | m.checkers;
  return m;
}

// The knights, pawns and king of colour Them that attack s (these ignore occupancy).
template <Color Them>
PERFTKIT_HD_INLINE Bitboard leapers_attacking(const Position& pos, Square s) {
  return ((knight_attacks(s) & pos.knights) | (pawn_attacks(~Them, s) & pos.pawns) | (king_attacks(s) & pos.kings)) &
         pos.by_color[Them];
}

// The pieces of colour Them that attack s, with the board occupied by occ.
template <Color Them>
PERFTKIT_HD_INLINE Bitboard attackers(const Position& pos, Square s, Bitboard occ) {
  return leapers_attacking<Them>(pos, s) |
         (((bishop_attacks(s, occ) & pos.diagonal) | (rook_attacks(s, occ) & pos.orthogonal)) & pos.by_color[Them]);
}

// The sliders among orthogonal (rook moves) and diagonal (bishop moves) that reach s on a
// board occupied by occ: those on its empty-board rays with no piece between. The same set as
// the slider attack tables give, read from the small between and ray tables: for a caller
// that asks once in a while, whose lookups in the large slider tables would miss the cache.
PERFTKIT_HD_INLINE Bitboard sliders_reaching(Square s, Bitboard orthogonal, Bitboard diagonal, Bitboard occ) {
  Bitboard reaching = 0;
  for (Bitboard on_rays = (rook_rays(s) & orthogonal) | (bishop_rays(s) & diagonal); on_rays;) {
    const Square slider = pop_lsb(on_rays);
    if (!(between_bb(s, slider) & occ)) reaching |= square_bb(slider);
  }
  return reaching;
}

// attackers(), with the sliders found by sliders_reaching() (no slider table read).
template <Color Them>
PERFTKIT_HD_INLINE Bitboard attackers_through_rays(const Position& pos, Square s, Bitboard occ) {
  const Bitboard them = pos.by_color[Them];
  return leapers_attacking<Them>(pos, s) | sliders_reaching(s, pos.orthogonal & them, pos.diagonal & them, occ);
}

// The pawns of colour Us that may move to `to` by the pawn rules, legality aside: a capture
// where an enemy piece stands, else a push (a double one from the second rank over an empty
// square). En passant is not among them.
template <Color Us>
PERFTKIT_HD_INLINE Bitboard pawns_moving_to(const Position& pos, Square to) {
  const Bitboard target = square_bb(to), occ = pos.occupied(), our_pawns = pos.pawns & pos.by_color[Us];
  if (target & pos.by_color[~Us]) return pawn_attacks(~Us, to) & our_pawns;
  if (target & occ) return 0;
  constexpr int DOWN = -PAWN_PUSH<Us>;
  const Bitboard single = shift<DOWN>(target);
  Bitboard origins = single;
  if (relative_rank(Us, rank_of(to)) == RANK_4 && !(single & occ)) origins |= shift<DOWN>(single);
  return origins & our_pawns;
}

// Every square a pawn, knight or king of colour Them attacks (these ignore occupancy).
template <Color Them>
PERFTKIT_HD_INLINE Bitboard leaper_attacks(const Position& pos) {
  const Bitboard them = pos.by_color[Them];
  Bitboard attacked = pawn_attacks_bb<Them>(pos.pawns & them) | king_attacks(pos.king_square(Them));
  Bitboard knights = pos.knights & them;
  while (knights) attacked |= knight_attacks(pop_lsb(knights));
  return attacked;
}

// True when a piece of colour Them attacks s, with the board occupied by occ.
template <Color Them>
PERFTKIT_HD_INLINE bool attacked_by(const Position& pos, Square s, Bitboard occ) {
  return attackers<Them>(pos, s, occ) != 0;
}

// True when a bishop, rook or queen of colour Them attacks s, with the board occupied by occ.
// (An empty-board ray test first: most squares see no enemy slider at all.)
template <Color Them>
PERFTKIT_HD_INLINE bool attacked_by_slider(const Position& pos, Square s, Bitboard occ) {
  const Bitboard them = pos.by_color[Them];
  const Bitboard their_diagonal = pos.diagonal & them, their_orthogonal = pos.orthogonal & them;
  return ((bishop_rays(s) & their_diagonal) && (bishop_attacks(s, occ) & their_diagonal)) ||
         ((rook_rays(s) & their_orthogonal) && (rook_attacks(s, occ) & their_orthogonal));
}

PERFTKIT_ISA_END
namespace detail {
PERFTKIT_ISA_BEGIN
// A sink that defines done() may stop the generator after any batch (e.g. "is there any
// legal move?"); for every other sink the checks compile away.
template <typename Sink>
inline constexpr bool stops_early = requires(const Sink& s) {
  s.done();
};

template <typename Sink>
PERFTKIT_HD_INLINE bool sink_done(const Sink& sink) {
  if constexpr (stops_early<Sink>) return sink.done();
  else return false;
}

// A sink that defines wants(PieceType) is handed only the batches of the pieces it wants,
// castling with the king's (e.g. reading one SAN move); for every other sink the tests
// compile away.
template <typename Sink>
inline constexpr bool chooses_pieces = requires(const Sink& s) {
  s.wants(PAWN);
};

template <typename Sink>
PERFTKIT_HD_INLINE bool sink_wants(const Sink& sink, PieceType pt) {
  if constexpr (chooses_pieces<Sink>) return sink.wants(pt);
  else return true;
}
PERFTKIT_ISA_END
}  // namespace detail
PERFTKIT_ISA_BEGIN

// The masks of a position without check or pin, as constants.
struct Unconstrained {
  static constexpr Bitboard checkers = 0;
  static constexpr Bitboard checkmask = ALL_SQUARES;
  static constexpr Bitboard pin_orth = 0;
  static constexpr Bitboard pin_diag = 0;
};

// Every legal move of a piece other than the king (castling aside), under masks m
// (LegalityMasks, or Unconstrained when there is neither check nor pin).
template <Color Us, typename Masks, typename Sink>
PERFTKIT_HD_INLINE void generate_non_king(const Position& pos, const Masks& m, Sink& sink) {
  constexpr Color Them = ~Us;
  const Bitboard us = pos.by_color[Us], them = pos.by_color[Them];
  const Bitboard occ = us | them;
  const Square ksq = pos.king_square(Us);
  const Bitboard targets = ~us & m.checkmask;
  const Bitboard pinned = m.pin_orth | m.pin_diag;

  Bitboard knights = detail::sink_wants(sink, KNIGHT) ? pos.knights & us & ~pinned : 0;  // a pinned knight never moves
  while (knights && !detail::sink_done(sink)) {
    const Square s = pop_lsb(knights);
    sink.template piece_moves<KNIGHT>(s, knight_attacks(s) & targets);
  }
  Bitboard bishops = detail::sink_wants(sink, BISHOP) ? pos.bishops() & us & ~m.pin_orth : 0;
  while (bishops && !detail::sink_done(sink)) {
    const Square s = pop_lsb(bishops);
    const Bitboard pin = (m.pin_diag & square_bb(s)) ? m.pin_diag : ALL_SQUARES;
    sink.template piece_moves<BISHOP>(s, bishop_attacks(s, occ) & targets & pin);
  }
  Bitboard rooks = detail::sink_wants(sink, ROOK) ? pos.rooks() & us & ~m.pin_diag : 0;
  while (rooks && !detail::sink_done(sink)) {
    const Square s = pop_lsb(rooks);
    const Bitboard pin = (m.pin_orth & square_bb(s)) ? m.pin_orth : ALL_SQUARES;
    sink.template piece_moves<ROOK>(s, rook_attacks(s, occ) & targets & pin);
  }
  Bitboard queens = detail::sink_wants(sink, QUEEN) ? pos.queens() & us : 0;
  while (queens && !detail::sink_done(sink)) {
    const Square s = pop_lsb(queens);
    const Bitboard b = square_bb(s);
    const Bitboard reach = (m.pin_orth & b)   ? rook_attacks(s, occ) & m.pin_orth
                           : (m.pin_diag & b) ? bishop_attacks(s, occ) & m.pin_diag
                                              : queen_attacks(s, occ);
    sink.template piece_moves<QUEEN>(s, reach & targets);
  }
  if (detail::sink_done(sink) || !detail::sink_wants(sink, PAWN)) return;

  // Pawns. A pawn pinned along a file may still push; one pinned on a diagonal may only
  // capture along that diagonal; promotion squares are split off as their own batch.
  constexpr int UP = PAWN_PUSH<Us>, UP_WEST = PAWN_CAPTURE_WEST<Us>, UP_EAST = PAWN_CAPTURE_EAST<Us>;
  constexpr Bitboard LAST_RANK = relative_rank_bb(Us, RANK_8);
  constexpr Bitboard THIRD_RANK = relative_rank_bb(Us, RANK_3);
  const Bitboard empty = ~occ;
  const Bitboard pawns = pos.pawns & us;
  const Bitboard pushers = pawns & ~m.pin_diag;
  const Bitboard single = (shift<UP>(pushers & ~m.pin_orth) | (shift<UP>(pushers & m.pin_orth) & m.pin_orth)) & empty;
  const Bitboard doubles = shift<UP>(single & THIRD_RANK) & empty & m.checkmask;
  const Bitboard pushes = single & m.checkmask;
  const Bitboard capturers = pawns & ~m.pin_orth;
  const Bitboard free_capturers = capturers & ~m.pin_diag, pinned_capturers = capturers & m.pin_diag;
  const Bitboard capture_targets = them & m.checkmask;
  const Bitboard west =
      (shift<UP_WEST>(free_capturers) | (shift<UP_WEST>(pinned_capturers) & m.pin_diag)) & capture_targets;
  const Bitboard east =
      (shift<UP_EAST>(free_capturers) | (shift<UP_EAST>(pinned_capturers) & m.pin_diag)) & capture_targets;

  sink.template pawn_moves<PawnBatch::PUSH, UP>(pushes & ~LAST_RANK);
  sink.template pawn_moves<PawnBatch::DOUBLE_PUSH, 2 * UP>(doubles);
  sink.template pawn_moves<PawnBatch::CAPTURE, UP_WEST>(west & ~LAST_RANK);
  sink.template pawn_moves<PawnBatch::CAPTURE, UP_EAST>(east & ~LAST_RANK);
  if ((pushes | west | east) & LAST_RANK) {
    sink.template pawn_moves<PawnBatch::PROMOTION, UP>(pushes & LAST_RANK);
    sink.template pawn_moves<PawnBatch::PROMOTION, UP_WEST>(west & LAST_RANK);
    sink.template pawn_moves<PawnBatch::PROMOTION, UP_EAST>(east & LAST_RANK);
  }
  if (detail::sink_done(sink)) return;

  // En passant: removes two pawns from one rank at once, so it is checked by playing it out
  // (a pinned capturer, a rank pin through both pawns, a check it does not resolve).
  if (pos.ep_square != SQ_NONE) {
    const Square to = pos.ep_square;
    const Square captured = Square(to - UP);
    Bitboard capturers_ep = pawn_attacks(Them, to) & pawns;
    while (capturers_ep) {
      const Square from = pop_lsb(capturers_ep);
      const Bitboard after = (occ ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
      const bool leaves_check = (m.checkers & ~square_bb(captured) & ~(pos.diagonal | pos.orthogonal)) ||
                                (rook_attacks(ksq, after) & pos.orthogonal & them) ||
                                (bishop_attacks(ksq, after) & pos.diagonal & them);
      if (!leaves_check) sink.en_passant(from, to);
    }
  }
}

// Castling (standard and Chess960), for a side not in check: every square the king and
// rook cross or land on empty but for themselves, and no square the king crosses or lands
// on attacked, with the castling rook lifted (it may be shielding the king's destination).
// their_leaper_attacks is leaper_attacks<~Us>(pos): leapers ignore occupancy, so only the
// sliders are asked per square, with the king and rook lifted.
template <Color Us, typename Sink>
PERFTKIT_HD_INLINE void generate_castling(const Position& pos, Square ksq, Bitboard their_leaper_attacks, Sink& sink) {
  constexpr Color Them = ~Us;
  const Bitboard occ = pos.occupied();
  Bitboard rooks_with_right = pos.castling_rooks & pos.by_color[Us] & relative_rank_bb(Us, RANK_1);
  while (rooks_with_right) {
    const Square rook = pop_lsb(rooks_with_right);
    if (between_bb(ksq, rook) & occ) continue;  // the paths below always cover these squares
    const CastlingSide side = rook > ksq ? KING_SIDE : QUEEN_SIDE;
    const Bitboard king_path = rank_span(ksq, castling_king_to(Us, side));
    const Bitboard rook_path = rank_span(rook, castling_rook_to(Us, side));
    const Bitboard movers = square_bb(ksq) | square_bb(rook);
    if ((king_path | rook_path) & occ & ~movers) continue;
    if (king_path & their_leaper_attacks) continue;
    const Bitboard occ_lifted = occ ^ movers;
    bool safe = true;
    Bitboard path = king_path;
    while (path && safe) safe = !attacked_by_slider<Them>(pos, pop_lsb(path), occ_lifted);
    if (safe) sink.castling(ksq, rook);
  }
}

template <Color Us, typename Sink>
PERFTKIT_HD_INLINE void generate_castling(const Position& pos, Square ksq, Sink& sink) {
  generate_castling<Us>(pos, ksq, leaper_attacks<~Us>(pos), sink);
}

// Every legal move of the side to move Us, handed to sink in batches.
template <Color Us, typename Sink>
PERFTKIT_HD_INLINE void generate_legal(const Position& pos, Sink& sink) {
  constexpr Color Them = ~Us;
  const Bitboard us = pos.by_color[Us], them = pos.by_color[Them];
  const Bitboard occ = us | them;
  const Square ksq = pos.king_square(Us);
  const LegalityMasks m = legality_masks<Us>(pos, ksq);

  // King: any square not attacked once the king has left its own square. The leapers'
  // attacks are known for all squares at once; sliders are asked per remaining square.
  // (Castling asks the same leapers' attacks, so they are made once for both.)
  const bool king_wanted = detail::sink_wants(sink, KING);
  Bitboard king_targets = king_wanted ? king_attacks(ksq) & ~us : 0;
  const bool may_castle = king_wanted && (pos.castling_rooks & us) != 0;
  const Bitboard their_leapers = king_targets || may_castle ? leaper_attacks<Them>(pos) : 0;
  king_targets &= ~their_leapers;
  if (king_targets) {
    const Bitboard occ_without_king = occ ^ square_bb(ksq);
    Bitboard safe = 0;
    while (king_targets) {
      const Square to = pop_lsb(king_targets);
      if (!attacked_by_slider<Them>(pos, to, occ_without_king)) safe |= square_bb(to);
      if constexpr (detail::stops_early<Sink>)
        if (safe) break;
    }
    if (safe) sink.template piece_moves<KING>(ksq, safe);
  }
  if (more_than_one(m.checkers)) return;  // double check: only the king may move
  if (detail::sink_done(sink)) return;

  // Most positions have no check and no pin: their masks are compile-time constants, and
  // every test against them folds away.
  if (m.checkers | m.pin_orth | m.pin_diag) generate_non_king<Us>(pos, m, sink);
  else generate_non_king<Us>(pos, Unconstrained{}, sink);
  if (detail::sink_done(sink)) return;

  if (!m.checkers && may_castle) generate_castling<Us>(pos, ksq, their_leapers, sink);
}

// Records whether any legal move exists, stopping the generator at the first batch
// that has one.
struct AnyMoveSink {
  bool found = false;
  PERFTKIT_HD_INLINE bool done() const { return found; }
  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square, Bitboard targets) {
    found |= targets != 0;
  }
  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    found |= targets != 0;
  }
  PERFTKIT_HD_INLINE void en_passant(Square, Square) { found = true; }
  PERFTKIT_HD_INLINE void castling(Square, Square) { found = true; }
};

// True when the side to move Us has a legal move (the generator stops at the first).
template <Color Us>
PERFTKIT_HD_INLINE bool has_legal_move(const Position& pos) {
  AnyMoveSink sink;
  generate_legal<Us>(pos, sink);
  return sink.found;
}

// Counts legal moves without materialising them.
struct CountSink {
  std::uint64_t count = 0;
  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square, Bitboard targets) {
    count += popcount(targets);
  }
  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    count += (Kind == PawnBatch::PROMOTION ? 4 : 1) * popcount(targets);
  }
  PERFTKIT_HD_INLINE void en_passant(Square, Square) { ++count; }
  PERFTKIT_HD_INLINE void castling(Square, Square) { ++count; }
};

// Plays every legal move and calls visit(child, move).
template <Color Us, typename Visit>
struct VisitSink {
  const Position& pos;
  Visit& visit;

  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square from, Bitboard targets) {
    while (targets) {
      const Square to = pop_lsb(targets);
      visit(make_piece_move<Us, Pt>(pos, from, to), Move(from, to));
    }
  }
  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    while (targets) {
      const Square to = pop_lsb(targets);
      const Square from = Square(to - Offset);
      if constexpr (Kind == PawnBatch::PROMOTION) {
        for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT})
          visit(make_promotion<Us>(pos, from, to, promo), Move::make<PROMOTION>(from, to, promo));
      } else {
        visit(make_pawn_move<Us>(pos, from, to), Move(from, to));
      }
    }
  }
  PERFTKIT_HD_INLINE void en_passant(Square from, Square to) {
    visit(make_en_passant<Us>(pos, from, to), Move::make<EN_PASSANT>(from, to));
  }
  PERFTKIT_HD_INLINE void castling(Square king, Square rook) {
    visit(make_castling<Us>(pos, king, rook), Move::make<CASTLING>(king, rook));
  }
};

template <Color Us>
PERFTKIT_HD_INLINE std::uint64_t count_moves(const Position& pos) {
  CountSink sink;
  generate_legal<Us>(pos, sink);
  return sink.count;
}

// Number of legal moves of the side to move.
PERFTKIT_HD_INLINE std::uint64_t count_moves(const Position& pos) {
  return pos.side_to_move == WHITE ? count_moves<WHITE>(pos) : count_moves<BLACK>(pos);
}

template <Color Us, typename Visit>
PERFTKIT_HD_INLINE void for_each_legal_move(const Position& pos, Visit&& visit) {
  VisitSink<Us, std::remove_reference_t<Visit>> sink{pos, visit};
  generate_legal<Us>(pos, sink);
}

// Calls visit(child, move) for every legal move of the side to move.
template <typename Visit>
PERFTKIT_HD_INLINE void for_each_legal_move(const Position& pos, Visit&& visit) {
  if (pos.side_to_move == WHITE) for_each_legal_move<WHITE>(pos, visit);
  else for_each_legal_move<BLACK>(pos, visit);
}

// True when the side to move is in check.
PERFTKIT_HD_INLINE bool in_check(const Position& pos) {
  const Color us = pos.side_to_move;
  const Bitboard occ = pos.occupied();
  const Square ksq = pos.king_square(us);
  return us == WHITE ? attacked_by<BLACK>(pos, ksq, occ) : attacked_by<WHITE>(pos, ksq, occ);
}

PERFTKIT_ISA_END
}  // namespace perftkit
