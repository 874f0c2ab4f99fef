// Kernel bodies of the frontier pipeline: host+device callables over an index range or over
// elements. The GPU runs them from a thin __global__ wrapper or through Thrust with the CUDA
// policy; the OpenMP system runs the very same objects.
#pragma once

#include <cstdint>

#include "perftkit/movegen.hpp"
#include "perftkit/position_key.hpp"
#include "pipeline_sum128.hpp"

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
// parent's multiplicity.
struct GenerateChildren {
  const Position* positions;
  const std::uint64_t* multiplicities;
  const std::uint64_t* offsets;
  std::uint64_t base;
  Position* children;
  std::uint64_t* child_multiplicities;

  PERFTKIT_HD_INLINE void operator()(std::uint64_t i) const {
    std::uint64_t k = offsets[i] - base;
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

// multiplicities[i] x counts[i], exact in 128 bits.
struct WeightedCount {
  const std::uint64_t* multiplicities;
  const std::uint64_t* counts;

  PERFTKIT_HD Sum128 operator()(std::uint64_t i) const { return wide_product(multiplicities[i], counts[i]); }
};

// The sort key of a position: one lane of its 128-bit key, masked (tests mask it to force
// collisions). Equal positions get equal keys; unequal ones may too.
struct SortKey {
  KeySet keys;
  std::uint64_t mask;

  PERFTKIT_HD std::uint64_t operator()(const Position& p) const { return position_key(p, keys).lo & mask; }
};

// True when two positions have the same legal move tree below them: every board, the
// castling rights, the en passant square and the side to move agree (the clocks may not).
PERFTKIT_HD_INLINE bool same_tree(const Position& a, const Position& b) {
  return a.by_color[WHITE] == b.by_color[WHITE] && a.by_color[BLACK] == b.by_color[BLACK] && a.pawns == b.pawns &&
         a.knights == b.knights && a.diagonal == b.diagonal && a.orthogonal == b.orthogonal && a.kings == b.kings &&
         a.castling_rooks == b.castling_rooks && a.ep_square == b.ep_square && a.side_to_move == b.side_to_move;
}

// Equality of the positions two sort-permutation entries point at: the exact test that
// decides every merge, whatever the keys say.
struct SameTreeAt {
  const Position* positions;

  PERFTKIT_HD bool operator()(std::uint64_t a, std::uint64_t b) const { return same_tree(positions[a], positions[b]); }
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
