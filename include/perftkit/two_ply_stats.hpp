// The statistics of the last two plies below one position on the host CPU: the children are
// written into the AVX-512 counter's lanes (ChildBuffer) and counted eight at a time
// (stats_lanes_avx512.hpp), which plays only their checks, promotions and en-passant
// captures; children the lanes cannot decide go through the scalar last ply. Without
// AVX-512, or where a leaf may be drawn, it is last_two_plies_stats(). See
// docs/stats-table.md, "The last two plies".
#pragma once

#include "perftkit/perft.hpp"
#include "perftkit/stats.hpp"
#include "perftkit/stats_lanes_avx512.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if !PERFTKIT_DEVICE_PASS

#if PERFTKIT_HAS_AVX512_COUNT
// The leaves of a lane that count_stats_lanes() counted (Us to move) which must be played:
// its direct checks that may mate, tested for mate, and its promotions and en-passant
// captures, classified. The lane's moves and direct checks are counted already, and no move
// uncovers a check.
template <Color Us>
struct LeavesToPlaySink {
  const Position& pos;
  LeafFilter filter;
  Bitboard may_mate;  // where a direct check that may mate lands
  LeafStats& stats;
  // The kinds of piece with leaves to play: pawns for a direct check, a promotion or an
  // en-passant capture.
  bool pawns, knights, sliders;

  bool wants(PieceType pt) const { return pt == PAWN ? pawns : pt == KNIGHT ? knights : pt != KING && sliders; }
  template <PieceType Pt>
  void piece_moves(Square from, Bitboard targets) {
    for (Bitboard checks = targets & filter.direct[Pt] & may_mate; checks;) {
      const Square to = pop_lsb(checks);
      direct_check(make_piece_move<Us, Pt>(pos, from, to));
    }
  }
  template <PawnBatch Kind, int Offset>
  void pawn_moves(Bitboard targets) {
    if constexpr (Kind == PawnBatch::PROMOTION) {
      while (targets) {
        const Square to = pop_lsb(targets);
        for (PieceType promo : {QUEEN, ROOK, BISHOP, KNIGHT})
          classify_leaf<~Us>(make_promotion<Us>(pos, Square(to - Offset), to, promo), to, filter, stats);
      }
    } else {
      for (Bitboard checks = targets & filter.direct[PAWN] & may_mate; checks;) {
        const Square to = pop_lsb(checks);
        direct_check(make_pawn_move<Us>(pos, Square(to - Offset), to));
      }
    }
  }
  void en_passant(Square from, Square to) {
    classify_leaf<~Us>(make_move<Us>(pos, Move::make<EN_PASSANT>(from, to)), to, filter, stats);
  }
  void castling(Square, Square) {}

  // A leaf in check from the piece that moved alone (nothing else can check in such a lane):
  // a mate when Them has no reply.
  [[gnu::noinline]] void direct_check(const Position& leaf) { stats[CHECKMATES] += !has_legal_move<~Us>(leaf); }
};

// The LeafFilter of a lane that count_stats_lanes() counted: where each piece checks from,
// and its verdict that Them keeps a reply after any move that does not check and no leaf is
// drawn (leaf_filter() without the work of reaching that verdict again).
template <Color Us>
LeafFilter counted_lane_filter(const Position& pos) {
  LeafFilter f{};
  find_direct_checks<Us>(pos, f.direct);
  f.them_keeps_a_move = true;
  return f;
}

// The last-ply statistics of the first ends[parents - 1] children (Us to move in each), added
// to their parents': parent p's children are [ends[p - 1], ends[p]) (from 0 for the first),
// its statistics stats[p]. Batches of eight lanes run across parents, so that one parent's
// few children do not leave a batch mostly empty. The lanes hold no clocks: the caller makes
// sure that no leaf can be drawn, so that the clocks count nothing.
template <Color Us, int Capacity>
[[gnu::noinline]] void last_ply_stats_of(const ChildBuffer<Capacity>& children, const int* ends, int parents,
                                         LeafStats* stats) {
  const int n = ends[parents - 1];
  avx512::LaneCounts parent_counts;  // the current parent's counted lanes so far
  int parent = 0;                    // the parent of the first lane not yet added to parent_counts
  const auto close_parent = [&] {
    LeafStats& s = stats[parent++];
    const avx512::V zero = _mm512_setzero_si512();
    alignas(64) std::uint64_t sums[8];
    _mm512_store_si512(
        sums, avx512::lane_sums({parent_counts.nodes, parent_counts.captures, parent_counts.en_passant,
                                 parent_counts.castles, parent_counts.promotions, parent_counts.checks, zero, zero}));
    s[NODES] += sums[0];
    s[CAPTURES] += sums[1];
    s[EN_PASSANT_CAPTURES] += sums[2];
    s[CASTLES] += sums[3];
    s[PROMOTIONS] += sums[4];
    s[CHECKS] += sums[5];
    parent_counts = avx512::LaneCounts{};
  };
  alignas(64) Bitboard may_mate[8];
  for (int first = 0; first < n; first += 8) {
    const int stop = n - first < 8 ? n : first + 8;
    while (ends[parent] <= first) close_parent();
    const avx512::Lanes lanes = avx512::load_lanes<Us>(children.lanes, first, stop - first);
    // A batch of one parent's children (most of them) counts into its counts at once.
    const bool one_parent = ends[parent] >= stop;
    avx512::LaneCounts batch_counts;
    const avx512::LaneSplit split = avx512::count_stats_lanes<Us>(lanes, one_parent ? parent_counts : batch_counts);
    // The parent of child i, from the batch's first parent on (i ascending).
    int owner = parent;
    const auto stats_of = [&](int i) -> LeafStats& {
      while (ends[owner] <= i) ++owner;
      return stats[owner];
    };
    for (unsigned rest = lanes.live & ~split.counted; rest; rest &= rest - 1) {
      const int i = first + __builtin_ctz(rest);
      last_ply_stats<Us>(children.get(i, Us), stats_of(i), true);
    }
    const unsigned pawns = split.pawn_checks | split.promotions | split.en_passant;
    const unsigned to_play = pawns | split.knight_checks | split.slider_checks;
    if (to_play) _mm512_store_si512(may_mate, split.may_mate);
    owner = parent;
    for (unsigned rest = to_play; rest; rest &= rest - 1) {
      const unsigned lane = __builtin_ctz(rest), bit = 1u << lane;
      const int i = first + int(lane);
      const Position child = children.get(i, Us);
      LeavesToPlaySink<Us> sink{child,
                                counted_lane_filter<Us>(child),
                                may_mate[lane],
                                stats_of(i),
                                (pawns & bit) != 0,
                                (split.knight_checks & bit) != 0,
                                (split.slider_checks & bit) != 0};
      generate_legal<Us>(child, sink);
    }
    if (one_parent) continue;
    // The batch's counts, parent by parent: the lanes [at, end) of one parent at a time.
    for (int at = first; at < stop;) {
      while (ends[parent] <= at) close_parent();
      const int end = ends[parent] < stop ? ends[parent] : stop;
      parent_counts.add(__mmask8(((1u << (end - first)) - 1) & ~((1u << (at - first)) - 1)), batch_counts);
      at = end;
    }
  }
  while (parent < parents) close_parent();
}

// No leaf two plies below pos is drawn, whatever it is: every clock stays below 99, and
// three pawns, rooks or queens remain (a move takes one at most). The LeafFilter's rule.
PERFTKIT_FORCEINLINE bool no_leaf_drawn_two_plies_below(const Position& pos) {
  return pos.halfmove_clock <= 97 && popcount(pos.pawns | pos.orthogonal) >= 4;
}
#endif

// Adds the statistics of the tree two plies below pos (Us to move) to stats.
template <Color Us>
void two_ply_stats(const Position& pos, LeafStats& stats) {
#if PERFTKIT_HAS_AVX512_COUNT
  if (no_leaf_drawn_two_plies_below(pos)) {
    ChildBuffer<> children;
    int n = 0;
    children.template append_children<Us>(pos, n, [&](int full) {
      last_ply_stats_of<~Us>(children, &full, 1, &stats);
      return 0;
    });
    if (n) last_ply_stats_of<~Us>(children, &n, 1, &stats);
    return;
  }
#endif
  last_two_plies_stats<Us>(pos, stats, true);
}

#endif

PERFTKIT_ISA_END
}  // namespace perftkit
