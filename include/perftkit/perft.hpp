// Perft: the number of leaf nodes of the legal move tree, with the last ply bulk-counted.
#pragma once

#include <utility>

#include "perftkit/count_moves_avx512.hpp"
#include "perftkit/movegen.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if PERFTKIT_HAS_AVX512_COUNT
// Sum of the legal move counts of the first n positions of blocks, each with Us to move:
// one tight loop, called once per node rather than inlined into every batch of the generator.
template <Color Us>
[[gnu::noinline]] std::uint64_t count_moves_of(const avx512::PositionBlock* blocks, int n) {
  std::uint64_t extra = 0;
  avx512::V counts = _mm512_setzero_si512();
  for (int i = 0; i < n; i += 8)
    counts = counts + avx512::count_moves_lanes<Us>(blocks[i / 8], n - i < 8 ? n - i : 8, extra);
  return avx512::lane_sum(counts) + extra;
}

// Leaf count two plies below pos, with Us to move: the children are stored in the counter's
// own layout, then counted eight at a time. Invented positions (a FEN full of queens) may have
// more moves than the blocks hold: full ones are counted and reused.
template <Color Us>
std::uint64_t two_ply_leaves(const Position& pos) {
  avx512::PositionBlock children[MAX_LEGAL_MOVES / 8];
  int n = 0;
  std::uint64_t nodes = 0;
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
    if (n == MAX_LEGAL_MOVES) [[unlikely]]
      nodes += count_moves_of<~Us>(children, std::exchange(n, 0));
    children[n / 8].set(n % 8, child);
    ++n;
  });
  return nodes + count_moves_of<~Us>(children, n);
}
#elif !PERFTKIT_DEVICE_PASS
// Sum of the legal move counts of positions[0, n), each with Us to move: one tight loop,
// called once per node rather than inlined into every batch of the generator.
template <Color Us>
[[gnu::noinline]] std::uint64_t count_moves_of(const Position* positions, int n) {
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += count_moves<Us>(positions[i]);
  return total;
}

// Leaf count two plies below pos, with Us to move: children first, then one counting loop
// (a GPU thread keeps the single pass: it has no stack to spare). Invented positions (a FEN
// full of queens) may have more moves than the buffer holds: a full one is counted and reused.
template <Color Us>
std::uint64_t two_ply_leaves(const Position& pos) {
  Position children[MAX_LEGAL_MOVES];
  int n = 0;
  std::uint64_t nodes = 0;
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
    if (n == MAX_LEGAL_MOVES) [[unlikely]]
      nodes += count_moves_of<~Us>(children, std::exchange(n, 0));
    children[n++] = child;
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
