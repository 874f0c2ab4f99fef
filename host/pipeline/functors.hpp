// Kernel bodies of the frontier pipeline: host+device callables over an index range or over
// elements. The GPU runs them from a thin __global__ wrapper or through Thrust with the CUDA
// policy; the OpenMP system runs the very same objects.
#pragma once

#include <cstdint>

#include "perftkit/move_list.hpp"
#include "perftkit/movegen.hpp"
#include "perftkit/perft.hpp"
#include "perftkit/position_key.hpp"
#include "perftkit/stats.hpp"
#include "pipeline/sum128.hpp"

namespace perftkit::pipeline {

// A multiplicity that no longer fits 64 bits; merging stops there and the run fails.
inline constexpr std::uint64_t SATURATED = ~std::uint64_t(0);

// offsets[i] = number of legal moves of positions[i] for i < n, offsets[n] = 0 (the slot the
// exclusive scan turns into the total). Runs over n + 1 indices.
struct CountChildren {
  const Position* positions;
  std::uint64_t* offsets;
  std::uint64_t n;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { offsets[i] = i < n ? count_moves(positions[i]) : 0; }
};

// Writes the children of positions[i] to children[offsets[i] - base ...], each with its
// parent's multiplicity. Without child_multiplicities (the subtree mode) a parent that was
// given no slots (a table hit) writes nothing; offsets then has an entry past the last parent.
struct GenerateChildren {
  const Position* positions;
  const std::uint64_t* multiplicities;
  const std::uint64_t* offsets;
  std::uint64_t base;
  Position* children;
  std::uint64_t* child_multiplicities;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    if (!child_multiplicities && offsets[i + 1] == offsets[i]) return;
    const Position parent = positions[i];  // in registers: the children written below cannot alias it
    if (parent.side_to_move == WHITE) write_children<WHITE>(parent, i);
    else write_children<BLACK>(parent, i);
  }

  template <Color Us>
  PERFTKIT_HD_INLINE void write_children(const Position& parent, std::uint64_t i) const {
    std::uint64_t k = offsets[i] - base;
    const std::uint64_t m = child_multiplicities ? multiplicities[i] : 0;
    for_each_listed_move<Us>(parent, [&](Move move) {
      children[k] = make_move<Us>(parent, move);
      if (child_multiplicities) child_multiplicities[k] = m;
      ++k;
    });
  }
};

// perft(pos, remaining) for remaining 0..2, without recursion (no call stack on the GPU):
// the last ply is bulk-counted, for the position itself or for each of its listed children,
// through one counter. The GPU's leaf count.
PERFTKIT_HD_INLINE std::uint64_t listed_leaf_perft(const Position& given, int remaining) {
  if (remaining <= 0) return 1;
  const Position pos = given;  // in registers, read once
  std::uint64_t nodes = 0;
  for_each_child_or_self(pos, remaining == 2, [&](const Position& last) { nodes += count_moves(last); });
  return nodes;
}

// perft(pos, remaining) for remaining 0..2: on the GPU listed_leaf_perft; on the host two
// plies take the core's own two-ply count (children made per colour into one buffer, then
// one counting loop), which does the same work in less time than the listed-move loop.
PERFTKIT_HD_INLINE std::uint64_t leaf_perft(const Position& pos, int remaining) {
#if !PERFTKIT_DEVICE_PASS
  if (remaining == 2) return pos.side_to_move == WHITE ? two_ply_leaves<WHITE>(pos) : two_ply_leaves<BLACK>(pos);
#endif
  return listed_leaf_perft(pos, remaining);
}

// counts[i] = perft(positions[i], remaining), remaining 0..2.
struct LeafCount {
  const Position* positions;
  std::uint64_t* counts;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { counts[i] = leaf_perft(positions[i], remaining); }
};

// stats[i] = the leaf statistics of positions[i] below remaining (1..2) plies, a thread per
// node (the host systems'; a GPU balances two plies over child slots: tally.hpp).
struct LeafStatsCount {
  const Position* positions;
  ShallowStats* stats;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    const Position pos = positions[i];  // read once
    ShallowStats sum{};
    for_each_child_or_self(pos, remaining == 2, [&](const Position& last) { last_ply_stats(last, sum, true); });
    stats[i] = sum;
  }
};

// stats[i] = the leaf statistics of positions[i] one ply above the leaves, counted in packed
// 16-bit counters and stored 32-bit. (Two plies are child slots: tally.hpp.) The position is
// read where it lies, through the cache: copied into registers, it made ptxas spill 48
// bytes on sm_90.
struct LastPlyStats {
  const Position* positions;
  ShallowStats* stats;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    PlyStats ply{};
    last_ply_stats(positions[i], ply, true);
    ShallowStats wide{};
    wide += ply;
    stats[i] = wide;
  }
};

// Every counter of the leaf statistics, each an exact 128-bit sum: what one reduction pass
// over a level's leaves carries.
struct StatsSum128 {
  Sum128 count[STAT_FIELD_NB];
};

struct StatsSum128Plus {
  PERFTKIT_HD StatsSum128 operator()(const StatsSum128& a, const StatsSum128& b) const {
    StatsSum128 sum;
    for (int f = 0; f < STAT_FIELD_NB; ++f) sum.count[f] = Sum128Plus{}(a.count[f], b.count[f]);
    return sum;
  }
};

// multiplicities[i] x stats[i], every counter, exact in 128 bits (Stats: ShallowStats at the
// last level, LeafStats of whole subtrees in the table mode).
template <typename Stats>
struct WeightedStats {
  const std::uint64_t* multiplicities;
  const Stats* stats;

  PERFTKIT_HD StatsSum128 operator()(std::uint64_t i) const {
    const std::uint64_t m = multiplicities[i];
    StatsSum128 weighted;
    for (int f = 0; f < STAT_FIELD_NB; ++f) weighted.count[f] = wide_product(m, stats[i].count[f]);
    return weighted;
  }
};

// multiplicities[i] x counts[i], exact in 128 bits.
struct WeightedCount {
  const std::uint64_t* multiplicities;
  const std::uint64_t* counts;

  PERFTKIT_HD Sum128 operator()(std::uint64_t i) const { return wide_product(multiplicities[i], counts[i]); }
};

// The half-move clock as far as a count below the position can tell: the leaf statistics
// count clocks of 100 and more, which a clock below clock_from (100 minus the plies left)
// cannot reach; node counts never look at it (clock_from past any clock).
struct ClockHorizon {
  std::uint32_t clock_from;

  PERFTKIT_HD_INLINE std::uint32_t operator()(const Position& p) const {
    return p.halfmove_clock >= clock_from ? p.halfmove_clock + 1u : 0u;
  }
};

inline constexpr ClockHorizon CLOCK_NEVER_COUNTS{~std::uint32_t(0)};

// Clock horizon for statistics of `remaining` plies below a position.
PERFTKIT_HD_INLINE constexpr ClockHorizon stats_clock_horizon(int remaining) {
  return ClockHorizon{remaining >= 100 ? 0u : std::uint32_t(100 - remaining)};
}

// The sort key of a position: one lane of its 128-bit key (with the clock where it counts),
// masked (tests mask it to force collisions). Equal positions get equal keys; unequal ones may too.
struct SortKey {
  KeySet keys;
  std::uint64_t mask;
  ClockHorizon clock;

  PERFTKIT_HD std::uint64_t operator()(const Position& p) const {
    return (position_key(p, keys).lo + detail::mix64(clock(p))) & mask;
  }
};

// True when two positions have the same legal move tree below them: every board, the
// castling rights, the en passant square and the side to move agree (the clocks may not).
PERFTKIT_HD_INLINE bool same_tree(const Position& a, const Position& b) {
  return a.by_color[WHITE] == b.by_color[WHITE] && a.by_color[BLACK] == b.by_color[BLACK] && a.pawns == b.pawns &&
         a.knights == b.knights && a.diagonal == b.diagonal && a.orthogonal == b.orthogonal && a.kings == b.kings &&
         a.castling_rooks == b.castling_rooks && a.ep_square == b.ep_square && a.side_to_move == b.side_to_move;
}

// Equality of the positions two sort-permutation entries point at: the exact test that
// decides every merge, whatever the keys say. Same tree, and the same clock where it counts.
struct SameTreeAt {
  const Position* positions;
  ClockHorizon clock;

  PERFTKIT_HD bool operator()(std::uint64_t a, std::uint64_t b) const {
    return same_tree(positions[a], positions[b]) && clock(positions[a]) == clock(positions[b]);
  }
};

// Adds multiplicities, sticking at SATURATED instead of wrapping (associative, so any
// reduction order gives the same answer).
struct SaturatingAdd {
  PERFTKIT_HD std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const {
    const std::uint64_t s = a + b;
    return s < a ? SATURATED : s;
  }
};

struct IsSaturated {
  PERFTKIT_HD bool operator()(std::uint64_t m) const { return m == SATURATED; }
};

}  // namespace perftkit::pipeline
