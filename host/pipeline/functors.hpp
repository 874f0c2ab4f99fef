// Kernel bodies of the frontier pipeline: host+device callables over an index range or over
// elements. The GPU runs them from a thin __global__ wrapper or through Thrust with the CUDA
// policy; the OpenMP system runs the very same objects.
#pragma once

#include <cstdint>

#include "perftkit/movegen.hpp"
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
    std::uint64_t k = offsets[i] - base;
    if (!child_multiplicities) {
      if (offsets[i + 1] == offsets[i]) return;
      for_each_legal_move(positions[i], [&](const Position& child, Move) { children[k++] = child; });
      return;
    }
    const std::uint64_t m = multiplicities[i];
    for_each_legal_move(positions[i], [&](const Position& child, Move) {
      children[k] = child;
      child_multiplicities[k] = m;
      ++k;
    });
  }
};

template <Color Us>
PERFTKIT_HD_INLINE std::uint64_t perft2(const Position& pos) {
  std::uint64_t nodes = 0;
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += count_moves<~Us>(child); });
  return nodes;
}

// perft(pos, remaining) for remaining 0..2, without recursion (no call stack on the GPU):
// the last ply is bulk-counted.
PERFTKIT_HD_INLINE std::uint64_t leaf_perft(const Position& pos, int remaining) {
  if (remaining <= 0) return 1;
  if (remaining == 1) return count_moves(pos);
  return pos.side_to_move == WHITE ? perft2<WHITE>(pos) : perft2<BLACK>(pos);
}

// counts[i] = perft(positions[i], remaining), remaining 0..2.
struct LeafCount {
  const Position* positions;
  std::uint64_t* counts;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { counts[i] = leaf_perft(positions[i], remaining); }
};

// perft_stats(pos, remaining) for remaining 0..2, without recursion (as leaf_perft).
PERFTKIT_HD_INLINE LeafStats leaf_stats(const Position& pos, int remaining) {
  LeafStats stats{};
  if (pos.side_to_move == WHITE) shallow_perft_stats<WHITE>(pos, remaining, stats, true);
  else shallow_perft_stats<BLACK>(pos, remaining, stats, true);
  return stats;
}

// stats[i] = the leaf statistics of positions[i] below remaining (0..2) plies.
struct LeafStatsCount {
  const Position* positions;
  LeafStats* stats;
  int remaining;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const { stats[i] = leaf_stats(positions[i], remaining); }
};

// multiplicities[i] x stats[i][field], exact in 128 bits.
struct WeightedStat {
  const std::uint64_t* multiplicities;
  const LeafStats* stats;
  StatField field;

  PERFTKIT_HD Sum128 operator()(std::uint64_t i) const { return wide_product(multiplicities[i], stats[i].count[field]); }
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
