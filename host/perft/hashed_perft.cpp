// The hashed recursion lives in its own translation unit: its hot loops (the last two plies
// of nine in ten stored subtrees) are compiled the same way whatever else the driver holds.
#include "perft/hashed_perft.hpp"

#include "perftkit/perft.hpp"

namespace perftkit {
namespace {

// Leaf count below pos (depth >= 2), whose key is key. A node plays all its moves first,
// asks the memory for every child's bucket (prefetch), and only then descends, so the
// table's cache misses overlap instead of stalling one by one.
template <Color Us>
std::uint64_t perft_hashed(const Position& pos, const PositionKey& key, int depth, PerftTable& table,
                           const KeySet& keys) {
  std::uint64_t nodes = 0;
  if (table.probe(key, depth, nodes)) return nodes;
  if (depth == 2) {
    nodes = two_ply_leaves<Us>(pos);
  } else {
    Position children[MAX_LEGAL_MOVES];
    PositionKey child_keys[MAX_LEGAL_MOVES];
    int n = 0;
    const auto descend = [&] {
      for (int i = 0; i < n; ++i) nodes += perft_hashed<~Us>(children[i], child_keys[i], depth - 1, table, keys);
      n = 0;
    };
    for_each_legal_move<Us>(pos, [&](const Position& child, Move) {
      if (n == MAX_LEGAL_MOVES) [[unlikely]]
        descend();
      children[n] = child;
      child_keys[n] = position_key(child, keys);
      table.prefetch(child_keys[n], depth - 1);
      ++n;
    });
    descend();
  }
  table.store(key, depth, nodes);
  return nodes;
}

}  // namespace

std::uint64_t perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys) {
  if (depth <= 1) return perft(pos, depth);
  const PositionKey key = position_key(pos, keys);
  return pos.side_to_move == WHITE ? perft_hashed<WHITE>(pos, key, depth, table, keys)
                                   : perft_hashed<BLACK>(pos, key, depth, table, keys);
}

}  // namespace perftkit
