// Perft with a transposition table of subtree counts: each (position, depth) subtree is
// counted once per table lifetime; the last ply is bulk-counted without the table.
#pragma once

#include <cstdint>

#include "perft/table.hpp"
#include "perftkit/position.hpp"

namespace perftkit {

// Leaf count of pos's move tree of `depth` plies, using and filling table.
std::uint64_t perft_hashed(const Position& pos, int depth, PerftTable& table, const KeySet& keys);

}  // namespace perftkit
