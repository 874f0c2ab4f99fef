// Perft: the number of leaf nodes of the legal move tree, with the last ply bulk-counted.
#pragma once

#include <utility>

#include "perftkit/count_moves_avx512.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if !PERFTKIT_DEVICE_PASS
// The children of one node, kept for one counting loop: where the AVX-512 counter runs, in
// its own layout (eight to a block, field by field), else side by side.
struct ChildBuffer {
#if PERFTKIT_HAS_AVX512_COUNT
  avx512::PositionBlock blocks[MAX_LEGAL_MOVES / 8];
  PERFTKIT_FORCEINLINE void set(int i, const Position& child) { blocks[i / 8].set(i % 8, child); }
#else
  Position positions[MAX_LEGAL_MOVES];
  PERFTKIT_FORCEINLINE void set(int i, const Position& child) { positions[i] = child; }
#endif
};

// Sum of the legal move counts of the first n children, each with Us to move: one tight loop,
// called once per node rather than inlined into every batch of the generator.
template <Color Us>
[[gnu::noinline]] std::uint64_t count_moves_of(const ChildBuffer& children, int n) {
#if PERFTKIT_HAS_AVX512_COUNT
  std::uint64_t extra = 0;
  avx512::V counts = _mm512_setzero_si512();
  for (int i = 0; i < n; i += 8)
    counts = counts + avx512::count_moves_lanes<Us>(children.blocks[i / 8], n - i < 8 ? n - i : 8, extra);
  return avx512::lane_sum(counts) + extra;
#else
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += count_moves<Us>(children.positions[i]);
  return total;
#endif
}

// Leaf count two plies below pos, with Us to move: children first, then one counting loop
// (a GPU thread keeps the single pass: it has no stack to spare). Invented positions (a FEN
// full of queens) may have more moves than the buffer holds: a full one is counted and reused.
template <Color Us>
std::uint64_t two_ply_leaves(const Position& pos) {
  ChildBuffer children;
  int n = 0;
  std::uint64_t nodes = 0;
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
    if (n == MAX_LEGAL_MOVES) [[unlikely]]
      nodes += count_moves_of<~Us>(children, std::exchange(n, 0));
    children.set(n++, child);
  });
  return nodes + count_moves_of<~Us>(children, n);
}
#endif

template <Color Us>
PERFTKIT_HD std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 1) return depth == 1 ? count_moves<Us>(pos) : 1;
  std::uint64_t nodes = 0;
  if (depth == 2) {
#if PERFTKIT_DEVICE_PASS
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += count_moves<~Us>(child); });
#else
    nodes = two_ply_leaves<Us>(pos);
#endif
  } else {
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += perft<~Us>(child, depth - 1); });
  }
  return nodes;
}

// Leaf count of the legal move tree of the given depth (perft(0) = 1). Fits 64 bits for
// every depth a single call can finish; drivers sum subtrees in 128 bits.
PERFTKIT_HD inline std::uint64_t perft(const Position& pos, int depth) {
  return pos.side_to_move == WHITE ? perft<WHITE>(pos, depth) : perft<BLACK>(pos, depth);
}

PERFTKIT_ISA_END
}  // namespace perftkit
