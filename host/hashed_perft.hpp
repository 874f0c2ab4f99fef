// Perft with a transposition table of subtree counts: each (position, depth) subtree
// is counted once per table lifetime; the last ply is bulk-counted without the table.
#pragma once

#include "perft_table.hpp"
#include "perftkit/perft.hpp"

namespace perftkit {

template <Color Us>
std::uint64_t perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys) {
  if (depth <= 1) return perft<Us>(pos, depth);
  const PositionKey key = position_key(pos, keys);
  std::uint64_t nodes = 0;
  if (table.probe(key, depth, nodes)) return nodes;
  for_each_legal_move<Us>(pos, [&](const Position& child, Move) { nodes += perft_hashed<~Us>(child, depth - 1, table, keys); });
  table.store(key, depth, nodes);
  return nodes;
}

// Leaf count of pos's move tree of `depth` plies, using and filling table.
inline std::uint64_t perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys) {
  return pos.side_to_move == WHITE ? perft_hashed<WHITE>(pos, depth, table, keys)
                                   : perft_hashed<BLACK>(pos, depth, table, keys);
}

}  // namespace perftkit
