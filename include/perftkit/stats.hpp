// Detailed perft statistics: counters over the moves into leaf positions (captures, en
// passant, castles, promotions, checks of each kind, mates) and draw statistics of the leaf
// positions (stalemate, dead material, the 50- and 75-move clocks). The last ply is generated
// by generate_legal() into a StatsSink, which counts each batch of moves by kind, plays the
// moves (make_* of position.hpp) and classifies the children; interior plies are walked as
// in perft().
#pragma once

#include <initializer_list>
#include <type_traits>

#include "perftkit/material.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {

enum StatField : std::uint8_t {
  NODES,
  CAPTURES,  // including en passant and capturing promotions
  EN_PASSANT_CAPTURES,
  CASTLES,
  PROMOTIONS,         // each promotion piece is one move
  CHECKS,             // every check, mates included: direct + discovered + double
  DISCOVERED_CHECKS,  // one checker, and not the piece that moved (mates included)
  DOUBLE_CHECKS,      // two checkers (mates included)
  CHECKMATES,
  DISCOVERED_CHECKMATES,  // the checkmates among the discovered checks
  DOUBLE_CHECKMATES,      // the checkmates among the double checks
  STALEMATES,
  DEAD_KING_VS_KING,
  DEAD_KING_VS_KING_BISHOP,
  DEAD_KING_VS_KING_KNIGHT,
  DEAD_KING_BISHOP_VS_KING_BISHOP,
  DEAD_SAME_COLOURED_BISHOPS,
  CLOCK_100,  // half-move clock at 100 or more: a draw may be claimed (50-move rule)
  CLOCK_150,  // half-move clock at 150 or more: drawn unless the move mated (75-move rule)
  STAT_FIELD_NB
};

// Leaf counters of one work unit; 64 bits each (drivers sum units in 128 bits).
struct LeafStats {
  std::uint64_t count[STAT_FIELD_NB];

  PERFTKIT_HD_INLINE std::uint64_t& operator[](StatField f) { return count[f]; }
  PERFTKIT_HD_INLINE std::uint64_t operator[](StatField f) const { return count[f]; }
  PERFTKIT_HD_INLINE LeafStats& operator+=(const LeafStats& other) {
    for (int f = 0; f < STAT_FIELD_NB; ++f) count[f] += other.count[f];
    return *this;
  }
  bool operator==(const LeafStats&) const = default;
};

static_assert(std::is_trivially_copyable_v<LeafStats>);

// Steps of the statistics that run once per parent of the last ply (last_ply_stats) or once
// per played leaf (classify_leaf): the device inlines them like everything else; the host
// calls them. Inlined on the host, each was copied into every batch of the move generator
// above it (a piece type or pawn batch, twice for the two mask variants), and a unit that
// instantiated perft_stats took minutes to compile. A call costs a few nanoseconds against
// the move generation it runs.
#ifdef __CUDA_ARCH__
#define PERFTKIT_HD_CALLED PERFTKIT_HD_INLINE
#else
#define PERFTKIT_HD_CALLED PERFTKIT_HD __attribute__((noinline))
#endif

// Counts the draw statistics of a leaf: dead material by kind and the move clocks.
PERFTKIT_HD_INLINE void classify_draws(const Position& child, LeafStats& stats) {
  switch (dead_material(child)) {
    case DeadMaterial::NONE: break;
    case DeadMaterial::KING_VS_KING: ++stats[DEAD_KING_VS_KING]; break;
    case DeadMaterial::KING_VS_KING_BISHOP: ++stats[DEAD_KING_VS_KING_BISHOP]; break;
    case DeadMaterial::KING_VS_KING_KNIGHT: ++stats[DEAD_KING_VS_KING_KNIGHT]; break;
    case DeadMaterial::KING_BISHOP_VS_KING_BISHOP: ++stats[DEAD_KING_BISHOP_VS_KING_BISHOP]; break;
    case DeadMaterial::SAME_COLOURED_BISHOPS: ++stats[DEAD_SAME_COLOURED_BISHOPS]; break;
  }
  stats[CLOCK_100] += child.halfmove_clock >= 100;
  stats[CLOCK_150] += child.halfmove_clock >= 150;
}

// What the moves of Us from one position can lead to, known before any is played: lets the
// last ply skip leaves that provably count nothing but their move kind (no check, a reply,
// no draw). It never decides a count; with shortcuts off every leaf is played.
struct LeafFilter {
  Bitboard direct[PIECE_TYPE_NB];  // where a piece of each type attacks Them's king from
  Bitboard uncovering;             // origins whose move may uncover a check
  bool classify_all;               // no leaf may be skipped
  bool them_keeps_a_move;          // a leaf where Them is not in check has a legal reply
  bool may_be_drawn;               // a leaf may be dead by material or have its clock at 100

  // Targets of moves from `from` by a piece of type Pt that may give check: a check from the
  // target, or a line from Them's king uncovered at the origin (its first piece).
  template <PieceType Pt>
  PERFTKIT_HD_INLINE Bitboard suspects(Square from, Bitboard targets) const {
    if (classify_all || (uncovering & square_bb(from))) return targets;
    return targets & direct[Pt];
  }
  // The same for pawn moves whose targets are their origins shifted by Offset.
  template <int Offset>
  PERFTKIT_HD_INLINE Bitboard pawn_suspects(Bitboard targets) const {
    return classify_all ? targets : targets & (direct[PAWN] | shift<Offset>(uncovering));
  }
};

// Them keeps a move when three of its knights or pawns off every line through its king (never
// pinned) have a free step: one move of Us takes or blocks at most two (castling lands two).
// No draw while the clock is below 99 and three pawns, rooks or queens stand (a move removes two at most).
template <Color Us>
PERFTKIT_HD_INLINE LeafFilter leaf_filter(const Position& pos, bool shortcuts) {
  constexpr Color Them = ~Us;
  LeafFilter f{};
  if (!shortcuts) {
    f.classify_all = f.may_be_drawn = true;
    return f;
  }
  const Bitboard theirs = pos.by_color[Them], ours = pos.by_color[Us], occ = pos.occupied();
  const Square ksq = pos.king_square(Them);
  const Bitboard unpinnable = theirs & ~queen_attacks(ksq, 0);
  int free_steps = popcount(shift<PAWN_PUSH<Them>>(pos.pawns & unpinnable) & ~occ);
  Bitboard knights = pos.knights & unpinnable;
  while (knights && free_steps < 3) free_steps += (knight_attacks(pop_lsb(knights)) & ~theirs) != 0;
  f.them_keeps_a_move = free_steps >= 3;
  f.may_be_drawn = pos.halfmove_clock >= 99 || popcount(pos.pawns | pos.orthogonal) <= 2;

  f.direct[PAWN] = pawn_attacks(Them, ksq);
  f.direct[KNIGHT] = knight_attacks(ksq);
  f.direct[BISHOP] = bishop_attacks(ksq, occ);
  f.direct[ROOK] = rook_attacks(ksq, occ);
  f.direct[QUEEN] = f.direct[BISHOP] | f.direct[ROOK];
  f.uncovering = f.direct[QUEEN] & ours;
  // Them already in check (an illegal position) would break the reasoning above.
  const bool them_in_check = (f.direct[PAWN] & pos.pawns & ours) || (f.direct[KNIGHT] & pos.knights & ours) ||
                             (f.direct[BISHOP] & pos.diagonal & ours) || (f.direct[ROOK] & pos.orthogonal & ours);
  f.classify_all = !f.them_keeps_a_move || f.may_be_drawn || them_in_check;
  return f;
}

// Counts the leaf position child, reached by a move of ~Them whose moving piece now stands
// on moved_to (the promoted piece for a promotion, the rook for castling): the kind of
// check (direct, discovered or double), mate or stalemate, and the draw statistics. filter
// is the parent's. Move-kind counters are the caller's.
template <Color Them>
PERFTKIT_HD_CALLED void classify_leaf(const Position& child, Square moved_to, const LeafFilter& filter,
                                      LeafStats& stats) {
  const Square ksq = child.king_square(Them);
  const Bitboard checkers = attackers<~Them>(child, ksq, child.occupied());
  if (checkers) {
    const bool double_check = more_than_one(checkers);
    const bool discovered = !double_check && !(checkers & square_bb(moved_to));
    const bool mate = !has_legal_move<Them>(child);
    ++stats[CHECKS];
    stats[DOUBLE_CHECKS] += double_check;
    stats[DISCOVERED_CHECKS] += discovered;
    stats[CHECKMATES] += mate;
    stats[DOUBLE_CHECKMATES] += double_check && mate;
    stats[DISCOVERED_CHECKMATES] += discovered && mate;
  } else if (!filter.them_keeps_a_move) {
    stats[STALEMATES] += !has_legal_move<Them>(child);
  }
  if (filter.may_be_drawn) classify_draws(child, stats);
}

// The last ply: counts every legal move of Us by kind, a batch at a time, and plays and
// classifies each move that the parent's LeafFilter cannot rule out.
template <Color Us>
struct StatsSink {
  const Position& pos;
  LeafFilter filter;
  LeafStats stats{};  // kept in the sink, apart from the position, so stores do not alias it

  PERFTKIT_HD_INLINE StatsSink(const Position& parent, bool shortcuts)
      : pos(parent), filter(leaf_filter<Us>(parent, shortcuts)) {}

  PERFTKIT_HD_INLINE void leaf(const Position& child, Square moved_to) {
    classify_leaf<~Us>(child, moved_to, filter, stats);
  }

  template <PieceType Pt>
  PERFTKIT_HD_INLINE void piece_moves(Square from, Bitboard targets) {
    stats[NODES] += popcount(targets);
    stats[CAPTURES] += popcount(targets & pos.by_color[~Us]);
    Bitboard suspects = filter.suspects<Pt>(from, targets);
    while (suspects) {
      const Square to = pop_lsb(suspects);
      leaf(make_piece_move<Us, Pt>(pos, from, to), to);
    }
  }

  template <PawnBatch Kind, int Offset>
  PERFTKIT_HD_INLINE void pawn_moves(Bitboard targets) {
    constexpr bool PROMOTING = Kind == PawnBatch::PROMOTION;
    constexpr bool CAPTURING = Kind == PawnBatch::CAPTURE || (PROMOTING && Offset != PAWN_PUSH<Us>);
    const std::uint64_t moves = std::uint64_t((PROMOTING ? 4 : 1) * popcount(targets));
    stats[NODES] += moves;
    if constexpr (CAPTURING) stats[CAPTURES] += moves;
    if constexpr (PROMOTING) stats[PROMOTIONS] += moves;
    Bitboard suspects = PROMOTING ? targets : filter.pawn_suspects<Offset>(targets);
    while (suspects) {
      const Square to = pop_lsb(suspects);
      const Square from = Square(to - Offset);
      if constexpr (PROMOTING) {
        for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT}) leaf(make_promotion<Us>(pos, from, to, promo), to);
      } else {
        leaf(make_pawn_move<Us>(pos, from, to), to);
      }
    }
  }

  PERFTKIT_HD_INLINE void en_passant(Square from, Square to) {
    ++stats[NODES];
    ++stats[CAPTURES];
    ++stats[EN_PASSANT_CAPTURES];
    leaf(make_en_passant<Us>(pos, from, to), to);
  }

  PERFTKIT_HD_INLINE void castling(Square king, Square rook) {
    ++stats[NODES];
    ++stats[CASTLES];
    const CastlingSide side = rook > king ? KING_SIDE : QUEEN_SIDE;
    leaf(make_castling<Us>(pos, king, rook), castling_rook_to(Us, side));
  }
};

// The last ply below pos: adds the statistics of every move of Us and its leaf to stats.
template <Color Us>
PERFTKIT_HD_CALLED void last_ply_stats(const Position& pos, LeafStats& stats, bool shortcuts) {
  StatsSink<Us> sink(pos, shortcuts);
  generate_legal<Us>(pos, sink);
  stats += sink.stats;
}

// The last two plies below pos, without recursion (device code has no stack to spare).
template <Color Us>
PERFTKIT_HD_INLINE void last_two_plies_stats(const Position& pos, LeafStats& stats, bool shortcuts) {
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) { last_ply_stats<~Us>(child, stats, shortcuts); });
}

// perft_stats() for depth 0..2, without recursion: what the GPU's last plies run.
template <Color Us>
PERFTKIT_HD_INLINE void shallow_perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts) {
  if (depth <= 0) ++stats[NODES];
  else if (depth == 1) last_ply_stats<Us>(pos, stats, shortcuts);
  else last_two_plies_stats<Us>(pos, stats, shortcuts);
}

template <Color Us>
PERFTKIT_HD void perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts) {
  if (depth <= 2) {
    shallow_perft_stats<Us>(pos, depth, stats, shortcuts);
    return;
  }
  for_each_legal_move<Us>(pos,
                          [&](const Position& child, Move) { perft_stats<~Us>(child, depth - 1, stats, shortcuts); });
}

// Adds the leaf statistics of the legal move tree of the given depth to stats. Depth 0
// counts the position itself as one node and nothing else: no move leads into it. With
// shortcuts off every leaf is played and classified (the reference the tests compare with).
PERFTKIT_HD inline void perft_stats(const Position& pos, int depth, LeafStats& stats, bool shortcuts = true) {
  if (pos.side_to_move == WHITE) perft_stats<WHITE>(pos, depth, stats, shortcuts);
  else perft_stats<BLACK>(pos, depth, stats, shortcuts);
}

// The statistics of the single legal move m of pos (the depth-1 tree below m).
template <Color Us>
PERFTKIT_HD_INLINE LeafStats move_stats(const Position& pos, Move m) {
  StatsSink<Us> sink(pos, false);
  const Square from = m.from(), to = m.to();
  const Bitboard to_bb = square_bb(to);
  switch (m.type()) {
    case EN_PASSANT: sink.en_passant(from, to); return sink.stats;
    case CASTLING: sink.castling(from, to); return sink.stats;
    case PROMOTION:
      ++sink.stats[NODES];
      ++sink.stats[PROMOTIONS];
      sink.stats[CAPTURES] += (pos.by_color[~Us] & to_bb) != 0;
      sink.leaf(make_promotion<Us>(pos, from, to, m.promotion_type()), to);
      return sink.stats;
    default: break;
  }
  switch (pos.piece_type_on(from)) {
    case PAWN:
      ++sink.stats[NODES];
      sink.stats[CAPTURES] += (pos.by_color[~Us] & to_bb) != 0;
      sink.leaf(make_pawn_move<Us>(pos, from, to), to);
      break;
    case KNIGHT: sink.template piece_moves<KNIGHT>(from, to_bb); break;
    case BISHOP: sink.template piece_moves<BISHOP>(from, to_bb); break;
    case ROOK: sink.template piece_moves<ROOK>(from, to_bb); break;
    case QUEEN: sink.template piece_moves<QUEEN>(from, to_bb); break;
    default: sink.template piece_moves<KING>(from, to_bb); break;
  }
  return sink.stats;
}

PERFTKIT_HD_INLINE LeafStats move_stats(const Position& pos, Move m) {
  return pos.side_to_move == WHITE ? move_stats<WHITE>(pos, m) : move_stats<BLACK>(pos, m);
}

}  // namespace perftkit
