// How big a transposition table a perft needs: enough for the subtrees it will store, so
// that the default neither thrashes nor spends seconds of page faults on memory it never uses.
#pragma once

#include <cstddef>

#include "perftkit/position.hpp"

namespace perftkit {

// Bytes of table for perft(root, depth) when every distinct position at plies up to
// depth - 2 (the subtrees of two plies or more) has a slot in PerftTable's layout: the
// distinct positions at plies 1..4 are counted, and further plies while a ply holds few
// positions (a small tree, such as a bare endgame, stops growing: its deep plies are counted,
// not extrapolated); beyond that, extrapolated with the growth of the last ply, a little
// less every ply. A multiple of 64 MiB, or 16 MiB for small runs; 0 below depth 3 (nothing
// is stored).
// Every table has that layout: the CPU core's PerftTable and the frontier pipeline's tables
// (--backend pipeline, and the GPUs).
std::size_t suggested_hash_bytes(const Position& root, int depth);

// The same rule for a statistics table (StatsTable): the same subtrees, each a narrow entry
// (32 bytes), the two-ply ones at full load and the deeper ones at three quarters, as the
// node table's two parts.
std::size_t suggested_stats_hash_bytes(const Position& root, int depth);

}  // namespace perftkit
