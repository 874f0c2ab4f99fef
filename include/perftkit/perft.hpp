// Perft: the number of leaf nodes of the legal move tree, with the last ply bulk-counted.
#pragma once

#include "perftkit/movegen.hpp"

namespace perftkit {

template <Color Us>
PERFTKIT_HD std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 1) return depth == 1 ? count_moves<Us>(pos) : 1;
  std::uint64_t nodes = 0;
  if (depth == 2) {
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += count_moves<~Us>(child); });
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

}  // namespace perftkit
